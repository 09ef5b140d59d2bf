/**
 * Ingest throughput through the real path (issue #26): synthetic agent notes (bench/recallCliPath.ts
 * `note`) written to a JSONL file and imported by one `agent-memory ingest` process into an empty
 * store, which waits until every memory is embedded and extracted (the default USE-lite model and
 * the heuristic extractor) — memories per second from outside the process, with its CPU time
 * (user + system of the process and its worker threads, from /proc) and the load average around
 * each run and the process's peak resident set (VmHWM). Sizes and runs: `--sizes 1000,10000 --runs 3`; `--cli PATH` measures another build
 * (e.g. a worktree of an earlier commit) with the same notes. Needs `npm run build`.
 * Writes bench/results/ingestThroughput.json (or `--out FILE`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { note } from './recallCliPath';

const ROOT = join(__dirname, '..');

interface Run { readonly memories: number; readonly ms: number; readonly perSecond: number; readonly cpuSeconds: number; readonly peakRssMiB: number; readonly load: readonly number[][] }

const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
}

/** CPU seconds (user + system, threads included) of a process from /proc/<pid>/stat; USER_HZ is 100 on Linux. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch { return NaN; }
}

/** Peak resident set (VmHWM) of a process in MiB from /proc/<pid>/status, or NaN once it is gone. */
function peakRssMiB(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch { return NaN; }
}

function ingestOnce(cli: string, file: string, n: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'am-ingest-bench-'));
  const before = load();
  const started = performance.now();
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'ingest', file, '--store', join(dir, 'store')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let cpu = 0;
    let peak = 0;
    // Sampled until the process exits (its /proc entry goes with it).
    const timer = setInterval(() => {
      const c = cpuSeconds(child.pid ?? -1);
      if (Number.isFinite(c)) cpu = c;
      const r = peakRssMiB(child.pid ?? -1);
      if (Number.isFinite(r)) peak = r;
    }, 200);
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) { reject(new Error(`ingest exited ${code}: ${err.slice(-500)}`)); return; }
      const ms = performance.now() - started;
      const reported = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { ingested?: number };
      if (reported.ingested !== n) { reject(new Error(`ingested ${reported.ingested} of ${n}`)); return; }
      resolve({ memories: n, ms: Math.round(ms), perSecond: Math.round(n / (ms / 1000) * 10) / 10, cpuSeconds: Math.round(cpu * 10) / 10, peakRssMiB: peak, load: [before, load()] });
    });
  });
}

async function main(): Promise<void> {
  const sizes = arg('sizes', '1000,10000').split(',').map(Number);
  const runs = Number(arg('runs', '3'));
  const cli = arg('cli', join(ROOT, 'dist', 'cli.js'));
  const outFile = arg('out', join(ROOT, 'bench', 'results', 'ingestThroughput.json'));
  const work = mkdtempSync(join(tmpdir(), 'am-ingest-notes-'));
  const results: Record<string, unknown> = {};
  try {
    for (const n of sizes) {
      const file = join(work, `notes-${n}.jsonl`);
      writeFileSync(file, Array.from({ length: n }, (_, i) => JSON.stringify({ content: note(i) })).join('\n') + '\n');
      const done: Run[] = [];
      for (let r = 0; r < runs; r++) {
        const run = await ingestOnce(cli, file, n);
        done.push(run);
        console.log(`${String(n).padStart(7)} run ${r + 1}: ${run.ms} ms = ${run.perSecond} memories/s, CPU ${run.cpuSeconds} s, peak RSS ${run.peakRssMiB} MiB, load ${run.load[0]?.join(' ')}`);
      }
      const med = median(done.map((d) => d.perSecond));
      console.log(`${String(n).padStart(7)} median ${med} memories/s over ${runs} runs`);
      results[String(n)] = { medianPerSecond: med, runs: done };
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(outFile, JSON.stringify({ date: new Date().toISOString(), node: process.version, cli, sizes: results }, null, 2) + '\n');
  console.log(`wrote ${outFile}`);
}

void main().catch((e: unknown) => { console.error(e); process.exit(1); });

/**
 * Store size, open time and ingest throughput at scale (docs/store.md, "Measured: size, open and
 * ingest at 1k/10k/100k"). For each size: a store filled through `agent-memory ingest` (sizes up to
 * --ingest-up-to; embedding and extraction, timed: memories/s with CPU time of the process), or,
 * above it, the in-process fill of bench/recallCliPath.ts (`directFill`: the same notes, heuristic
 * graph of every --graph-every-th memory, int8 vectors of real embeddings reused with noise; no
 * memory supersession scan or category hints, so its time is not an ingest throughput and its
 * graph is thinner). Then `agent-memory maintain compact-store`, and: snapshot bytes per memory,
 * `agent-memory stats` (open + count) median of 5 and node start alone, the RSS of a `stats` and
 * of a first `agent-memory recall`, and that recall's time. Load averages go with every figure.
 *
 *   npx tsx bench/storeScale.ts [--sizes 1000,10000,100000] [--ingest-up-to 10000] [--graph-every 10] [--reuse 10000=DIR,...]
 *
 * Writes bench/results/storeScale.json. Stores are made in a temp folder and deleted, except
 * --reuse folders (measured, and migrated/compacted by the CLI like any store, never deleted).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { directFill, note } from './recallCliPath';

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? dflt) : dflt;
};
const CLI = join(__dirname, '..', 'dist', 'cli.js');
const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);
const median = (xs: readonly number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] as number; };

/** Runs a command under /usr/bin/time: wall ms, CPU ms (user + system) and peak RSS of the process. */
function timed(argv: readonly string[]): { ms: number; cpuMs: number; rssMb: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %M', ...argv], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  const m = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  return { ms, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN, rssMb: m ? Number(m[3]) / 1024 : NaN, stdout: r.stdout };
}
const cli = (...a: string[]) => timed([process.execPath, CLI, ...a]);
const round = (x: number, d = 0): number => Math.round(x * 10 ** d) / 10 ** d;

async function fill(n: number, dir: string, ingestUpTo: number, graphEvery: number): Promise<Record<string, unknown>> {
  const contents = Array.from({ length: n }, (_, i) => note(i));
  const before = load();
  if (n <= ingestUpTo) {
    const file = join(dir, '..', `notes-${n}.jsonl`);
    writeFileSync(file, contents.map((content) => JSON.stringify({ content })).join('\n') + '\n');
    const r = cli('ingest', file, '--store', dir);
    rmSync(file);
    return { fill: 'agent-memory ingest (embedding + extraction)', ms: round(r.ms), cpuMs: round(r.cpuMs), memoriesPerSecond: round(n / (r.ms / 1000), 1), memoriesPerCpuSecond: round(n / (r.cpuMs / 1000), 1), peakRssMb: round(r.rssMb), loadAverage: [before, load()] };
  }
  const t = await directFill(dir, contents, true, graphEvery);
  return { fill: `in-process (bench/recallCliPath.ts directFill: heuristic graph of every ${graphEvery}th memory, vectors: ${t.vectors}); not an ingest throughput`, ms: round(t.ms), loadAverage: [before, load()] };
}

function measure(n: number, dir: string): Record<string, unknown> {
  const loadAtStart = load();
  const compact = cli('maintain', 'compact-store', '--store', dir);
  const snapshotBytes = statSync(join(dir, 'snapshot.amsnap')).size;
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).size]));
  const nodeStart = Array.from({ length: 5 }, () => timed([process.execPath, '-e', '0']).ms);
  const stats = Array.from({ length: 5 }, () => cli('stats', '--store', dir));
  const recall = cli('recall', 'which service uses Kafka for storage', '--store', dir);
  const out = {
    memories: n,
    snapshotBytes, snapshotBytesPerMemory: round(snapshotBytes / n), files,
    compactMs: round(compact.ms),
    statsMedianMs: round(median(stats.map((s) => s.ms))), statsMs: stats.map((s) => round(s.ms)), statsCpuMedianMs: round(median(stats.map((s) => s.cpuMs))), statsRssMb: round(median(stats.map((s) => s.rssMb))),
    nodeStartMedianMs: round(median(nodeStart)),
    firstRecallMs: round(recall.ms), firstRecallCpuMs: round(recall.cpuMs), firstRecallRssMb: round(recall.rssMb),
    loadAverage: [loadAtStart, load()],
  };
  console.log(`${String(n).padStart(6)}: snapshot ${(snapshotBytes / 1e6).toFixed(1)} MB = ${out.snapshotBytesPerMemory} B/memory; stats median ${out.statsMedianMs} ms (cpu ${out.statsCpuMedianMs} ms, node start ${out.nodeStartMedianMs} ms, RSS ${out.statsRssMb} MB); first recall ${out.firstRecallMs} ms (RSS ${out.firstRecallRssMb} MB); load ${loadAtStart.join(' ')}`);
  return out;
}

async function main(): Promise<void> {
  const sizes = arg('sizes', '1000,10000,100000').split(',').map(Number);
  const ingestUpTo = Number(arg('ingest-up-to', '10000'));
  const graphEvery = Number(arg('graph-every', '10'));
  const reuse = new Map(arg('reuse', '').split(',').filter(Boolean).map((p) => { const [k, v] = p.split('='); return [Number(k), v as string]; }));
  const report: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, loadAverageAtStart: load(), sizes: {} };
  for (const n of sizes) {
    const root = reuse.has(n) ? undefined : mkdtempSync(join(tmpdir(), 'am-scale-'));
    const dir = reuse.get(n) ?? join(root as string, 'store');
    try {
      const filled = reuse.has(n) ? { fill: 'reused a store filled earlier (see docs/store.md)' } : await fill(n, dir, ingestUpTo, graphEvery);
      console.log(`${String(n).padStart(6)}: ${JSON.stringify(filled)}`);
      (report.sizes as Record<string, unknown>)[String(n)] = { ...filled, ...measure(n, dir) };
    } finally {
      if (root) rmSync(root, { recursive: true, force: true });
    }
    writeFileSync(join(__dirname, 'results', 'storeScale.json'), JSON.stringify(report, null, 2) + '\n');
  }
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });

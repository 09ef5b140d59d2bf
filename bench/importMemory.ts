/**
 * Import memory bench (issue #26, "Bounded import memory"; docs/transcripts.md "Large transcripts"):
 * peak RSS of `agent-memory import` on a generated transcript of N turns (default 1,000,000) in the
 * generic JSONL format, through the built CLI (dist/cli.js) as a user runs it, into a fresh store.
 * The transcript is written to a temp folder and deleted afterwards (never committed). Its turns are
 * short chat lines (ok / run the tests / file names, 10–40 characters) so that a million of them fit
 * under the 50 MiB import cap (capture.maxFileBytes). Runs, per repetition: the import with
 * --no-wait, the same import again (the resume / no-op path, which reads the whole file again), and
 * the import with the default wait (the new memories are embedded and extracted in the same
 * process). Peak RSS is the process's maximum resident set (getrusage, through /usr/bin/time).
 * Writes bench/results/importMemory.json.
 *
 *   npm run build && node --require tsx/cjs bench/importMemory.ts [--turns 1000000] [--runs 3] [--no-embed]
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';

const args = process.argv.slice(2);
const argOf = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] as string : def; };
const TURNS = Number(argOf('turns', '1000000'));
const RUNS = Number(argOf('runs', '3'));
const EMBED = !args.includes('--no-embed');
const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');

let seed = 26;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
const USER = ['run the tests', 'ok', 'fix the build', 'what failed?', 'try again', 'use pnpm', 'looks good', 'rename it', 'and the docs?', 'ship it'];
const ANSWER = ['done', 'tests pass', 'fixed in', 'updated', 'one failure in', 'renamed', 'the build is green', 'changed'];
const FILES = ['src/api.ts', 'lib/db.go', 'app/main.py', 'README.md', 'pkg/auth.rs', 'web/index.tsx'];

async function writeTranscript(file: string, turns: number): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  const t0 = Date.parse('2026-01-05T09:00:00Z');
  for (let i = 0; i < turns; i++) {
    const user = i % 2 === 0;
    const content = user ? `${pick(USER)} ${i % 97 === 0 ? pick(FILES) : ''}`.trim() : `${pick(ANSWER)} ${pick(FILES)}`;
    const o: Record<string, unknown> = { role: user ? 'user' : 'assistant', content };
    if (i === 0) { o.sessionId = 'bench-import-memory'; o.project = 'bench'; }
    if (i % 1000 === 0) o.timestamp = new Date(t0 + i * 1000).toISOString();
    const line = `${JSON.stringify(o)}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

interface Run { readonly peakRssMb: number; readonly seconds: number; readonly cpuSeconds: number; readonly turnsRecorded: number; readonly memoriesCreated: number }

function importOnce(store: string, file: string, wait: boolean): Run {
  const r = spawnSync('/usr/bin/time', ['-f', 'PEAK %M %e %U %S', process.execPath, CLI, '--store', store, 'import', file, '--json', ...(wait ? [] : ['--no-wait'])], {
    encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, AGENT_MEMORY_HOOK_SERVICE: '0' },
  });
  const m = /PEAK (\d+) ([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`import failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  const report = JSON.parse(r.stdout.trim().split('\n').pop() as string) as { turnsRecorded: number; memoriesCreated: number };
  return { peakRssMb: Number(m[1]) / 1024, seconds: Number(m[2]), cpuSeconds: Number(m[3]) + Number(m[4]), turnsRecorded: report.turnsRecorded, memoriesCreated: report.memoriesCreated };
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] as number; };

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first.`);
  if (!existsSync('/usr/bin/time')) throw new Error('This bench reads peak RSS through /usr/bin/time (GNU time): install it (apt-get install time).');
  const dir = mkdtempSync(join(tmpdir(), 'agent-memory-import-bench-'));
  const loadBefore = loadavg();
  const file = join(dir, 'transcript.jsonl');
  try {
    const bytes = await writeTranscript(file, TURNS);
    console.log(`transcript: ${TURNS} turns, ${(bytes / 1e6).toFixed(1)} MB (${file})`);
    const first: Run[] = []; const again: Run[] = []; const waited: Run[] = [];
    for (let k = 0; k < RUNS; k++) {
      const store = join(dir, `store-${k}`);
      mkdirSync(store);
      first.push(importOnce(store, file, false));
      again.push(importOnce(store, file, false));
      if (EMBED) {
        const store2 = join(dir, `store-wait-${k}`);
        mkdirSync(store2);
        waited.push(importOnce(store2, file, true));
      }
      const storeBytes = statSync(join(store, 'snapshot.amsnap'), { throwIfNoEntry: false })?.size ?? 0;
      console.log(`run ${k + 1}: import ${first[k]?.peakRssMb.toFixed(0)} MB peak, ${first[k]?.seconds} s (${first[k]?.turnsRecorded} turns); again ${again[k]?.peakRssMb.toFixed(0)} MB, ${again[k]?.seconds} s (${again[k]?.turnsRecorded} new)${EMBED ? `; with embedding ${waited[k]?.peakRssMb.toFixed(0)} MB, ${waited[k]?.seconds} s` : ''}; snapshot ${(storeBytes / 1e6).toFixed(1)} MB; load ${loadavg()[0]?.toFixed(1)}`);
      rmSync(store, { recursive: true, force: true });
    }
    const summary = (runs: Run[]): Record<string, number> | null => runs.length ? {
      peakRssMbMedian: Math.round(median(runs.map((r) => r.peakRssMb))), peakRssMbMax: Math.round(Math.max(...runs.map((r) => r.peakRssMb))),
      secondsMedian: median(runs.map((r) => r.seconds)), cpuSecondsMedian: median(runs.map((r) => r.cpuSeconds)),
      turnsRecorded: runs[0]?.turnsRecorded ?? 0, memoriesCreated: runs[0]?.memoriesCreated ?? 0,
    } : null;
    const result = {
      bench: 'importMemory', at: new Date().toISOString(), node: process.version, turns: TURNS, transcriptBytes: bytes, runs: RUNS,
      loadAverageBefore: loadBefore.map((x) => Number(x.toFixed(2))), loadAverageAfter: loadavg().map((x) => Number(x.toFixed(2))),
      import: summary(first), importAgain: summary(again), importWithEmbedding: summary(waited),
      goal: 'peak RSS <= 300 MB (issue #26)',
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', argOf('out', 'importMemory.json')), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => { console.error(e instanceof Error ? e.message : e); process.exitCode = 1; });

/**
 * Durable store bench. On a real folder (the OS temp dir):
 *  - acknowledged-write latency (store.write → resolved, i.e. journal fdatasync'd) p50/p95/max with
 *    1k and 100k memories already in the store, one write at a time;
 *  - bulk fill throughput (writes queued together share one lock hold and one fdatasync);
 *  - snapshot time and size at 100k; open time (newest snapshot + journal replay) and RSS of a
 *    fresh process that opens the 100k store (measured in a child so the figure is clean);
 *  - the raw fdatasync cost of this disk, for context.
 * Writes bench/results/store.json.
 *
 *   node --require tsx/cjs bench/store.ts [--large 100000] [--samples 300]
 */
import { spawnSync } from 'node:child_process';
import { closeSync, fdatasyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { countMemories, insertMemory } from '../src/core/memory/memoryRecords';
import { openStore } from '../src/core/store/openStore';
import type { DurableMemoryStore } from '../src/core/store/durableStore';

const args = process.argv.slice(2);
const argOf = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] as string : def; };
const LARGE = Number(argOf('large', '100000'));
const SAMPLES = Number(argOf('samples', '300'));
const FILL_BATCH = 256;

let seed = 7;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const SYLL = ['ka', 'ro', 'mi', 'te', 'su', 'na', 'lo', 'pe', 'di', 'va', 'zu', 'xo', 'bre', 'sta'];
const word = (): string => { let w = ''; let n = 1 + Math.floor(Math.pow(rnd(), 2) * 5000); do { w += SYLL[n % SYLL.length]; n = Math.floor(n / SYLL.length); } while (n > 0); return w; };
/** ~120-character memories with Zipf-ish words, like short agent notes. */
const text = (i: number): string => `${Array.from({ length: 14 + Math.floor(rnd() * 10) }, word).join(' ')} #${i}`;
const now = (): string => new Date().toISOString();

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
const round = (n: number, d = 2): number => Number(n.toFixed(d));

function summary(samples: number[]): { p50: number; p95: number; max: number; mean: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: round(pct(s, 50)), p95: round(pct(s, 95)), max: round(s[s.length - 1] as number), mean: round(s.reduce((a, b) => a + b, 0) / s.length) };
}

let counter = 0;
async function fillTo(store: DurableMemoryStore, target: number): Promise<number> {
  const started = performance.now();
  let have = store.read((db) => countMemories(db));
  const added = target - have;
  while (have < target) {
    const n = Math.min(FILL_BATCH, target - have);
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < n; i++) { const content = text(counter++); batch.push(store.write('fill', (w) => insertMemory(w, { content, createdAt: now() }))); }
    await Promise.all(batch);
    have += n;
  }
  return added > 0 ? added / ((performance.now() - started) / 1000) : 0;
}

async function writeLatency(store: DurableMemoryStore): Promise<ReturnType<typeof summary>> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const content = text(counter++);
    const t = performance.now();
    await store.write('remember', (w) => insertMemory(w, { content, createdAt: now() }));
    samples.push(performance.now() - t);
  }
  return summary(samples);
}

function rawFsync(dir: string): ReturnType<typeof summary> {
  const fd = openSync(join(dir, 'fsync-probe'), 'w');
  const buf = Buffer.alloc(400, 1);
  const samples: number[] = [];
  for (let i = 0; i < 100; i++) { const t = performance.now(); writeSync(fd, buf); fdatasyncSync(fd); samples.push(performance.now() - t); }
  closeSync(fd);
  rmSync(join(dir, 'fsync-probe'));
  return summary(samples);
}

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

/** Child mode: open the store, report open time and RSS, close without snapshotting. */
async function probeOpen(dir: string): Promise<void> {
  const t = performance.now();
  const store = await openStore({ dir, config: { snapshotOnClose: 'never' } });
  const openMs = performance.now() - t;
  const memories = store.read((db) => countMemories(db));
  const rss = process.memoryUsage().rss;
  await store.close();
  process.stdout.write(JSON.stringify({ openMs: round(openMs), memories, rssMB: round(rss / 1024 / 1024, 1) }));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-memory-bench-'));
  const loadStart = loadavg()[0] as number;
  try {
    const fsync = rawFsync(dir);
    const store = await openStore({ dir, config: { snapshotOnClose: 'never' } });
    await fillTo(store, 1000);
    const at1k = await writeLatency(store);
    console.log(`write latency @1k: p50 ${at1k.p50} ms, p95 ${at1k.p95} ms (raw fdatasync p50 ${fsync.p50} ms)`);
    const fillRate = await fillTo(store, LARGE);
    console.log(`bulk fill to ${LARGE}: ${Math.round(fillRate)} writes/s`);
    const atLarge = await writeLatency(store);
    console.log(`write latency @${LARGE}: p50 ${atLarge.p50} ms, p95 ${atLarge.p95} ms`);
    const t = performance.now();
    await store.snapshot();
    const snapshotMs = performance.now() - t;
    const snapshotBytes = statSync(join(dir, 'snapshot.amsnap')).size;
    const captureMs = store.stats().lastSnapshot?.captureMs ?? NaN;
    await fillTo(store, LARGE + 2000);
    const stats = store.stats();
    await store.close();
    const probe = spawnSync(process.execPath, ['--require', 'tsx/cjs', __filename, '--probe-open', dir], { encoding: 'utf8' });
    if (probe.status !== 0) throw new Error(`open probe failed: ${probe.stderr}`);
    const open = JSON.parse(probe.stdout) as { openMs: number; memories: number; rssMB: number };
    console.log(`snapshot @${LARGE}: ${round(snapshotMs, 0)} ms (thread blocked ${captureMs} ms), ${(snapshotBytes / 1024 / 1024).toFixed(1)} MB; open (snapshot + ${stats.appliedSeq - stats.snapshotSeq} journal records): ${open.openMs} ms; RSS ${open.rssMB} MB; folder ${(folderBytes(dir) / 1024 / 1024).toFixed(1)} MB`);
    const result = {
      bench: 'store',
      date: new Date().toISOString(),
      node: process.version,
      // Other processes share this machine's 2 cores; a high load inflates every figure.
      loadAverage1m: { start: round(loadStart, 1), end: round(loadavg()[0] as number, 1) },
      samplesPerLatency: SAMPLES,
      rawFdatasyncMs: fsync,
      writeLatencyMs: { at1k: at1k, [`at${LARGE}`]: atLarge },
      bulkFillWritesPerSec: Math.round(fillRate),
      snapshot: { memories: LARGE, ms: round(snapshotMs), blockingCaptureMs: captureMs, bytes: snapshotBytes },
      open: { memories: open.memories, ms: open.openMs, journalRecordsReplayed: stats.appliedSeq - stats.snapshotSeq, rssMB: open.rssMB },
      folderBytes: folderBytes(dir),
    };
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(join(__dirname, 'results', 'store.json'), JSON.stringify(result, null, 2) + '\n');
    console.log('wrote bench/results/store.json');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const probeDir = argOf('probe-open', '');
(probeDir ? probeOpen(probeDir) : main()).catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e, (e as { details?: unknown }).details ?? '');
  process.exit(1);
});

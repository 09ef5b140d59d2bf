/**
 * Recall the way users run it: synthetic memories ingested through `agent-memory ingest`
 * (embedding and extraction included), then ONE long-running `agent-memory recall --stdin` process
 * answering consecutive queries with bookkeeping on (access counts always, session rows for most
 * queries), each request timed from outside the process (write the line → read the answer line).
 * Also: ingest throughput, snapshot bytes per memory (after a compaction, so the figure is the image
 * the store keeps), CLI open time (`agent-memory stats`, node start-up reported beside it), the first
 * answer after start (model load included), RSS of the recall process, and the machine's load
 * average at every step (the machine is shared: read timings with it). Needs `node scripts/build.mjs`.
 *
 * `directFill` (for sizes the ingest path cannot reach in the time available) writes the same notes
 * in-process instead, through the store's own write path: insertMemory (memories + FTS), the
 * heuristic extractor through the audited graph apply path (entities, mentions, relations), and
 * int8 embeddings: the real default embedder embeds a sample of the notes, and every memory gets a
 * sample vector plus noise (so the vector arm sees realistic, clustered directions rather than
 * random ones), in batches through the durable store. Open time, snapshot size and recall through
 * `recall --stdin` are then measured the same way; the ingest throughput is measured separately
 * through `agent-memory ingest` on `ingestSample` memories (the report says which fill was used).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isoFromMs, ManualClock } from '../src/core/clock';
import { DEFAULT_EXTRACTION_CONFIG } from '../src/core/config/extractionConfig';
import { heuristicExtract } from '../src/core/extraction/heuristicExtractor';
import { applyExtractionPayload } from '../src/core/graph/applyExtraction';
import { graphContext } from '../src/core/graph/graphApply';
import { compactGraphOps } from '../src/core/graph/graphOpsRetention';
import { insertMemory } from '../src/core/memory/memoryRecords';
import { upsertMemoryVector } from '../src/core/models/vectorStore';
import { normalise } from '../src/core/recall/vectorMatrix';
import { openStore } from '../src/core/store/openStore';
import { defaultModelDir } from '../src/cli/commands/recall';
import { WorkerEmbedder } from '../src/core/models/workerEmbedder';
import { LexicalIndex } from '../src/core/recall/lexicalIndex';
import { commonTermWorkload } from './commonTermWorkload';

/**
 * The query sets: `today` is the project's own (templated notes over a Zipf vocabulary, queries cut
 * from the notes), `commonTerm` the workload of issue 26 (bench/commonTermWorkload.ts: a small
 * vocabulary, every significant query word held by 5–25 % of the memories). Each has its own store.
 */
export type CliWorkload = 'today' | 'commonTerm';

export interface CliPathOptions {
  readonly sizes: readonly number[];
  readonly queries: number;
  /** Window size for per-window p50/p95 over all queries. */
  readonly window: number;
  /** The first `earlyQueries` queries are also reported in windows of `earlyWindow`. */
  readonly earlyQueries: number;
  readonly earlyWindow: number;
  readonly cliPath: string;
  /** Sizes at or above this are filled in-process instead of through `agent-memory ingest`. */
  readonly directFillFrom: number;
  /** Whether the in-process fill also extracts the graph (slow at 100k on a busy machine). */
  readonly directFillGraph: boolean;
  /** The in-process fill extracts the graph of every n-th memory (1: all; larger keeps a 100k fill within reach). */
  readonly directFillGraphEvery: number;
  /**
   * Keeps a copy of each freshly filled store under this folder (`<size>/`) and, when the copy
   * exists, starts from it instead of filling again (the fill is the slow part on a busy machine).
   * The copy is the state right after the fill; runs always work on a temporary copy of it.
   */
  readonly reuseDir?: string;
  /** Memories ingested through `agent-memory ingest` to measure throughput when the fill is direct (0: skip). */
  readonly ingestSample: number;
  /** Extra node flags for the `recall --stdin` process (e.g. --cpu-prof --cpu-prof-dir DIR to profile it). */
  readonly recallNodeArgs?: readonly string[];
  /** Query sets to run at every size (default: both). */
  readonly workloads?: readonly CliWorkload[];
}

/** Notes embedded for real by the direct fill; every memory reuses one of them with noise. */
const FILL_SAMPLE = 256;
/** Per-component noise added to a sample vector (before normalising; cosine to the sample ≈ 0.9). */
const FILL_NOISE = 0.02;

let seed = 1234;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
const SYLL = ['ka', 'ro', 'mi', 'te', 'su', 'na', 'lo', 'pe', 'di', 'va', 'zu', 'xo', 'bre', 'sta'];
const zipfWord = (): string => { let w = ''; let n = 1 + Math.floor(Math.pow(rnd(), 2.2) * 6000); do { w += SYLL[n % SYLL.length]; n = Math.floor(n / SYLL.length); } while (n > 0); return w; };
const SERVICES = Array.from({ length: 400 }, (_, i) => `${['Orion', 'Atlas', 'Vega', 'Nova', 'Lyra', 'Draco', 'Hydra', 'Pyxis'][i % 8]}${Math.floor(i / 8) || ''}`);
const TECH = ['Postgres', 'Redis', 'Kafka', 'Docker', 'Kubernetes', 'GraphQL', 'React', 'Terraform', 'Nginx', 'SQLite', 'Elasticsearch', 'RabbitMQ'];
const TEMPLATES: readonly ((s: string, t: string, w: string) => string)[] = [
  (s, t, w) => `The ${s} service uses ${t} for ${w} storage.`,
  (s, t, w) => `We decided to move ${s} from ${t} to ${pick(TECH)} because ${w} latency was too high.`,
  (s, t, w) => `${s} depends on ${t}; the ${w} job runs nightly.`,
  (s, t, w) => `I prefer ${t} over ${pick(TECH)} for ${w} work in ${s}.`,
  (s, t, w) => `Deploys of ${s} must not touch ${t} during the ${w} window.`,
];

/** A short agent note: a templated sentence naming a service and a technology, plus Zipf filler. */
export function note(i: number): string {
  const words = Array.from({ length: 6 + Math.floor(rnd() * 14) }, zipfWord);
  return `${pick(TEMPLATES)(pick(SERVICES), pick(TECH), words[0] as string)} ${words.slice(1).join(' ')} (note ${i})`;
}

export function queryFor(contents: readonly string[], i: number): string {
  const words = (pick(contents)).replace(/[.;()]/g, '').split(' ').filter((w) => w.length > 2);
  const k = 2 + (i % 4);
  const start = Math.floor(rnd() * Math.max(1, words.length - k));
  const q = words.slice(start, start + k).join(' ');
  return i % 3 === 0 ? `what about ${q}?` : q;
}

interface Dist { n: number; p50: number; p95: number; max: number }
function dist(xs: readonly number[]): Dist {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] as number;
  const r = (x: number): number => Math.round(x * 100) / 100;
  return { n: s.length, p50: r(at(0.5)), p95: r(at(0.95)), max: r(s[s.length - 1] ?? 0) };
}
const load = (): number[] => loadavg().map((x) => Math.round(x * 100) / 100);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function dirBytes(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of readdirSync(dir)) out[f] = statSync(join(dir, f)).size;
  return out;
}

function runCli(cli: string, argv: string[]): { ms: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, ...argv], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`agent-memory ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ; 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU time the process has used so far, all threads (utime + stime of /proc/<pid>/stat), in ms, or
 * undefined where /proc is missing. Its resolution is one tick (10 ms), so per-query values are
 * only meaningful as means over many queries; `mainThreadCpuMs` is the finer figure.
 */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 1000 / USER_HZ;
  } catch { return undefined; }
}

/** On-CPU time of the process's main thread in ms (/proc/<pid>/schedstat, nanoseconds), or undefined. */
function mainThreadCpuMs(pid: number): number | undefined {
  try { return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6; } catch { return undefined; }
}

interface StdinSession { latencies: number[]; cpuMs: number[]; mainCpuMs: number[]; firstMs: number; rssKb: number; hwmKb: number; empty: number }

/**
 * One recall --stdin process: timed request/response pairs with the child's CPU time per request
 * (all threads from /proc/<pid>/stat, 10 ms ticks; the main thread from schedstat, ns), RSS at the end.
 */
async function stdinSession(cli: string, dir: string, requests: readonly object[], nodeArgs: readonly string[] = []): Promise<StdinSession> {
  const child = spawn(process.execPath, [...nodeArgs, cli, 'recall', '--stdin', '--store', dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pid = child.pid as number;
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const cpuMs: number[] = [], mainCpuMs: number[] = [];
  const ask = async (req: object): Promise<{ ms: number; empty: boolean }> => {
    const c0 = processCpuMs(pid), m0 = mainThreadCpuMs(pid);
    const t0 = performance.now();
    child.stdin.write(JSON.stringify(req) + '\n');
    const next = await lines.next();
    const ms = performance.now() - t0;
    const c1 = processCpuMs(pid), m1 = mainThreadCpuMs(pid);
    if (c0 !== undefined && c1 !== undefined) cpuMs.push(c1 - c0);
    if (m0 !== undefined && m1 !== undefined) mainCpuMs.push(m1 - m0);
    if (next.done) throw new Error('recall --stdin ended early');
    const out = JSON.parse(next.value) as unknown;
    if (!Array.isArray(out)) throw new Error(`recall --stdin answered ${next.value.slice(0, 200)}`);
    return { ms, empty: out.length === 0 };
  };
  const s0 = performance.now();
  await ask({ query: 'warm up the model', limit: 10 });
  const firstMs = performance.now() - s0;
  cpuMs.length = 0; mainCpuMs.length = 0;
  const latencies: number[] = [];
  let empty = 0;
  for (const req of requests) {
    const r = await ask(req);
    latencies.push(r.ms);
    if (r.empty) empty++;
  }
  let rssKb = 0, hwmKb = 0;
  try {
    const status = (await import('node:fs')).readFileSync(`/proc/${child.pid}/status`, 'utf8');
    rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    hwmKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch { /* not Linux: RSS not reported */ }
  child.stdin.end();
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { latencies, cpuMs, mainCpuMs, firstMs, rssKb, hwmKb, empty };
}

/**
 * Vectors for the direct fill: the real default embedder embeds `FILL_SAMPLE` of the notes; vector
 * `k` is sample `k mod FILL_SAMPLE` plus noise. Without the model, random unit vectors (said so).
 */
async function fillVectors(contents: readonly string[], dims: number): Promise<{ vectorFor: (k: number) => Float32Array; source: string }> {
  const modelDir = defaultModelDir(process.env, join(__dirname, '..', 'src', 'cli', 'commands'));
  if (!modelDir) return { vectorFor: () => normalise(Float32Array.from({ length: dims }, () => rnd() - 0.5)), source: 'random unit vectors (default model not found)' };
  const embedder = new WorkerEmbedder({ modelDir });
  try {
    const sample = await embedder.embed(contents.slice(0, FILL_SAMPLE));
    const gauss = (): number => (rnd() + rnd() + rnd() - 1.5) * 2;
    return {
      vectorFor: (k) => {
        const base = sample[k % sample.length] as Float32Array;
        return normalise(Float32Array.from(base, (x) => x + gauss() * FILL_NOISE));
      },
      source: `${sample.length} notes embedded by ${embedder.id}, reused with noise`,
    };
  } finally {
    await embedder.dispose();
  }
}

/** In-process fill through the store's write path: the notes, their graph (heuristic extractor) and int8 vectors. */
export async function directFill(dir: string, contents: readonly string[], withGraph: boolean, graphEvery: number): Promise<{ ms: number; vectors: string }> {
  const t0 = performance.now();
  const store = await openStore({ dir, config: { snapshotOnClose: 'always' } });
  const start = Date.UTC(2026, 0, 1);
  // The default model's id and width, as the CLI's embedder will look them up.
  const meta = (JSON.parse(readFileSync(join(__dirname, '..', 'models', 'use-lite', 'config.json'), 'utf8')) as { agent_memory?: { model_id?: string; dims?: number } }).agent_memory;
  const modelId = meta?.model_id ?? 'use-lite', dims = meta?.dims ?? 512;
  const vectors = await fillVectors(contents, dims);
  for (let i = 0; i < contents.length; i += 500) {
    await store.write('bench-fill', (w) => {
      for (let k = i; k < Math.min(contents.length, i + 500); k++) {
        const createdAt = isoFromMs(start + k * 60_000);
        const out = insertMemory(w, { content: contents[k] as string, createdAt });
        if (withGraph && k % graphEvery === 0) {
          const ctx = graphContext({ actor: 'bench', reason: 'fill', clock: new ManualClock(start + k * 60_000) });
          applyExtractionPayload(w, ctx, [out.id], heuristicExtract(contents[k] as string, DEFAULT_EXTRACTION_CONFIG), 'heuristic');
        }
        const hash = w.get<{ h: string }>('SELECT content_hash AS h FROM memories WHERE id = ?', [out.id])?.h as string;
        upsertMemoryVector(w, modelId, { memoryId: out.id, contentHash: hash, vector: vectors.vectorFor(k) }, createdAt);
      }
      // The audit log's retention, as the extraction jobs apply it after their graph writes.
      if (withGraph) compactGraphOps(w);
    });
  }
  await store.close();
  return { ms: performance.now() - t0, vectors: vectors.source };
}

const mean = (xs: readonly number[]): number => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length) * 100) / 100;

/** The child's CPU per query in windows of `size` over the first `upTo` queries. */
function cpuWindows(s: StdinSession, size: number, upTo: number): { processMeanMs: number; mainThread: Dist }[] {
  const out: { processMeanMs: number; mainThread: Dist }[] = [];
  for (let i = 0; i + size <= upTo; i += size) out.push({ processMeanMs: mean(s.cpuMs.slice(i, i + size)), mainThread: dist(s.mainCpuMs.slice(i, i + size)) });
  return out;
}

function windows(xs: readonly number[], size: number): Dist[] {
  const out: Dist[] = [];
  for (let i = 0; i + size <= xs.length; i += size) out.push(dist(xs.slice(i, i + size)));
  return out;
}

/** Fills the store through `agent-memory ingest`, or in-process for sizes from `directFillFrom`. */
async function fill(o: CliPathOptions, dir: string, file: string, contents: readonly string[]): Promise<Record<string, unknown>> {
  const n = contents.length;
  const loadBefore = load();
  const direct = n >= o.directFillFrom;
  if (!direct) {
    const fillMs = runCli(o.cliPath, ['ingest', file, '--store', dir]).ms;
    console.log(`${String(n).padStart(6)} ingest ${Math.round(fillMs)} ms (${(n / (fillMs / 1000)).toFixed(1)} memories/s, embedding + extraction), load ${loadBefore.join(' ')}`);
    return { fill: 'agent-memory ingest (embedding + extraction)', ms: Math.round(fillMs), memoriesPerSecond: Math.round(n / (fillMs / 1000) * 10) / 10, loadAverage: [loadBefore, load()] };
  }
  const filled = await directFill(dir, contents, o.directFillGraph, o.directFillGraphEvery);
  console.log(`${String(n).padStart(6)} direct fill ${Math.round(filled.ms)} ms (${filled.vectors}), load ${loadBefore.join(' ')}`);
  return {
    fill: `in-process through the store's write path (insertMemory${o.directFillGraph ? ` + heuristic graph${o.directFillGraphEvery > 1 ? ` of every ${o.directFillGraphEvery}th memory` : ''}` : ', NO graph'} + int8 vectors: ${filled.vectors}); not the ingest path, so its time is not an ingest throughput`,
    ms: Math.round(filled.ms), loadAverage: [loadBefore, load()],
  };
}

/** `agent-memory ingest` of `ingestSample` fresh notes into an empty store: memories/s, embedding and extraction included. */
function ingestThroughput(o: CliPathOptions): Record<string, unknown> {
  const root = mkdtempSync(join(tmpdir(), 'am-ingest-'));
  try {
    const file = join(root, 'memories.jsonl');
    writeFileSync(file, Array.from({ length: o.ingestSample }, (_, i) => JSON.stringify({ content: note(1_000_000 + i) })).join('\n') + '\n');
    const before = load();
    const { ms } = runCli(o.cliPath, ['ingest', file, '--store', join(root, 'store')]);
    const perSecond = Math.round(o.ingestSample / (ms / 1000) * 10) / 10;
    console.log(`ingest of ${o.ingestSample} memories: ${Math.round(ms)} ms = ${perSecond} memories/s (embedding + extraction, one CLI process), load ${before.join(' ')}`);
    return { memories: o.ingestSample, ms: Math.round(ms), memoriesPerSecond: perSecond, loadAverage: [before, load()] };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The in-memory lexical index of the store at `dir`: size and the time of one full build (src/core/recall/lexicalIndex.ts). */
async function lexicalIndexFigures(dir: string): Promise<{ terms: number; postings: number; bytes: number; buildMs: number }> {
  const store = await openStore({ dir, config: { snapshotOnClose: 'never' } });
  try {
    const index = new LexicalIndex();
    const t0 = performance.now();
    store.read((db) => index.sync(db));
    return { ...index.footprint(), buildMs: Math.round(performance.now() - t0) };
  } finally {
    await store.close();
  }
}

export async function benchCliPath(o: CliPathOptions): Promise<Record<string, unknown>> {
  if (!existsSync(o.cliPath)) throw new Error(`${o.cliPath} is missing: run node scripts/build.mjs first`);
  const report: Record<string, unknown> = {};
  const nodeStart = median([0, 1, 2, 3, 4].map(() => { const t0 = performance.now(); spawnSync(process.execPath, ['-e', '0']); return performance.now() - t0; }));
  report.nodeStartMs = Math.round(nodeStart);
  if (o.ingestSample > 0 && o.sizes.some((n) => n >= o.directFillFrom)) report.ingestThroughput = ingestThroughput(o);
  for (const n of o.sizes) for (const workload of o.workloads ?? ['today', 'commonTerm']) {
    const root = mkdtempSync(join(tmpdir(), 'am-recall-cli-'));
    const dir = join(root, 'store');
    const key = workload === 'today' ? String(n) : `${n} commonTerm`;
    const common = commonTermWorkload();
    try {
      const contents = Array.from({ length: n }, (_, i) => (workload === 'today' ? note(i) : common.note(i)));
      const file = join(root, 'memories.jsonl');
      writeFileSync(file, contents.map((c) => JSON.stringify({ content: c })).join('\n') + '\n');
      const kept = o.reuseDir ? join(o.reuseDir, workload === 'today' ? String(n) : `${n}-commonTerm`) : undefined;
      let ingestReport: Record<string, unknown>;
      if (kept && existsSync(join(kept, 'fill.json'))) {
        cpSync(join(kept, 'store'), dir, { recursive: true });
        ingestReport = { ...(JSON.parse(readFileSync(join(kept, 'fill.json'), 'utf8')) as Record<string, unknown>), reusedStoreFilledEarlier: true };
        console.log(`${String(n).padStart(6)} reusing the store filled earlier: ${JSON.stringify(ingestReport)}`);
      } else {
        ingestReport = await fill(o, dir, file, contents);
        if (kept) {
          mkdirSync(kept, { recursive: true });
          cpSync(dir, join(kept, 'store'), { recursive: true });
          writeFileSync(join(kept, 'fill.json'), JSON.stringify(ingestReport));
        }
      }
      const filesAfterIngest = dirBytes(dir);
      const { storeDir: _dir, ...stats } = JSON.parse(runCli(o.cliPath, ['stats', '--json', '--store', dir]).stdout) as Record<string, unknown>;
      const requests = Array.from({ length: o.queries }, (_, i) => ({ query: workload === 'today' ? queryFor(contents, i) : common.query(i), limit: 10, ...(i % 5 !== 4 ? { session: `bench-${Math.floor(i / 100)}` } : {}) }));
      const loadBeforeRecall = load();
      const s = await stdinSession(o.cliPath, dir, requests, o.recallNodeArgs);
      const loadAfterRecall = load();
      const all = dist(s.latencies);
      const win = windows(s.latencies, o.window);
      const early = windows(s.latencies.slice(0, o.earlyQueries), o.earlyWindow);
      const cpuWin = cpuWindows(s, o.window, s.latencies.length);
      const cpuEarly = cpuWindows(s, o.earlyWindow, Math.min(o.earlyQueries, s.latencies.length));
      const bestP95 = Math.min(...win.map((w) => w.p95));
      console.log(`${String(n).padStart(6)} ${workload}: recall --stdin ${o.queries} queries: p50 ${all.p50} p95 ${all.p95} max ${all.max} ms; first answer ${Math.round(s.firstMs)} ms; RSS ${Math.round(s.rssKb / 1024)} MB; load ${loadBeforeRecall.join(' ')} → ${loadAfterRecall.join(' ')}`);
      console.log(`        windows of ${o.window}: ${win.map((w) => `${w.p50}/${w.p95}`).join('  ')} (p50/p95 ms; worst p95 ${Math.round((Math.max(...win.map((w) => w.p95)) / bestP95 - 1) * 100)} % above best)`);
      console.log(`        first ${o.earlyQueries} in windows of ${o.earlyWindow}: ${early.map((w) => `${w.p50}/${w.p95}`).join('  ')}`);
      console.log(`        CPU per query (process mean / main thread p50/p95 ms) per window of ${o.window}: ${cpuWin.map((w) => `${w.processMeanMs} / ${w.mainThread.p50}/${w.mainThread.p95}`).join('  ')}`);
      const lexicalIndex = await lexicalIndexFigures(dir);
      console.log(`        lexical index (in-process, this store): ${lexicalIndex.terms} terms, ${lexicalIndex.postings} postings, ${(lexicalIndex.bytes / 1e6).toFixed(1)} MB of arrays, full build ${lexicalIndex.buildMs} ms`);
      const opens: number[] = [];
      for (let i = 0; i < 5; i++) opens.push(runCli(o.cliPath, ['stats', '--store', dir]).ms);
      const compact = runCli(o.cliPath, ['maintain', 'compact-store', '--store', dir]);
      const files = dirBytes(dir);
      const snapshotBytes = files['snapshot.amsnap'] ?? 0;
      const openAfter: number[] = [];
      for (let i = 0; i < 5; i++) openAfter.push(runCli(o.cliPath, ['stats', '--store', dir]).ms);
      console.log(`${String(n).padStart(6)} snapshot ${(snapshotBytes / 1e6).toFixed(1)} MB = ${Math.round(snapshotBytes / n)} bytes/memory; CLI stats (open + count) median ${Math.round(median(opens))} ms after the recall run, ${Math.round(median(openAfter))} ms after compaction (node start alone ${Math.round(nodeStart)} ms)`);
      report[key] = {
        workload: workload === 'today' ? 'today: templated notes over a Zipf vocabulary, queries cut from the notes' : 'commonTerm: a 30-word vocabulary, every query word held by 5-25 % of the memories (bench/commonTermWorkload.ts)',
        lexicalIndex,
        ingest: ingestReport,
        storeStats: stats,
        filesAfterIngest,
        recall: {
          queries: o.queries, sessionsTracked: '4 in 5 queries carry a session key (bookkeeping on for all)',
          overall: all, emptyAnswers: s.empty, firstAnswerMs: Math.round(s.firstMs),
          windows: { size: o.window, p50p95: win, worstP95AboveBestPercent: Math.round((Math.max(...win.map((w) => w.p95)) / bestP95 - 1) * 100), cpu: cpuWin },
          early: { queries: o.earlyQueries, size: o.earlyWindow, p50p95: early, worstP95: Math.max(...early.map((w) => w.p95)), cpu: cpuEarly },
          cpuPerQuery: { processMeanMs: mean(s.cpuMs), mainThread: dist(s.mainCpuMs), note: 'the child process: all threads from /proc/<pid>/stat (10 ms ticks, so only the mean is given), the main thread from /proc/<pid>/schedstat' },
          rssMb: Math.round(s.rssKb / 1024), peakRssMb: Math.round(s.hwmKb / 1024),
          loadAverage: [loadBeforeRecall, loadAfterRecall],
        },
        filesAfterCompaction: files,
        compactMs: Math.round(compact.ms),
        snapshotBytesPerMemory: Math.round(snapshotBytes / n),
        cliStatsMs: { afterRecallRun: opens.map(Math.round), afterCompaction: openAfter.map(Math.round), medianAfterCompaction: Math.round(median(openAfter)), nodeStartMs: Math.round(nodeStart) },
        loadAverageAtEnd: load(),
      };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  return report;
}

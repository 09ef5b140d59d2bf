/**
 * Recall latency bench. Synthetic in-memory stores of 1k, 10k and 100k memories
 * (Zipf-distributed words, entities with mentions, aspects and attributes so the graph stages do
 * real work), random unit vectors of the default model's width, and 200 queries (some CJK).
 * Query embedding uses the real default embedder (USE-lite ONNX in its worker thread) when the model
 * folder exists; otherwise the bench says so and embeds with a hashing stand-in.
 * Recall runs through the engine (`MemoryEngine.recallDetailed`, the call the CLI and the
 * extension make) with bookkeeping on: 4 in 5 queries carry a session key, as in the --cli run, and
 * the deferred bookkeeping writes commit while the queries run.
 * Per query: p50/p95/max of the total and of each part (embed, lexical, vector, graph, stages) for
 * the full pipeline, lexical-only and vector-only, in the same run. Also the initial vector-index
 * load from the embeddings table at 10k. "cpu" is the process CPU time per query (all threads,
 * embedding worker included): on a shared, loaded machine it is a steadier figure than wall time,
 * which also counts waiting for a core. Then `--sustained` consecutive full queries (5,000 by
 * default) in windows of `--window` (500) and the first `--early` (2,000) in windows of
 * `--early-window` (250), wall and CPU per window. Writes bench/results/recall.json.
 *
 * With --cli: recall the way users run it instead (bench/recallCliPath.ts): memories ingested
 * through `agent-memory ingest`, then one `agent-memory recall --stdin` process answering
 * consecutive queries with bookkeeping on, timed from outside, p50/p95 per window; ingest
 * throughput, snapshot bytes per memory, CLI open time, RSS, load averages. Writes
 * bench/results/recallCli.json. Build first (node scripts/build.mjs).
 *
 *   npx tsx bench/recall.ts [--sizes 1000,10000,100000] [--queries 200] [--sustained 5000] [--window 500] [--early 2000] [--early-window 250]
 *   npx tsx bench/recall.ts --cli [--sizes 10000] [--queries 5000] [--window 500] [--early 2000] [--early-window 250] [--direct-fill-from 50000] [--no-fill-graph] [--fill-graph-every N] [--ingest-sample 500] [--reuse DIR] [--profile DIR]
 *     [--workloads today,commonTerm] [--cli-path OTHER/dist/cli.js] [--out recallCli.json]
 * --workloads: today's query set and/or the common-term set of issue 26 (each on its own store);
 * --cli-path runs another build's CLI on the same stores (a before/after comparison); --out names
 * the results file under bench/results/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defaultModelDir } from '../src/cli/commands/recall';
import { benchCliPath } from './recallCliPath';
import type { CliWorkload } from './recallCliPath';
import { systemClock } from '../src/core/clock';
import { defaultEngineSettings } from '../src/core/engine/engineConfig';
import { MemoryEngine } from '../src/core/engine/memoryEngine';
import { noProgress } from '../src/core/hostContext';
import { createStreamLogger } from '../src/core/logger';
import type { Embedder } from '../src/core/models/embedder';
import { WorkerEmbedder } from '../src/core/models/workerEmbedder';
import { lexicalSearch } from '../src/core/recall/lexicalArm';
import { queryTerms } from '../src/core/recall/queryTerms';
import { vectorIndexFor } from '../src/core/recall/recallService';
import { resolveSearchConfig } from '../src/core/config/searchConfig';
import type { QueryEmbedder, RecallOnly, RecallRequest } from '../src/core/recall/recallRequest';
import type { VectorIndex } from '../src/core/recall/vectorIndex';
import { normalise } from '../src/core/recall/vectorMatrix';
import { openMemoryStore } from '../src/core/store/memoryStore';
import type { MemoryStore } from '../src/core/store/storeTypes';

const args = process.argv.slice(2);
const argOf = (name: string, def: string): string => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] as string : def; };
const SIZES = argOf('sizes', '1000,10000,100000').split(',').map(Number);
const QUERIES = Number(argOf('queries', '200'));
/** ONNX intra-op threads for the query embedder (1 by default: a single short query gains nothing
 * from 2 threads, and on 2 cores a spinning second thread starves the main thread's arms). */
const THREADS = Number(argOf('threads', '1'));
const SUSTAINED = Number(argOf('sustained', '5000'));
const WINDOW = Number(argOf('window', '500'));
const EARLY = Number(argOf('early', '2000'));
const EARLY_WINDOW = Number(argOf('early-window', '250'));

let seed = 42;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
const VOCAB = Array.from({ length: 6000 }, (_, i) => {
  const syll = ['ka', 'ro', 'mi', 'te', 'su', 'na', 'lo', 'pe', 'di', 'va', 'zu', 'xo', 'qui', 'bre', 'sta'];
  let w = '', n = i + 1;
  do { w += syll[n % syll.length]; n = Math.floor(n / syll.length); } while (n > 0);
  return w;
});
const CJK = ['配置', '端口', '数据库', '账号', '任务', '发布', '审计', '用户', '主题', '接口'];
const zipf = (): string => VOCAB[Math.min(VOCAB.length - 1, Math.floor(Math.pow(rnd(), 2.2) * VOCAB.length))] as string;
const sentence = (n: number): string => Array.from({ length: n }, zipf).join(' ');

function unitVector(dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (let i = 0; i < dims; i++) v[i] = rnd() - 0.5;
  return normalise(v);
}

/**
 * Fills `store`; the vectors go to the embeddings table (`vectorsInTable`) or straight into the
 * vector index recall uses for this store and model (at 100k, where the table load is slow).
 */
async function buildStore(store: MemoryStore, n: number, dims: number, modelId: string, vectorsInTable: boolean): Promise<{ index: VectorIndex; contents: string[] }> {
  const contents: string[] = [];
  const T = '2026-01-01T00:00:00.000Z';
  const entities = Math.max(10, Math.floor(n / 20));
  const index = vectorIndexFor(store, modelId, dims);
  for (let start = 0; start < n; start += 5000) {
    await store.write('bench-seed', (w) => {
      if (start === 0) {
        for (let e = 0; e < entities; e++) {
          w.run('INSERT INTO entities (id, name, canonical_name, mentions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [`e${e}`, VOCAB[e], VOCAB[e], 0, T, T]);
          w.run('INSERT INTO entity_aspects (id, entity_id, name, canonical_name, weight, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [`a${e}`, `e${e}`, 'general', 'general', 0.5, T, T]);
          if (e > 0) w.run('INSERT INTO relations (id, source_entity_id, target_entity_id, relation_type, confidence, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [`r${e}`, `e${e}`, `e${Math.floor(rnd() * e)}`, 'uses', 0.8, T, T]);
        }
      }
      for (let i = start; i < Math.min(n, start + 5000); i++) {
        const cjk = rnd() < 0.05 ? ` ${CJK[Math.floor(rnd() * CJK.length)]}${CJK[Math.floor(rnd() * CJK.length)]}` : '';
        const content = sentence(8 + Math.floor(rnd() * 30)) + cjk;
        contents.push(content);
        const created = new Date(Date.parse(T) + Math.floor(rnd() * 300) * 86_400_000).toISOString();
        w.run('INSERT INTO memories (id, content, type, importance, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [`m${i}`, content, rnd() < 0.1 ? 'decision' : 'fact', rnd(), created, created]);
        const e = Math.floor(Math.pow(rnd(), 1.5) * entities);
        w.run('INSERT OR IGNORE INTO memory_entity_mentions (memory_id, entity_id) VALUES (?, ?)', [`m${i}`, `e${e}`]);
        if (rnd() < 0.3) w.run('INSERT INTO entity_attributes (id, entity_id, aspect_id, memory_id, content, importance, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [`at${i}`, `e${e}`, `a${e}`, `m${i}`, content.slice(0, 60), rnd(), T, T]);
        const v = unitVector(dims);
        if (vectorsInTable) {
          w.run('INSERT INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
            [`h${i}`, modelId, new Uint8Array(v.buffer), dims, 'memory', `m${i}`, T]);
        } else {
          index.vectors.upsert(`m${i}`, v);
        }
      }
    });
  }
  await store.write('bench-mentions', (w) => { w.run('UPDATE entities SET mentions = (SELECT COUNT(*) FROM memory_entity_mentions WHERE entity_id = entities.id)'); });
  return { index, contents };
}

function makeQueries(contents: readonly string[], count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 10 === 9) { out.push(`${CJK[i % CJK.length]}${CJK[(i * 3) % CJK.length]}好了吗？`); continue; }
    const words = (contents[Math.floor(rnd() * contents.length)] as string).split(' ').filter((w) => /^[a-z]+$/.test(w));
    const k = 2 + (i % 4);
    const start = Math.floor(rnd() * Math.max(1, words.length - k));
    out.push(i % 3 === 0 ? `what is the ${words.slice(start, start + k).join(' ')}?` : words.slice(start, start + k).join(' '));
  }
  return out;
}

interface Dist { p50: number; p95: number; max: number; mean: number }
function dist(xs: number[]): Dist {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] as number;
  const r = (x: number): number => Math.round(x * 100) / 100;
  return { p50: r(at(0.5)), p95: r(at(0.95)), max: r(s[s.length - 1] as number), mean: r(s.reduce((a, b) => a + b, 0) / s.length) };
}

/**
 * CJK method comparison: the shipped instr() probe (lexicalArm.ts; it scans memories_cjk, the
 * trigger-kept table of CJK-bearing memories, migration 21) against an FTS5 trigram index built here
 * only for the measurement (build time, then query time for 3-4 character terms, which is all
 * trigram can match: two-character CJK words, the most common, need the probe anyway).
 */
async function measureCjk(store: MemoryStore, n: number, contents: readonly string[]): Promise<Record<string, unknown>> {
  const cfg = resolveSearchConfig();
  const present = contents.map((c) => c.split(' ').pop() as string).filter((w) => /[\u4e00-\u9fff]/.test(w));
  const words = Array.from({ length: 40 }, (_, i) => present[(i * 13) % present.length] as string);
  const queries = words.map((w) => `${w}好了吗？`);
  const probe: number[] = [], tri: number[] = [];
  let probeHits = 0, triHits = 0;
  for (const q of queries) {
    const t0 = performance.now();
    probeHits += store.read((db) => lexicalSearch(db, queryTerms(q, 8), {}, cfg)).size > 0 ? 1 : 0;
    probe.push(performance.now() - t0);
  }
  const b0 = performance.now();
  await store.write('bench-trigram', (w) => {
    w.run("CREATE VIRTUAL TABLE bench_trigram USING fts5(content, tokenize='trigram')");
    w.run('INSERT INTO bench_trigram(rowid, content) SELECT rowid, content FROM memories');
  });
  const buildMs = performance.now() - b0;
  for (const q of words) {
    const t0 = performance.now();
    triHits += store.read((db) => db.all('SELECT rowid FROM bench_trigram WHERE bench_trigram MATCH ? LIMIT 100', [`"${q}"`])).length > 0 ? 1 : 0;
    tri.push(performance.now() - t0);
  }
  await store.write('bench-trigram', (w) => { w.run('DROP TABLE bench_trigram'); });
  console.log(`${String(n).padStart(6)} CJK    probe p50 ${dist(probe).p50} p95 ${dist(probe).p95} ms (${probeHits}/40 found) | trigram build ${Math.round(buildMs)} ms, query p50 ${dist(tri).p50} p95 ${dist(tri).p95} ms (${triHits}/40 found)`);
  return { probe: { ...dist(probe), queriesWithHits: probeHits }, trigram: { buildMs: Math.round(buildMs), ...dist(tri), queriesWithHits: triHits, note: 'matches 3+ character terms only' } };
}

function hashingEmbedder(dims: number): QueryEmbedder {
  return { id: 'bench-hash', dims, embed: async (texts) => texts.map(() => unitVector(dims)) };
}

/** p50/p95 of wall and CPU time per consecutive window of `size` queries. */
function windowsOf(wall: readonly number[], cpu: readonly number[], size: number): { wall: Dist; cpu: Dist }[] {
  const out: { wall: Dist; cpu: Dist }[] = [];
  for (let i = 0; i + size <= wall.length; i += size) out.push({ wall: dist(wall.slice(i, i + size)), cpu: dist(cpu.slice(i, i + size)) });
  return out;
}

/**
 * `queries.length` consecutive full recalls right after the fill (no warm-up skipped: the first
 * window includes it), as a long-running host answers them: per window, wall and CPU p50/p95.
 */
async function sustained(engine: MemoryEngine<MemoryStore>, n: number, queries: readonly string[], request: (q: string, i: number) => RecallRequest): Promise<Record<string, unknown>> {
  const os = await import('node:os');
  const wall: number[] = [], cpu: number[] = [];
  const loadBefore = os.loadavg();
  for (let i = 0; i < queries.length; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await engine.recallDetailed(request(queries[i] as string, i), { explain: false });
    const c = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  await engine.store.flushDeferred();
  const win = windowsOf(wall, cpu, WINDOW);
  const early = windowsOf(wall.slice(0, EARLY), cpu.slice(0, EARLY), EARLY_WINDOW);
  const best = Math.min(...win.map((w) => w.wall.p95)), bestCpu = Math.min(...win.map((w) => w.cpu.p95));
  const worstAbove = (xs: number[], b: number): number => Math.round((Math.max(...xs) / b - 1) * 100);
  const fmt = (ws: { wall: Dist; cpu: Dist }[]): string => ws.map((w) => `${w.wall.p50}/${w.wall.p95} (cpu ${w.cpu.p50}/${w.cpu.p95})`).join('  ');
  console.log(`${String(n).padStart(6)} sustained ${queries.length}: wall p50 ${dist(wall).p50} p95 ${dist(wall).p95}, cpu p50 ${dist(cpu).p50} p95 ${dist(cpu).p95} ms; load ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`        windows of ${WINDOW} (p50/p95 ms): ${fmt(win)}; worst wall p95 ${worstAbove(win.map((w) => w.wall.p95), best)} % above best, cpu ${worstAbove(win.map((w) => w.cpu.p95), bestCpu)} %`);
  console.log(`        first ${EARLY} in windows of ${EARLY_WINDOW}: ${fmt(early)}`);
  return {
    queries: queries.length, overall: { wall: dist(wall), cpu: dist(cpu) },
    windows: { size: WINDOW, perWindow: win, worstWallP95AboveBestPercent: worstAbove(win.map((w) => w.wall.p95), best), worstCpuP95AboveBestPercent: worstAbove(win.map((w) => w.cpu.p95), bestCpu) },
    early: { queries: EARLY, size: EARLY_WINDOW, perWindow: early, worstWallP95: Math.max(...early.map((w) => w.wall.p95)), worstCpuP95: Math.max(...early.map((w) => w.cpu.p95)) },
    loadAverage: [loadBefore, os.loadavg()],
  };
}

async function mainCli(): Promise<void> {
  const os = await import('node:os');
  const opts = {
    sizes: argOf('sizes', '10000').split(',').map(Number),
    queries: Number(argOf('queries', '5000')),
    window: Number(argOf('window', '500')),
    earlyQueries: Number(argOf('early', '2000')),
    earlyWindow: Number(argOf('early-window', '250')),
    cliPath: args.includes('--cli-path') ? argOf('cli-path', '') : join(__dirname, '..', 'dist', 'cli.js'),
    workloads: argOf('workloads', 'today,commonTerm').split(',') as CliWorkload[],
    directFillFrom: Number(argOf('direct-fill-from', '50000')),
    directFillGraph: !args.includes('--no-fill-graph'),
    directFillGraphEvery: Math.max(1, Number(argOf('fill-graph-every', '1'))),
    ingestSample: Number(argOf('ingest-sample', '500')),
    ...(args.includes('--profile') ? { recallNodeArgs: ['--cpu-prof', '--cpu-prof-dir', argOf('profile', '')] } : {}),
    ...(args.includes('--reuse') ? { reuseDir: argOf('reuse', '') } : {}),
  };
  const { cliPath: _cli, reuseDir: _reuse, recallNodeArgs: _prof, ...shown } = opts;
  const report: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length, loadAverageAtStart: os.loadavg(), node: process.version, path: 'agent-memory ingest, then one agent-memory recall --stdin process (bookkeeping on), timed from outside', ...shown };
  const file = join(__dirname, 'results', args.includes('--out') ? argOf('out', '') : 'recallCli.json');
  // Sizes run separately (10k and 100k take long) are kept side by side: earlier sizes stay.
  let earlier: Record<string, unknown> = {};
  try { earlier = (JSON.parse(readFileSync(file, 'utf8')) as { sizes?: Record<string, unknown> }).sizes ?? {}; } catch { earlier = {}; }
  report.sizes = { ...earlier, ...(await benchCliPath(opts)) };
  report.loadAverageAtEnd = os.loadavg();
  report.goal = {
    '10000': 'p95 <= 10 ms (issue 26; was 15 ms); no 250-query window above 20 ms p95 over the first 2,000 queries; snapshot <= 3 KB per memory', '100000': 'p95 <= 35 ms (issue 26; was 60 ms); CLI open <= 1 s',
    '10000 commonTerm': 'p95 <= 12 ms (issue 26)', '100000 commonTerm': 'p95 <= 40 ms (issue 26)',
  };
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  console.log(`wrote ${file}`);
}

async function main(): Promise<void> {
  if (args.includes('--cli')) return mainCli();
  const modelDir = defaultModelDir(process.env, join(__dirname, '..', 'src', 'cli', 'commands'));
  const real = modelDir ? new WorkerEmbedder({ modelDir, intraOpThreads: THREADS }) : undefined;
  const embedder: QueryEmbedder = real ?? hashingEmbedder(512);
  // the model folder relative to the repository: results carry no machine path
  const embedderNote = real ? `real default embedder (${real.id}, ONNX in a worker thread, ${THREADS} intra-op thread(s), model dir ${relative(join(__dirname, '..'), modelDir ?? '') || '.'})` : 'DEFAULT MODEL NOT FOUND: a hashing stand-in embedded the queries, so embed times are not real';
  const warm = Date.now();
  await embedder.embed(['warm up the model']);
  const os = await import('node:os');
  const report: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length, loadAverageAtStart: os.loadavg(), node: process.version, embedder: embedderNote, modelLoadMs: Date.now() - warm, queries: QUERIES, sizes: {} };
  console.log(`recall bench: ${embedderNote}; model load+first embed ${report.modelLoadMs} ms`);
  // The engine's own embedder is this one (shared across sizes, so the engine must not dispose it).
  const shared: Embedder = { id: embedder.id, dims: embedder.dims, embed: (texts, options) => embedder.embed(texts, options), dispose: async () => undefined };
  for (const n of SIZES) {
    const b0 = Date.now();
    const inTable = n <= 10_000;
    const store = await openMemoryStore();
    const host = { paths: { storeDir: store.dir, bundledModelsDir: join(__dirname, '..', 'models'), cacheDir: join(__dirname, '..', '.cache') }, logger: createStreamLogger('error'), clock: systemClock, llm: undefined, progress: noProgress };
    const engine = MemoryEngine.onStore(store, host, defaultEngineSettings(), { mode: 'onDemand', embedder: () => shared });
    const { index, contents } = await buildStore(store, n, embedder.dims, embedder.id, inTable);
    const buildMs = Date.now() - b0;
    let loadMs: number | undefined;
    if (inTable) { const l0 = performance.now(); store.read((db) => index.sync(db)); loadMs = Math.round(performance.now() - l0); }
    const queries = makeQueries(contents, QUERIES);
    const sizeReport: Record<string, unknown> = { buildMs, path: 'MemoryEngine.recallDetailed (explain off, bookkeeping on; 4 in 5 queries with a session key)', vectorsFrom: inTable ? 'embeddings table (index loaded by sync)' : 'matrix filled directly (random unit vectors; table load measured at 10k)', indexLoadMs: loadMs, vectorIndexRows: index.size };
    // As the CLI asks: explain off, bookkeeping on, most queries in a session.
    const request = (q: string, i: number, only?: RecallOnly): RecallRequest => ({ query: q, limit: 10, ...(only ? { only } : {}), ...(i % 5 !== 4 ? { session: `bench-${n}-${Math.floor(i / 100)}` } : {}) });
    for (const mode of ['full', 'lexical', 'vector'] as const) {
      const only: RecallOnly | undefined = mode === 'full' ? undefined : mode;
      const parts: Record<string, number[]> = { total: [], cpu: [], embed: [], lexical: [], vector: [], graph: [], stages: [] };
      let hits = 0;
      for (let i = 0; i < queries.length + 5; i++) {
        const q = queries[i % queries.length] as string;
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const out = await engine.recallDetailed(request(q, i, only), { explain: false });
        const total = performance.now() - t0;
        const cpu = process.cpuUsage(c0);
        if (i < 5) continue; // warm-up
        if (out.items.length > 0) hits++;
        parts.total!.push(total); parts.cpu!.push((cpu.user + cpu.system) / 1000); parts.embed!.push(out.timings.embedMs); parts.lexical!.push(out.timings.lexicalMs);
        parts.vector!.push(out.timings.vectorMs); parts.graph!.push(out.timings.graphMs); parts.stages!.push(out.timings.stagesMs);
      }
      await store.flushDeferred();
      const d = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, dist(v)]));
      sizeReport[mode] = { ...d, queriesWithResults: hits };
      console.log(`${String(n).padStart(6)} ${mode.padEnd(7)} total p50 ${d.total!.p50} p95 ${d.total!.p95} max ${d.total!.max} ms, cpu p50 ${d.cpu!.p50} p95 ${d.cpu!.p95} ms | embed p95 ${d.embed!.p95} lexical p95 ${d.lexical!.p95} vector p95 ${d.vector!.p95} graph p95 ${d.graph!.p95} stages p95 ${d.stages!.p95}`);
    }
    if (SUSTAINED > 0) sizeReport.sustained = await sustained(engine, n, makeQueries(contents, SUSTAINED), request);
    sizeReport.cjk = await measureCjk(store, n, contents);
    (report.sizes as Record<string, unknown>)[String(n)] = sizeReport;
    await engine.close();
  }
  report.loadAverageAtEnd = (await import('node:os')).loadavg();
  report.goal = { '10000': 'p95 <= 25 ms', '100000': 'p95 <= 80 ms' };
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(join(__dirname, 'results', 'recall.json'), JSON.stringify(report, null, 2) + '\n');
  console.log('wrote bench/results/recall.json');
  await real?.dispose();
}

main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });

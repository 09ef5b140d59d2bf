/**
 * Recall quality on the development set (issue 6 item 17): recall@5, recall@10 and MRR for the
 * full pipeline, lexical-only, vector-only, and the full pipeline with each stage switched off,
 * plus an alpha sweep used to choose the fusion weight. Writes bench/results/quality.json.
 *
 * Setup, all in one in-memory store: the dev-set memories are inserted in time order (memoryRecords),
 * the graph is built by the deterministic heuristic extractor through the audited apply path (so
 * supersession, entities, aspects and mentions are real), memories and queries are embedded with
 * the real default embedder (USE-lite). No hints exist without an LLM, so the hints arm is idle.
 * Each question is asked with its project (as the extension does) and, for freshness questions, a
 * clock set to its asOf time.
 *
 * Memory vectors are stored as the store stores them (STORED_VECTOR_ENCODING, int8) unless
 * --vector-encoding float32 asks for the old layout, to measure what the compact layout costs.
 *
 *   npx tsx bench/quality.ts [--quick] [--no-sweep] [--variants full,vector-only] [--vector-encoding int8|float32]
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultModelDir } from '../src/cli/commands/recall';
import { ManualClock } from '../src/core/clock';
import { DEFAULT_EXTRACTION_CONFIG } from '../src/core/config/extractionConfig';
import { DEFAULT_SEARCH_CONFIG, resolveSearchConfig } from '../src/core/config/searchConfig';
import type { SearchConfig, SearchConfigInput } from '../src/core/config/searchConfig';
import { heuristicExtract } from '../src/core/extraction/heuristicExtractor';
import { applyExtractionPayload } from '../src/core/graph/applyExtraction';
import { graphContext } from '../src/core/graph/graphApply';
import { insertMemory } from '../src/core/memory/memoryRecords';
import { STORED_VECTOR_ENCODING, vectorToBlob } from '../src/core/models/vectorStore';
import type { VectorEncoding } from '../src/core/models/vectorStore';
import { WorkerEmbedder } from '../src/core/models/workerEmbedder';
import { recallDetailed } from '../src/core/recall/recallService';
import type { QueryEmbedder, RecallOnly } from '../src/core/recall/recallRequest';
import { openMemoryStore } from '../src/core/store/memoryStore';
import type { MemoryStore } from '../src/core/store/storeTypes';
import { aggregate, loadDevSet, scoreQuestion } from './devset';
import type { AggregateReport, DevQuestion } from './devset';

const QUICK = process.argv.includes('--quick');
const NO_SWEEP = process.argv.includes('--no-sweep');
const ENCODING = ((): VectorEncoding => { const i = process.argv.indexOf('--vector-encoding'); return i >= 0 && process.argv[i + 1] === 'float32' ? 'float32' : i >= 0 && process.argv[i + 1] === 'int8' ? 'int8' : STORED_VECTOR_ENCODING; })();
const ONLY_VARIANTS = ((): string[] | undefined => { const i = process.argv.indexOf('--variants'); return i >= 0 ? (process.argv[i + 1] ?? '').split(',') : undefined; })();

/** Memory vectors cached in the temp folder by model and content (embedding 2k texts is the slow part). */
async function embedCached(embedder: QueryEmbedder, texts: readonly string[]): Promise<Float32Array[]> {
  const key = createHash('sha256').update(embedder.id).update(JSON.stringify(texts)).digest('hex').slice(0, 16);
  const file = join(tmpdir(), `agent-memory-devset-vectors-${key}.bin`);
  if (existsSync(file)) {
    const buf = readFileSync(file);
    const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    if (all.length === texts.length * embedder.dims) return texts.map((_, i) => all.slice(i * embedder.dims, (i + 1) * embedder.dims));
  }
  const vecs = await embedder.embed(texts);
  const all = new Float32Array(texts.length * embedder.dims);
  vecs.forEach((vec, i) => all.set(vec, i * embedder.dims));
  writeFileSync(file, new Uint8Array(all.buffer));
  return vecs;
}

export interface Variant { name: string; only?: RecallOnly; config: SearchConfig }

const v = (name: string, input: SearchConfigInput, only?: RecallOnly): Variant => ({ name, config: resolveSearchConfig({ ...baseInput, ...input }), ...(only ? { only } : {}) });
let baseInput: SearchConfigInput = {};

function variants(): Variant[] {
  const d = DEFAULT_SEARCH_CONFIG;
  return [
    v('full', {}),
    v('lexical-only', {}, 'lexical'),
    v('vector-only', {}, 'vector'),
    v('no term probing', { lexical: { ...d.lexical, probing: false } }),
    v('no hints', { hints: { ...d.hints, enabled: false } }),
    v('no graph boost', { graphBoost: { ...d.graphBoost, enabled: false } }),
    v('no traversal', { traversal: { ...d.traversal, enabled: false } }),
    v('no facet coverage', { facets: { ...d.facets, enabled: false } }),
    v('no temporal prior', { temporalPrior: { ...d.temporalPrior, enabled: false } }),
    v('no recency tie-break', { recency: { ...d.recency, enabled: false } }),
    v('no currentness', { currentness: { ...d.currentness, enabled: false } }),
    v('no gravity', { dampening: { ...d.dampening, gravityEnabled: false } }),
    v('no hub', { dampening: { ...d.dampening, hubEnabled: false } }),
    v('no resolution', { dampening: { ...d.dampening, resolutionEnabled: false } }),
    v('no rerank', { rerank: { ...d.rerank, enabled: false } }),
  ];
}

export async function buildStore(embedder: QueryEmbedder): Promise<{ store: MemoryStore; idToSource: Map<string, string>; buildMs: number }> {
  const t0 = Date.now();
  const { memories } = loadDevSet();
  const store = await openMemoryStore();
  const sorted = [...memories].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const idToSource = new Map<string, string>();
  const vectors = await embedCached(embedder, sorted.map((m) => m.content));
  await store.write('devset', (db) => {
    sorted.forEach((m, i) => {
      const out = insertMemory(db, { content: m.content, type: m.type, sourceId: m.sourceId, sourceType: 'devset', sessionKey: m.sessionId, project: m.project, who: m.who, createdAt: m.createdAt, ...(m.tags ? { tags: m.tags } : {}) });
      idToSource.set(out.id, m.sourceId);
      const ctx = graphContext({ actor: 'bench', reason: 'dev set', clock: new ManualClock(Date.parse(m.createdAt)) });
      applyExtractionPayload(db, ctx, [out.id], heuristicExtract(m.content, DEFAULT_EXTRACTION_CONFIG), 'heuristic');
      const vec = vectors[i] as Float32Array;
      db.run('INSERT OR IGNORE INTO embeddings (id, content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [`v-${out.id}`, `devset-${m.sourceId}`, embedder.id, vectorToBlob(vec, ENCODING), vec.length, 'memory', out.id, m.createdAt]);
    });
  });
  return { store, idToSource, buildMs: Date.now() - t0 };
}

/** Embeds every question once; recall then gets the cached vector (variants differ only in ranking). */
export function cachingEmbedder(inner: QueryEmbedder, cache: Map<string, Float32Array>): QueryEmbedder {
  return {
    id: inner.id, dims: inner.dims,
    embed: async (texts) => {
      const missing = texts.filter((t) => !cache.has(t));
      if (missing.length) (await inner.embed(missing)).forEach((vec, i) => cache.set(missing[i] as string, vec));
      return texts.map((t) => cache.get(t) as Float32Array);
    },
  };
}

export async function evaluate(store: MemoryStore, idToSource: Map<string, string>, questions: readonly DevQuestion[], embedder: QueryEmbedder, variant: Variant): Promise<AggregateReport> {
  const scores = [];
  const fallbackNow = Date.parse('2026-01-01T00:00:00Z');
  for (const q of questions) {
    const clock = new ManualClock(q.asOf ? Date.parse(q.asOf) : fallbackNow);
    const out = await recallDetailed(store, { query: q.query, limit: 10, ...(q.project ? { project: q.project } : {}), ...(variant.only ? { only: variant.only } : {}) },
      { clock, embedder, config: variant.config, track: false }, false);
    scores.push(scoreQuestion(q, out.items.map((r) => idToSource.get(r.id) ?? r.id)));
  }
  return aggregate(scores);
}

const fmt = (r: AggregateReport): string => `R@5 ${r.overall.recallAt5.toFixed(3)}  R@10 ${r.overall.recallAt10.toFixed(3)}  MRR ${r.overall.mrr.toFixed(3)}`;

async function main(): Promise<void> {
  const modelDir = defaultModelDir(process.env, join(__dirname, '..', 'src', 'cli', 'commands'));
  if (!modelDir) throw new Error('The default model (models/use-lite) was not found; build it first (npm run build).');
  const real = new WorkerEmbedder({ modelDir });
  try {
    const { questions: all } = loadDevSet();
    const questions = QUICK ? all.filter((_, i) => i % 4 === 0) : all;
    const cache = new Map<string, Float32Array>();
    const embedder = cachingEmbedder(real, cache);
    const { store, idToSource, buildMs } = await buildStore(real);
    await embedder.embed(questions.map((q) => q.query));
    const graph = store.read((db) => ({
      entities: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM entities')?.n ?? 0,
      attributes: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM entity_attributes')?.n ?? 0,
      superseded: db.get<{ n: number }>("SELECT COUNT(*) AS n FROM entity_attributes WHERE status = 'superseded'")?.n ?? 0,
    }));
    console.log(`dev set: ${idToSource.size} memories, ${questions.length} questions; vectors stored as ${ENCODING}; graph ${JSON.stringify(graph)}; built in ${buildMs} ms`);

    // Alpha sweep (lexical vs semantic weight) on the full pipeline, to choose the default.
    const sweep: Record<string, AggregateReport['overall']> = {};
    for (const alpha of NO_SWEEP ? [] : [0.2, 0.3, 0.4, 0.5, 0.6, 0.7]) {
      const r = await evaluate(store, idToSource, questions, embedder, { name: `alpha ${alpha}`, config: resolveSearchConfig({ alpha }) });
      sweep[String(alpha)] = r.overall;
      console.log(`alpha ${alpha.toFixed(1)}: ${fmt(r)}`);
    }
    baseInput = {};
    const results: Record<string, AggregateReport> = {};
    for (const variant of variants().filter((x) => !ONLY_VARIANTS || ONLY_VARIANTS.includes(x.name))) {
      const r = await evaluate(store, idToSource, questions, embedder, variant);
      results[variant.name] = r;
      console.log(`${variant.name.padEnd(22)} ${fmt(r)}`);
    }
    const full = results.full;
    const beatsArms = !full ? undefined : (['lexical-only', 'vector-only'] as const).every((k) => results[k] && full.overall.mrr > (results[k] as AggregateReport).overall.mrr && full.overall.recallAt10 >= (results[k] as AggregateReport).overall.recallAt10);
    console.log(`fused pipeline beats each arm alone (MRR and R@10): ${beatsArms}`);
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(join(__dirname, 'results', 'quality.json'), JSON.stringify({
      date: new Date().toISOString(), embedder: real.id, vectorEncoding: ENCODING, memories: idToSource.size, questions: questions.length, quick: QUICK, graph,
      defaults: { alpha: DEFAULT_SEARCH_CONFIG.alpha }, alphaSweep: sweep, fusedBeatsEachArm: beatsArms, variants: results,
    }, null, 2) + '\n');
    console.log('wrote bench/results/quality.json');
    await store.close();
  } finally {
    await real.dispose();
  }
}

if (require.main === module) main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });

/**
 * Recall quality on two development sets side by side: the synthetic set (bench/data/devset/) and
 * the real conversations (LoCoMo dev conversations read from outside the repository, bench/locomo.ts;
 * skipped with a message when absent). For each: recall@5, recall@10 and MRR, overall and per
 * category, for the full pipeline, each arm alone, bare fusion (arms + fusion only), and the full
 * pipeline with each stage switched off; an alpha sweep, and on the real set the alpha chosen
 * leave-one-conversation-out. Writes bench/results/quality.json.
 *
 * Synthetic set:
 * Setup, all in one in-memory store: the dev-set memories are inserted in time order (memoryRecords),
 * the graph is built by the deterministic heuristic extractor through the audited apply path (so
 * supersession, entities, aspects and mentions are real) plus what the extract job adds without an
 * LLM (memory-level supersession, category hints), memories and queries are embedded with the real
 * default embedder (USE-lite). Only category hints exist without an LLM.
 * Each question is asked with its project (as the extension does) and, for freshness questions, a
 * clock set to its asOf time.
 *
 * Real set: one store per conversation, built through the ingest write path and job worker
 * (bench/locomo.ts); each question is asked at the conversation's last session date.
 *
 * Every question is asked through MemoryEngine (the engine the extension and the CLI run, with its
 * reranker set from the model settings), on engine settings read from the settings table; a
 * variant is a set of settings overrides (plus a search-config patch for the switches that have no
 * setting), so the bench measures what users run (bench/benchEngine.ts). The ablation rows toggle
 * one default each and cover every stage of RECALL_STAGES (STAGE_ABLATIONS; the bench refuses to
 * run when a stage has none); a summary prints each row's change against full and, on the real
 * set, on how many conversations R@10 rose or fell. On the real set the learned order is also
 * scored held out: each conversation with the weights bench/trainOrder.ts fitted on the others
 * (the folds in bench/results/trainOrder.json; skipped, saying why, when they are missing or stale).
 *
 *   npx tsx bench/quality.ts [--quick] [--no-sweep] [--variants a,b] [--synthetic-only | --real-only] [--out file.json]
 * (one set alone writes bench/results/quality-synthetic.json or quality-real.json)
 * `--combinations` also scores every combination of the contested switches on the real set and
 * cross-validates the choice among them (bench/stageCombinations.ts; 64 more runs of the set).
 *
 * Memory vectors are stored as the store stores them (STORED_VECTOR_ENCODING, int8) unless
 * --vector-encoding float32 asks for the old layout, to measure what the compact layout costs.
 *
 *   npx tsx bench/quality.ts [--quick] [--no-sweep] [--vector-encoding int8|float32]
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultModelDir } from '../src/cli/commands/recall';
import { ManualClock } from '../src/core/clock';
import { DEFAULT_EXTRACTION_CONFIG } from '../src/core/config/extractionConfig';
import { DEFAULT_SEARCH_CONFIG } from '../src/core/config/searchConfig';
import type { SearchConfigInput } from '../src/core/config/searchConfig';
import type { MemoryEngine } from '../src/core/engine/memoryEngine';
import { heuristicExtract } from '../src/core/extraction/heuristicExtractor';
import { applyExtractionPayload } from '../src/core/graph/applyExtraction';
import { applyGraphOp, graphContext } from '../src/core/graph/graphApply';
import { memorySupersessionsFor } from '../src/core/extraction/memorySupersessionScan';
import { categoryHints } from '../src/core/hints/categoryHints';
import { writeHints } from '../src/core/hints/hintsJobs';
import { insertMemory } from '../src/core/memory/memoryRecords';
import { STORED_VECTOR_ENCODING, vectorToBlob } from '../src/core/models/vectorStore';
import type { VectorEncoding } from '../src/core/models/vectorStore';
import { WorkerEmbedder } from '../src/core/models/workerEmbedder';
import type { Embedder } from '../src/core/models/embedder';
import type { QueryEmbedder, RecallOnly } from '../src/core/recall/recallRequest';
import { RECALL_STAGES } from '../src/core/recall/recallStages';
import { openMemoryStore } from '../src/core/store/memoryStore';
import type { MemoryStore } from '../src/core/store/storeTypes';
import type { QueryAdapter } from '../src/core/recall/queryAdapter';
import { BenchClock, benchEngine, benchSettings, cachingEmbedder, settingDefault } from './benchEngine';
import type { SettingOverrides } from './benchEngine';
import { aggregate, loadDevSet, scoreQuestion } from './devset';
import type { AggregateReport, AggregateScore, QuestionScore } from './devset';
import { cachedLocomoStore, diskCachedEmbedder, loadLocomo, locomoAskedAt } from './locomo';
import { loadQueryAdapterFolds } from './queryAdapterFolds';
import { questionsMoved } from './questionsMoved';
import { chooseCombination, pairedDifference, subsets } from './stageCombinations';
import type { CombinationChoice, CombinationScores } from './stageCombinations';

const QUICK = process.argv.includes('--quick');
const NO_SWEEP = process.argv.includes('--no-sweep');
const SYNTHETIC = !process.argv.includes('--real-only');
const REAL = !process.argv.includes('--synthetic-only');
const ENCODING = ((): VectorEncoding => { const i = process.argv.indexOf('--vector-encoding'); return i >= 0 && process.argv[i + 1] === 'float32' ? 'float32' : i >= 0 && process.argv[i + 1] === 'int8' ? 'int8' : STORED_VECTOR_ENCODING; })();
/** `--out name.json`: another results file (runs of two code versions side by side). */
const OUT_FILE = ((): string | undefined => { const i = process.argv.indexOf('--out'); return i >= 0 ? process.argv[i + 1] : undefined; })();
/**
 * `AGENT_MEMORY_QUALITY_EXTRA='[{"name":"x","settings":{...},"search":{...}}]'`: more variants to
 * measure beside the standard rows (a constant sweep on the same stores, without editing the bench).
 */
const EXTRA_VARIANTS: Variant[] = process.env.AGENT_MEMORY_QUALITY_EXTRA ? JSON.parse(process.env.AGENT_MEMORY_QUALITY_EXTRA) as Variant[] : [];
/**
 * `--combinations [label,label,…]`: also score every combination of those toggles (default
 * COMBINATION_LABELS; a label names a row without its "no " / "with ") and cross-validate the
 * choice (stageCombinations.ts).
 */
const COMBINATIONS = process.argv.includes('--combinations');
const COMBINATIONS_ASKED = ((): string[] | undefined => { const next = process.argv[process.argv.indexOf('--combinations') + 1]; return COMBINATIONS && next && !next.startsWith('--') ? next.split(',').map((x) => x.trim()) : undefined; })();
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

/**
 * One way of running recall: the settings a user would set (settings-table keys) plus, for the
 * switches that have no setting (idf-weighted hits, question words, feedback, cosine
 * normalisation), a search-configuration patch; every variant runs through MemoryEngine.
 */
export interface Variant { name: string; only?: RecallOnly; settings?: SettingOverrides; search?: SearchConfigInput }

const v = (name: string, settings: SettingOverrides = {}, search?: SearchConfigInput, only?: RecallOnly): Variant => ({ name, settings, ...(search ? { search } : {}), ...(only ? { only } : {}) });

/** The settings that switch every graph, temporal, dampening, currentness, facet and neighbour stage and rerank. */
const STAGE_SETTINGS = [
  'search.graphBoostEnabled', 'search.traversalEnabled', 'search.facetsEnabled', 'search.temporalPriorEnabled', 'search.recencyEnabled',
  'search.currentnessEnabled', 'search.gravityDampeningEnabled', 'search.hubDampeningEnabled', 'search.resolutionBoostEnabled',
  'search.rerankEnabled', 'search.sessionNeighboursEnabled', 'search.speakersEnabled', 'search.learnedOrderEnabled',
];
/** Arms and fusion only: every stage setting off (and the stages without a setting). */
const BARE: SettingOverrides = Object.fromEntries(STAGE_SETTINGS.map((k) => [k, false]));
// The date window (no setting) stays on, as in earlier rounds' bare rows.

/** A setting switch: "no X" when X is on by default, "with X" when it is off (so each row toggles one default). */
function toggleSetting(label: string, key: string): Variant {
  const on = settingDefault(key) === true;
  return v(`${on ? 'no' : 'with'} ${label}`, { [key]: !on });
}

/** A switch without a setting (its default is DEFAULT_SEARCH_CONFIG's), toggled the same way. */
function toggleSearch(label: string, on: boolean, input: (on: boolean) => SearchConfigInput): Variant {
  return v(`${on ? 'no' : 'with'} ${label}`, {}, input(!on));
}

/**
 * Which ablation rows switch each stage of RECALL_STAGES (recallStages.ts) off or on: main()
 * refuses to run when a stage has no row, so a new stage cannot go unmeasured. `window` only cuts
 * the list and always runs.
 */
export const STAGE_ABLATIONS: Readonly<Record<string, readonly string[]>> = {
  sessionNeighbours: ['session neighbours', 'neighbours only where turns are taken'], graphBoost: ['graph boost'], temporalPrior: ['temporal prior'], dateWindow: ['date window'], rerank: ['rerank'],
  window: ['speaker window'], dampening: ['gravity', 'hub', 'resolution'], currentness: ['currentness'], recency: ['recency tie-break'], facets: ['facet coverage'],
  speakers: ['speaker match'],
  learnedOrder: ['learned order'],
  // Learned use reads ended sessions' evidence, and the quality bench runs none: bench/feedbackReplay.ts
  // (--learned) replays sessions and is its measure (docs/feedback.md).
  learnedUse: [],
  // Neither development set has a pinned entity, so the pin stage (pinPriority.ts) has nothing to
  // act on here: its table test (test/unit/recall/pinTable.test.ts) is its measure.
  pins: [],
};

function variants(): Variant[] {
  const d = DEFAULT_SEARCH_CONFIG;
  return [
    v('full'),
    v('lexical-only', {}, undefined, 'lexical'),
    v('vector-only', {}, undefined, 'vector'),
    toggleSetting('term probing', 'search.termProbing'),
    toggleSearch('idf-weighted hits', d.lexical.idfHits, (x) => ({ lexical: { idfHits: x } })),
    toggleSearch('question words dropped', d.lexical.questionWords, (x) => ({ lexical: { questionWords: x } })),
    toggleSearch('feedback', d.feedback.enabled, (x) => ({ feedback: { enabled: x } })),
    toggleSearch('cosine normalisation', d.vector.normalise, (x) => ({ vector: { normalise: x } })),
    toggleSearch('query adapter', d.vector.queryAdapter, (x) => ({ vector: { queryAdapter: x } })),
    toggleSetting('hints', 'search.hintsEnabled'),
    toggleSetting('graph boost', 'search.graphBoostEnabled'),
    toggleSetting('traversal', 'search.traversalEnabled'),
    toggleSetting('facet coverage', 'search.facetsEnabled'),
    toggleSetting('temporal prior', 'search.temporalPriorEnabled'),
    toggleSearch('date window', d.dateWindow.enabled, (x) => ({ dateWindow: { enabled: x } })),
    toggleSetting('recency tie-break', 'search.recencyEnabled'),
    toggleSetting('currentness', 'search.currentnessEnabled'),
    toggleSetting('gravity', 'search.gravityDampeningEnabled'),
    toggleSetting('hub', 'search.hubDampeningEnabled'),
    toggleSetting('resolution', 'search.resolutionBoostEnabled'),
    toggleSetting('rerank', 'search.rerankEnabled'),
    toggleSetting('session neighbours', 'search.sessionNeighboursEnabled'),
    toggleSearch('neighbours only where turns are taken', d.neighbours.turnTakingOnly, (x) => ({ neighbours: { turnTakingOnly: x } })),
    toggleSetting('speaker match', 'search.speakersEnabled'),
    toggleSearch('speaker window', d.speakerWindow.enabled, (x) => ({ speakerWindow: { enabled: x } })),
    toggleSetting('learned order', 'search.learnedOrderEnabled'),
    v('bare fusion', BARE),
    v('bare fusion + rerank', { ...BARE, 'search.rerankEnabled': true }),
    ...EXTRA_VARIANTS,
  ];
}

/** The ablation row names of `label` ("no X" / "with X"). */
const rowsOf = (label: string): string[] => [`no ${label}`, `with ${label}`];

/** Fails when a stage of RECALL_STAGES has no ablation row (or a row names no variant). */
function checkAblationCoverage(names: readonly string[]): void {
  for (const stage of RECALL_STAGES) {
    const labels = STAGE_ABLATIONS[stage.id];
    if (!labels) throw new Error(`bench/quality.ts: stage ${stage.id} has no ablation row (STAGE_ABLATIONS)`);
    for (const label of labels) if (!rowsOf(label).some((n) => names.includes(n))) throw new Error(`bench/quality.ts: ablation row ${label} of stage ${stage.id} is not a variant`);
  }
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
      // What the extract job adds without an LLM (jobs/extractHandler.ts): memory-level
      // supersession and category hints.
      for (const f of memorySupersessionsFor(db, out.id)) applyGraphOp(db, ctx, { op: 'supersede_memory', olderId: f.olderId, newerId: f.newerId, why: f.detail });
      writeHints(db, out.id, 'default', categoryHints(m.content, m.type), Date.parse(m.createdAt));
      const vec = vectors[i] as Float32Array;
      db.run('INSERT OR IGNORE INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [`devset-${m.sourceId}`, embedder.id, vectorToBlob(vec, ENCODING), vec.length, 'memory', out.id, m.createdAt]);
    });
  });
  return { store, idToSource, buildMs: Date.now() - t0 };
}

/** A question of either set, as evaluate() needs it. */
interface AskedQuestion { query: string; gold: readonly string[]; category: string; project?: string; nowMs: number }

/** One store of a development set with the engine that asks it and the clock each question sets. */
interface EvalPart { id: string; engine: MemoryEngine<MemoryStore>; clock: BenchClock; sourcesOf: (id: string) => readonly string[]; questions: AskedQuestion[] }

/**
 * Ranks every question with one variant through the engine (its settings swapped for the
 * variant's, as a settings change does); `sourcesOf` maps a memory id to the ids the gold uses.
 */
export async function evaluate(part: EvalPart, questions: readonly AskedQuestion[], variant: Variant): Promise<QuestionScore[]> {
  part.engine.updateSettings(benchSettings(variant.settings, variant.search));
  const scores: QuestionScore[] = [];
  for (const q of questions) {
    part.clock.set(q.nowMs);
    const out = await part.engine.recallDetailed({ query: q.query, limit: 10, ...(q.project ? { project: q.project } : {}), ...(variant.only ? { only: variant.only } : {}) }, { track: false, explain: false });
    scores.push(scoreQuestion(q, out.items.flatMap((r) => part.sourcesOf(r.id))));
  }
  return scores;
}

const fmtScore = (r: AggregateScore): string => `${r.recallAt5.toFixed(3)} ${r.recallAt10.toFixed(3)} ${r.mrr.toFixed(3)}`;
const fmt = (r: AggregateReport): string => `R@5 ${r.overall.recallAt5.toFixed(3)}  R@10 ${r.overall.recallAt10.toFixed(3)}  MRR ${r.overall.mrr.toFixed(3)}`;

/** One development set ready to be asked: its stores (one, or one per conversation) and questions. */
interface EvalSet {
  readonly name: string;
  readonly parts: EvalPart[];
}

/** One variant over a set: the aggregate, each part's aggregate and each part's question scores (for the folds). */
interface SetRun { overall: AggregateReport; byPart: Record<string, AggregateScore>; scores: Record<string, QuestionScore[]> }

async function runSet(set: EvalSet, variant: Variant, partIds?: readonly string[]): Promise<SetRun> {
  const all: QuestionScore[] = [];
  const byPart: Record<string, AggregateScore> = {};
  const perPart: Record<string, QuestionScore[]> = {};
  for (const part of set.parts) {
    if (partIds && !partIds.includes(part.id)) continue;
    const scores = await evaluate(part, part.questions, variant);
    byPart[part.id] = aggregate(scores).overall;
    perPart[part.id] = scores;
    all.push(...scores);
  }
  return { overall: aggregate(all), byPart, scores: perPart };
}

async function syntheticSet(real: QueryEmbedder, embedder: Embedder): Promise<EvalSet> {
  const { questions: all } = loadDevSet();
  const questions = QUICK ? all.filter((_, i) => i % 4 === 0) : all;
  const { store, idToSource, buildMs } = await buildStore(real);
  await embedder.embed(questions.map((q) => q.query));
  const graph = store.read((db) => ({
    entities: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM entities')?.n ?? 0,
    attributes: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM entity_attributes')?.n ?? 0,
  }));
  console.log(`synthetic set: ${idToSource.size} memories, ${questions.length} questions; graph ${JSON.stringify(graph)}; built in ${buildMs} ms`);
  const fallbackNow = Date.parse('2026-01-01T00:00:00Z');
  const clock = new BenchClock();
  return {
    name: 'synthetic',
    parts: [{
      id: 'devset', engine: benchEngine(store, clock, embedder), clock, sourcesOf: (id) => [idToSource.get(id) ?? id],
      questions: questions.map((q) => ({ query: q.query, gold: q.gold, category: q.category, ...(q.project ? { project: q.project } : {}), nowMs: q.asOf ? Date.parse(q.asOf) : fallbackNow })),
    }],
  };
}

async function realSet(inner: Embedder, cache: Map<string, Float32Array>): Promise<EvalSet | undefined> {
  const loaded = loadLocomo();
  if ('absent' in loaded) { console.log(loaded.absent); return undefined; }
  // Memory and question vectors kept on disk across runs, and in memory for the variants.
  const embedder = cachingEmbedder(diskCachedEmbedder(inner, 'locomo-vectors'), cache);
  const parts: EvalSet['parts'] = [];
  for (const conv of loaded.conversations) {
    const t0 = Date.now();
    const clock = new BenchClock();
    const built = await cachedLocomoStore(conv, embedder, clock);
    const questions = QUICK ? conv.questions.filter((_, i) => i % 4 === 0) : conv.questions;
    await embedder.embed(questions.map((q) => q.query));
    const stats = built.store.read((db) => ({
      memories: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n ?? 0,
      entities: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM entities')?.n ?? 0,
      embedded: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM embeddings')?.n ?? 0,
    }));
    console.log(`real set ${conv.id}: ${conv.memories.length} turns -> ${JSON.stringify(stats)}, ${questions.length} questions; ${built.cached ? 'cached store opened' : 'built'} in ${Date.now() - t0} ms`);
    const nowMs = locomoAskedAt(conv);
    parts.push({ id: conv.id, engine: built.engine, clock, sourcesOf: (id) => built.sourcesById.get(id) ?? [id], questions: questions.map((q) => ({ ...q, nowMs })) });
  }
  return { name: 'real', parts };
}

const ALPHAS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];

/**
 * Leave-one-conversation-out choice of alpha: for each conversation, the alpha with the best mean
 * R@10 on the others, scored on the held-out one (an honest estimate of a tuned weight).
 */
function leaveOneOut(sweep: Record<string, SetRun>): { perFold: Record<string, number>; heldOutRecallAt10: number } {
  const alphas = Object.keys(sweep);
  const parts = Object.keys(sweep[alphas[0] as string]?.byPart ?? {});
  const perFold: Record<string, number> = {};
  let total = 0, count = 0;
  for (const held of parts) {
    let best = alphas[0] as string, bestValue = -1;
    for (const a of alphas) {
      const run = sweep[a] as SetRun;
      let sum = 0, n = 0;
      for (const p of parts) if (p !== held) { const s = run.byPart[p] as AggregateScore; sum += s.recallAt10 * s.count; n += s.count; }
      if (n > 0 && sum / n > bestValue) { bestValue = sum / n; best = a; }
    }
    perFold[held] = Number(best);
    const s = (sweep[best] as SetRun).byPart[held] as AggregateScore;
    total += s.recallAt10 * s.count; count += s.count;
  }
  return { perFold, heldOutRecallAt10: count ? total / count : 0 };
}

/** One toggle row against full: the change of each figure, and on how many parts R@10 rose or fell. */
interface AblationRow { dR5: number; dR10: number; dMrr: number; partsUp: number; partsDown: number; parts: number }

/** Every "no X" / "with X" row against full (what switching that one default does). */
function ablation(results: Record<string, SetRun>): Record<string, AblationRow> {
  const full = results.full;
  const out: Record<string, AblationRow> = {};
  if (!full) return out;
  for (const [name, run] of Object.entries(results)) {
    if (!/^(no|with) /.test(name)) continue;
    let up = 0, down = 0;
    for (const [part, sc] of Object.entries(run.byPart)) {
      const d = sc.recallAt10 - (full.byPart[part] as AggregateScore).recallAt10;
      if (d > 1e-9) up++; else if (d < -1e-9) down++;
    }
    const round = (x: number): number => Number(x.toFixed(4));
    out[name] = {
      dR5: round(run.overall.overall.recallAt5 - full.overall.overall.recallAt5), dR10: round(run.overall.overall.recallAt10 - full.overall.overall.recallAt10),
      dMrr: round(run.overall.overall.mrr - full.overall.overall.mrr), partsUp: up, partsDown: down, parts: Object.keys(run.byPart).length,
    };
  }
  return out;
}

/**
 * The fold rule of stage choice (docs/recall-design.md, "Fifth round"): a stage is on by default
 * only if, against the pipeline without it, it raises R@10 on all but at most one part (4 of 5
 * conversations; 3 of 4 inside a leave-one-out fold) and lowers none by more than FOLD_TOLERANCE.
 * A toggle row whose parts' R@10 all move by less than 1e-9 is idle on this set (on the real set
 * the stage never fires there: hints need a language model, resolution needs decisions; with
 * --quick a stage that only reorders the top ten can look idle too): its verdict is 'idle', it
 * keeps its default, and the synthetic set, the guard, decides.
 */
const FOLD_TOLERANCE = 0.01;

/** Per part: R@10 of the pipeline with the stage minus without it, for one toggle row. */
function stageGains(row: string, results: Record<string, SetRun>, parts: readonly string[]): number[] {
  const full = results.full as SetRun, toggled = results[row] as SetRun;
  const on = row.startsWith('no ') ? full : toggled, off = row.startsWith('no ') ? toggled : full;
  return parts.map((p) => (on.byPart[p] as AggregateScore).recallAt10 - (off.byPart[p] as AggregateScore).recallAt10);
}

type Verdict = 'on' | 'off' | 'idle';

function foldVerdict(gains: readonly number[]): Verdict {
  if (gains.every((g) => Math.abs(g) < 1e-9)) return 'idle';
  const raised = gains.filter((g) => g > 1e-9).length;
  return raised >= gains.length - 1 && gains.every((g) => g >= -FOLD_TOLERANCE) ? 'on' : 'off';
}

/** Deep merge of two search patches (two toggles may patch the same group). */
function mergeSearch(a: SearchConfigInput | undefined, b: SearchConfigInput | undefined): SearchConfigInput | undefined {
  if (!a) return b;
  if (!b) return a;
  const out: Record<string, unknown> = { ...a };
  for (const [k, val] of Object.entries(b)) {
    const prev = out[k];
    out[k] = prev && typeof prev === 'object' && val && typeof val === 'object' ? { ...prev, ...val } : val;
  }
  return out as SearchConfigInput;
}

interface StageChoice {
  /** Every toggle row: per-part gain of the stage, the verdict on all parts, and whether it flips the default. */
  rule: Record<string, { gains: Record<string, number>; verdict: Verdict; flip: boolean }>;
  /** Leave-one-conversation-out: per held-out part, the rows the other parts flip and the held-out scores. */
  folds: Record<string, { flips: string[]; heldOut: AggregateScore; tuned: AggregateScore }>;
  cv: AggregateReport;
  tuned: AggregateReport;
}

/** A toggle row flips its default when the rule's verdict disagrees with it (idle rows never flip). */
function flips(row: string, verdict: Verdict): boolean {
  return (row.startsWith('no ') && verdict === 'off') || (row.startsWith('with ') && verdict === 'on');
}

/** One variant that applies every toggle row of `rows` together (their settings and search patches merged). */
function combineRows(name: string, rows: readonly string[], all: readonly Variant[]): Variant {
  const parts = rows.map((row) => all.find((x) => x.name === row) as Variant);
  const combined: Variant = { name, settings: Object.assign({}, ...parts.map((x) => x.settings ?? {})) as SettingOverrides };
  const search = parts.reduce<SearchConfigInput | undefined>((acc, x) => mergeSearch(acc, x.search), undefined);
  if (search) combined.search = search;
  return combined;
}

/**
 * The fold rule on all parts (what the defaults must pass), and its cross-validated figure: for
 * each held-out conversation the rule is applied to the other four, the toggles it flips are
 * combined into one variant, and that variant is scored on the held-out conversation only.
 */
async function stageChoice(set: EvalSet, results: Record<string, SetRun>, all: readonly Variant[]): Promise<StageChoice> {
  const parts = set.parts.map((p) => p.id);
  const rows = Object.keys(results).filter((n) => /^(no|with) /.test(n));
  const rule: StageChoice['rule'] = {};
  for (const row of rows) {
    const g = stageGains(row, results, parts);
    const verdict = foldVerdict(g);
    rule[row] = { gains: Object.fromEntries(parts.map((p, i) => [p, Number((g[i] as number).toFixed(4))])), verdict, flip: flips(row, verdict) };
  }
  const folds: StageChoice['folds'] = {};
  const heldScores: QuestionScore[] = [];
  const full = results.full as SetRun;
  for (const held of parts) {
    const train = parts.filter((p) => p !== held);
    const chosen = rows.filter((row) => flips(row, foldVerdict(stageGains(row, results, train))));
    let scores: QuestionScore[];
    if (chosen.length === 0) scores = full.scores[held] as QuestionScore[];
    else if (chosen.length === 1) scores = (results[chosen[0] as string] as SetRun).scores[held] as QuestionScore[];
    else scores = (await runSet(set, combineRows(`fold ${held}`, chosen, all), [held])).scores[held] as QuestionScore[];
    folds[held] = { flips: chosen, heldOut: aggregate(scores).overall, tuned: full.byPart[held] as AggregateScore };
    heldScores.push(...scores);
  }
  return { rule, folds, cv: aggregate(heldScores), tuned: full.overall };
}

/**
 * The switches whose fold-rule verdicts sat at the margin in the sixth round (docs/recall-design.md):
 * their every combination is scored with `--combinations` (2^6 runs of a set).
 */
const COMBINATION_LABELS = COMBINATIONS_ASKED ?? ['currentness', 'cosine normalisation', 'rerank', 'facet coverage', 'temporal prior', 'graph boost'];

/** Every combination of COMBINATION_LABELS' toggle rows on `set`, and the leave-one-part-out choice among them. */
async function combinationChoice(set: EvalSet, all: readonly Variant[]): Promise<CombinationChoice> {
  const rows = COMBINATION_LABELS.map((label) => {
    const row = rowsOf(label).find((n) => all.some((x) => x.name === n));
    if (!row) throw new Error(`--combinations: no row "no ${label}" or "with ${label}" (rows: ${all.map((x) => x.name).join(', ')})`);
    return row;
  });
  const scored = new Map<string, CombinationScores>();
  for (const flipped of subsets(rows)) {
    const name = flipped.length ? flipped.join(' + ') : 'defaults';
    const run = await runSet(set, combineRows(name, flipped, all));
    scored.set(name, run.scores);
  }
  return chooseCombination(scored, 'defaults');
}

function printCombinationChoice(name: string, c: CombinationChoice): void {
  console.log(`\n${name} combinations of ${COMBINATION_LABELS.join(', ')} (${c.ranking.length}); best by R@10 over all conversations:`);
  const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  for (const r of c.ranking.slice(0, 5)) console.log(`  ${r.recallAt10.toFixed(3)}  (${signed(r.vsDefaults.mean)}, 95 % ${signed(r.vsDefaults.low)} … ${signed(r.vsDefaults.high)})  ${r.name}`);
  const worst = c.ranking[c.ranking.length - 1];
  if (worst) console.log(`  worst: ${worst.recallAt10.toFixed(3)}  (${signed(worst.vsDefaults.mean)}, 95 % ${signed(worst.vsDefaults.low)} … ${signed(worst.vsDefaults.high)})  ${worst.name}`);
  const at = c.ranking.findIndex((r) => r.name === 'defaults');
  console.log(`  the defaults: R@10 ${c.defaults.recallAt10.toFixed(3)}, rank ${at + 1} of ${c.ranking.length}`);
  for (const [p, f] of Object.entries(c.folds)) console.log(`  held out ${p.padEnd(8)} chosen [${f.chosen}]  held-out ${fmtScore(f.heldOut)}  defaults ${fmtScore(f.defaults)}`);
  console.log(`${name} combination choice cross-validated R@5 R@10 MRR ${fmtScore(c.crossValidated)}   defaults ${fmtScore(c.defaults)}`);
}

/** The learned parts' held-out figures: each conversation recalled with the weights fitted without it. */
interface LearnedOrderHeldOut {
  folds: Record<string, { heldOut: AggregateScore; shipped: AggregateScore }>;
  crossValidated: AggregateReport;
  shipped: AggregateReport;
  /**
   * The fold rule with the learned parts held out: per toggle row, each part's R@10 with the stage
   * minus without it, the questions it moves there (questionsMoved.ts), the difference over all
   * parts' questions with its paired 95 % interval, and the verdict.
   */
  rule: Record<string, { gains: Record<string, number>; moved: Record<string, { better: number; worse: number }>; pooled: { mean: number; low: number; high: number }; verdict: Verdict }>;
}

/**
 * Each part recalled through the engine with the learned-order weights bench/trainOrder.ts fitted
 * on the other parts (its `folds` in bench/results/trainOrder.json) and the query adapter
 * bench/trainQueryAdapter.ts fitted on them (bench/results/queryAdapter.json), so the held-out
 * figure comes from here like every other figure; then every toggle row of `rowVariants` on each
 * part with the same fold weights (the fold rule without in-sample learned parts). Undefined, with
 * the reason printed, when a file is missing or was written for other features or conversations.
 */
async function learnedOrderHeldOut(set: EvalSet, full: SetRun, rowVariants: readonly Variant[]): Promise<LearnedOrderHeldOut | undefined> {
  const file = join(__dirname, 'results', 'trainOrder.json');
  const trained = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as { folds?: Record<string, { weights: Record<string, number> }> } : undefined;
  const folds = trained?.folds ?? {};
  const keys = Object.keys(DEFAULT_SEARCH_CONFIG.learnedOrder.weights).sort().join(',');
  const stale = set.parts.find((p) => !folds[p.id] || Object.keys(folds[p.id]?.weights ?? {}).sort().join(',') !== keys);
  if (stale) { console.log(`${set.name} learned order held out: skipped (bench/results/trainOrder.json has no fold for ${stale.id} with today's features; run bench/trainOrder.ts)`); return undefined; }
  const adapters = loadQueryAdapterFolds();
  const noAdapter = 'absent' in adapters ? adapters.absent : set.parts.find((p) => !adapters.has(p.id))?.id;
  if (noAdapter) { console.log(`${set.name} learned order held out: skipped (no held-out query adapter: ${noAdapter})`); return undefined; }
  const out: LearnedOrderHeldOut['folds'] = {};
  const held: QuestionScore[] = [];
  const rows = rowVariants.filter((x) => /^(no|with) /.test(x.name));
  const toggled: Record<string, Record<string, number>> = {};
  const moved: Record<string, Record<string, { better: number; worse: number }>> = {};
  const pairs: Record<string, { on: QuestionScore[]; off: QuestionScore[] }> = {};
  for (const part of set.parts) {
    const weights = (folds[part.id] as { weights: Record<string, number> }).weights;
    const adapter = (adapters as Map<string, QueryAdapter>).get(part.id) as QueryAdapter;
    const fold: SearchConfigInput = { learnedOrder: { weights } as SearchConfigInput['learnedOrder'], vector: { adapter } };
    const run = await runSet(set, v(`learned order and query adapter fitted without ${part.id}`, {}, fold), [part.id]);
    out[part.id] = { heldOut: run.byPart[part.id] as AggregateScore, shipped: full.byPart[part.id] as AggregateScore };
    held.push(...(run.scores[part.id] as QuestionScore[]));
    // Each toggle row on this part with the same held-out weights: the fold rule without in-sample learned parts.
    for (const row of rows) {
      const r = await runSet(set, { ...row, search: mergeSearch(row.search, fold) as SearchConfigInput }, [part.id]);
      const d = (r.byPart[part.id] as AggregateScore).recallAt10 - (run.byPart[part.id] as AggregateScore).recallAt10;
      (toggled[row.name] ??= {})[part.id] = Number((row.name.startsWith('no ') ? -d : d).toFixed(4));
      const base = run.scores[part.id] as QuestionScore[], toggledScores = r.scores[part.id] as QuestionScore[];
      const [on, off] = row.name.startsWith('no ') ? [base, toggledScores] : [toggledScores, base];
      (moved[row.name] ??= {})[part.id] = questionsMoved(on, off);
      const pair = (pairs[row.name] ??= { on: [], off: [] });
      pair.on.push(...on); pair.off.push(...off);
    }
  }
  const rule = Object.fromEntries(Object.entries(toggled).map(([row, gains]) => {
    const pair = pairs[row] as { on: QuestionScore[]; off: QuestionScore[] };
    return [row, { gains, moved: moved[row] ?? {}, pooled: pairedDifference(pair.off, pair.on), verdict: foldVerdict(Object.values(gains)) }];
  }));
  return { folds: out, crossValidated: aggregate(held), shipped: full.overall, rule };
}

function printLearnedOrderHeldOut(name: string, h: LearnedOrderHeldOut): void {
  console.log(`\n${name} learned order held out (each conversation with the weights fitted on the others; R@5 R@10 MRR):`);
  for (const [p, f] of Object.entries(h.folds)) console.log(`  ${p.padEnd(8)} held-out ${fmtScore(f.heldOut)}  shipped weights ${fmtScore(f.shipped)}`);
  console.log(`${name} learned order cross-validated ${fmt(h.crossValidated)}   shipped weights ${fmt(h.shipped)}`);
  for (const [cat, sc] of Object.entries(h.crossValidated.byCategory)) console.log(`${name} learned order cross-validated, category ${cat} (${sc.count}): R@5 R@10 MRR ${fmtScore(sc)}`);
  const parts = Object.keys(h.folds);
  const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  if (Object.keys(h.rule).length === 0) return;
  console.log(`\n${name} fold rule with the learned parts held out (stage on minus off, R@10; each conversation with the learned order and query adapter fitted without it)`);
  console.log(`${'row'.padEnd(31)} ${parts.map((p) => p.padEnd(8)).join(' ')} verdict`);
  for (const [row, r] of Object.entries(h.rule)) console.log(`${row.padEnd(31)} ${parts.map((p) => signed(r.gains[p] as number).padEnd(8)).join(' ')} ${r.verdict}`);
  console.log(`\n${name} questions each row moves there (better / worse with the stage on) and its R@10 difference over all of them (paired 95 % interval)`);
  console.log(`${'row'.padEnd(31)} ${parts.map((p) => p.padEnd(8)).join(' ')} pooled`);
  for (const [row, r] of Object.entries(h.rule)) {
    const cells = parts.map((p) => { const m = r.moved[p]; return (m ? `${m.better}/${m.worse}` : '-').padEnd(8); });
    console.log(`${row.padEnd(31)} ${cells.join(' ')} ${signed(r.pooled.mean)} (${signed(r.pooled.low)} … ${signed(r.pooled.high)})`);
  }
}

function printStageChoice(name: string, c: StageChoice): void {
  const parts = Object.keys(c.folds);
  const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  console.log(`\n${name} fold rule (stage on minus off, R@10 per conversation; on by default only if it raises all but one and lowers none by > ${FOLD_TOLERANCE})`);
  console.log(`${'row'.padEnd(31)} ${parts.map((p) => p.padEnd(8)).join(' ')} verdict flip`);
  for (const [row, r] of Object.entries(c.rule)) console.log(`${row.padEnd(31)} ${parts.map((p) => signed(r.gains[p] as number).padEnd(8)).join(' ')} ${r.verdict.padEnd(7)} ${r.flip ? 'FLIP' : ''}`);
  console.log(`${name} leave-one-conversation-out (held-out R@5 R@10 MRR vs the defaults on that conversation):`);
  for (const [p, f] of Object.entries(c.folds)) console.log(`  ${p.padEnd(8)} flips [${f.flips.join(', ')}]  held-out ${fmtScore(f.heldOut)}  defaults ${fmtScore(f.tuned)}`);
  console.log(`${name} cross-validated ${fmt(c.cv)}   tuned ${fmt(c.tuned)}   gap R@10 ${(c.tuned.overall.recallAt10 - c.cv.overall.recallAt10).toFixed(3)}`);
  for (const [cat, sc] of Object.entries(c.cv.byCategory)) console.log(`${name} cross-validated, category ${cat} (${sc.count}): R@5 R@10 MRR ${fmtScore(sc)}`);
}

/** One line per toggle: the change against full on each set (R@10 rising means the default costs recall). */
function printAblation(setNames: readonly string[], out: Record<string, { ablation: Record<string, AblationRow> }>): void {
  const rows = [...new Set(setNames.flatMap((n) => Object.keys(out[n]?.ablation ?? {})))];
  if (rows.length === 0) return;
  const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  console.log(`\nablation (toggled minus full)   ${setNames.map((n) => `${n}: dR@5 dR@10 dMRR [parts R@10 up/down]`.padEnd(48)).join(' ')}`);
  for (const row of rows) {
    console.log(`${row.padEnd(31)} ${setNames.map((n) => {
      const a = out[n]?.ablation[row];
      return (a ? `${signed(a.dR5)} ${signed(a.dR10)} ${signed(a.dMrr)}${a.parts > 1 ? ` [${a.partsUp}/${a.partsDown} of ${a.parts}]` : ''}` : '').padEnd(48);
    }).join(' ')}`);
  }
}

async function main(): Promise<void> {
  const modelDir = defaultModelDir(process.env, join(__dirname, '..', 'src', 'cli', 'commands'));
  if (!modelDir) throw new Error('The default model (models/use-lite) was not found; build it first (npm run build).');
  const real = new WorkerEmbedder({ modelDir });
  const sets: EvalSet[] = [];
  try {
    checkAblationCoverage(variants().map((x) => x.name));
    const cache = new Map<string, Float32Array>();
    if (SYNTHETIC) sets.push(await syntheticSet(real, cachingEmbedder(real, cache)));
    const r = REAL ? await realSet(real, cache) : undefined;
    if (r) sets.push(r);
    const out: Record<string, unknown> = {};
    for (const set of sets) {
      const sweep: Record<string, SetRun> = {};
      for (const alpha of NO_SWEEP ? [] : ALPHAS) {
        sweep[String(alpha)] = await runSet(set, v(`alpha ${alpha}`, { 'search.alpha': alpha }));
        console.log(`${set.name} alpha ${alpha.toFixed(1)}: ${fmt((sweep[String(alpha)] as SetRun).overall)}`);
      }
      const loo = set.parts.length > 1 && !NO_SWEEP ? leaveOneOut(sweep) : undefined;
      if (loo) console.log(`${set.name} alpha leave-one-conversation-out: ${JSON.stringify(loo.perFold)}, held-out R@10 ${loo.heldOutRecallAt10.toFixed(3)}`);
      const results: Record<string, SetRun> = {};
      for (const variant of variants().filter((x) => !ONLY_VARIANTS || ONLY_VARIANTS.includes(x.name))) {
        results[variant.name] = await runSet(set, variant);
        console.log(`${set.name} ${variant.name.padEnd(22)} ${fmt((results[variant.name] as SetRun).overall)}`);
      }
      const choice = set.parts.length > 1 && results.full ? await stageChoice(set, results, variants()) : undefined;
      if (choice) printStageChoice(set.name, choice);
      const heldOrder = set.parts.length > 1 && results.full ? await learnedOrderHeldOut(set, results.full, variants().filter((x) => !ONLY_VARIANTS || ONLY_VARIANTS.includes(x.name))) : undefined;
      if (heldOrder) printLearnedOrderHeldOut(set.name, heldOrder);
      const combos = COMBINATIONS && set.parts.length > 1 ? await combinationChoice(set, variants()) : undefined;
      if (combos) printCombinationChoice(set.name, combos);
      out[set.name] = {
        ...(choice ? { stageChoice: { rule: choice.rule, folds: choice.folds, crossValidated: choice.cv, tuned: choice.tuned.overall } } : {}),
        ...(combos ? { combinationChoice: { labels: COMBINATION_LABELS, ...combos } } : {}),
        ...(heldOrder ? { learnedOrderHeldOut: heldOrder } : {}),
        questions: set.parts.reduce((n, p) => n + p.questions.length, 0), parts: set.parts.map((p) => p.id),
        alphaSweep: Object.fromEntries(Object.entries(sweep).map(([k, x]) => [k, x.overall.overall])),
        ...(loo ? { alphaLeaveOneOut: loo } : {}),
        variants: Object.fromEntries(Object.entries(results).map(([k, x]) => [k, { ...x.overall, byPart: x.byPart }])),
        ablation: ablation(results),
      };
    }
    // The rule's flips are judged one at a time; applied together they can interact (the sixth round
    // found all four flips together worse than none, docs/recall-design.md): measure the combination
    // on every set, so the defaults the rule asks for are seen as a whole.
    const flipped = [...new Set(sets.flatMap((x) => Object.entries((out[x.name] as { stageChoice?: { rule: StageChoice['rule'] } }).stageChoice?.rule ?? {}).filter(([, r]) => r.flip).map(([row]) => row)))];
    if (flipped.length > 0) {
      const together = combineRows('rule flips together', flipped, variants());
      console.log(`\nthe rule's flips applied together: ${flipped.join(', ')}`);
      for (const set of sets) {
        const run = await runSet(set, together);
        const full = (out[set.name] as { variants: Record<string, AggregateReport> }).variants.full;
        console.log(`${set.name} rule flips together  ${fmt(run.overall)}${full ? `   (full ${fmtScore(full.overall)})` : ''}`);
        (out[set.name] as Record<string, unknown>).ruleFlipsTogether = { rows: flipped, ...run.overall, byPart: run.byPart };
      }
    }
    // Side by side: R@5 R@10 MRR per set, then per category.
    const names = variants().map((x) => x.name).filter((n) => !ONLY_VARIANTS || ONLY_VARIANTS.includes(n));
    console.log(`\n${'variant'.padEnd(22)} ${sets.map((x) => `${x.name} R@5 R@10 MRR`.padEnd(26)).join(' ')}`);
    for (const n of names) {
      console.log(`${n.padEnd(22)} ${sets.map((x) => { const r = (out[x.name] as { variants: Record<string, AggregateReport> }).variants[n]; return r ? fmtScore(r.overall).padEnd(26) : ''.padEnd(26); }).join(' ')}`);
    }
    printAblation(sets.map((x) => x.name), out as Record<string, { ablation: Record<string, AblationRow> }>);
    for (const x of sets) {
      const full = (out[x.name] as { variants: Record<string, AggregateReport> }).variants.full;
      if (!full) continue;
      for (const [cat, sc] of Object.entries(full.byCategory)) console.log(`${x.name} full, category ${cat} (${sc.count}): R@5 R@10 MRR ${fmtScore(sc)}`);
    }
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    // One set alone (run in parallel on a busy machine) writes its own file.
    const file = OUT_FILE ?? (SYNTHETIC && REAL ? 'quality.json' : SYNTHETIC ? 'quality-synthetic.json' : 'quality-real.json');
    writeFileSync(join(__dirname, 'results', file), JSON.stringify({
      date: new Date().toISOString(), loadAverage: loadavg().map((x) => Number(x.toFixed(2))), embedder: real.id, quick: QUICK, vectorEncoding: ENCODING, defaults: { alpha: DEFAULT_SEARCH_CONFIG.alpha }, sets: out,
    }, null, 2) + '\n');
    console.log(`wrote bench/results/${file}`);
  } finally {
    for (const set of sets) for (const p of set.parts) await p.engine.close();
    await real.dispose();
  }
}

if (require.main === module) main().catch((e: unknown) => { console.error(e); process.exitCode = 1; });

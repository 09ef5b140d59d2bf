/**
 * recall(store, request, deps) → RecallResult[]: the hybrid pipeline (recallPipeline.ts) plus
 * bookkeeping in one write transaction: access_count + 1 and last_accessed for returned memories
 * (a metadata-only UPDATE, so the FTS triggers never fire), and with a session key one
 * session_memories row per result (source, rank, was_injected) plus fts_hit_count + 1 for every
 * memory the lexical arm found (new rows for those get source 'fts_only'): the feedback loop's input.
 */
import { randomUUID } from 'node:crypto';
import { isoFromMs } from '../clock';
import type { MemoryStore, SqlWriter } from '../store/storeTypes';
import { rankRecall } from './recallPipeline';
import type { RankedRecall } from './recallPipeline';
import { effectiveConfig, validateRequest } from './recallRequest';
import type { RecallDeps, RecallRequest } from './recallRequest';
import type { Candidate, RecallResult } from './recallTypes';
import { VectorIndex } from './vectorIndex';

/** One vector index per store and model, kept across calls so updates are incremental. */
const indexes = new WeakMap<MemoryStore, Map<string, VectorIndex>>();

export function vectorIndexFor(store: MemoryStore, modelId: string, dims: number): VectorIndex {
  let byModel = indexes.get(store);
  if (!byModel) { byModel = new Map(); indexes.set(store, byModel); }
  const key = `${modelId}:${dims}`;
  let idx = byModel.get(key);
  if (!idx) { idx = new VectorIndex(modelId, dims); byModel.set(key, idx); }
  return idx;
}

/** session_memories.source for a result: its strongest kind of evidence. */
export function sessionSource(c: Candidate): string {
  const s = c.explain.sources;
  if (s.includes('lexical') && s.includes('vector')) return 'hybrid';
  return s[0] ?? 'recall';
}

export function toResult(c: Candidate, withExplain: boolean): RecallResult {
  const base = { id: c.id, sourceId: c.sourceId, content: c.content, score: Math.round(c.score * 10_000) / 10_000, type: c.type, createdAt: c.createdAt, ...(c.currentness ? { currentness: c.currentness } : {}) };
  return withExplain ? { ...base, explain: c.explain } : base;
}

export function recordRecall(w: SqlWriter, ranked: RankedRecall, req: RecallRequest, nowIso: string, lexicalCap: number): void {
  const ids = ranked.results.map((c) => c.id);
  for (const id of ids) {
    w.run('UPDATE memories SET access_count = access_count + 1, last_accessed = ? WHERE id = ?', [nowIso, id]);
  }
  if (req.session === undefined) return;
  const lexical = new Set(ranked.lexicalIds.slice(0, lexicalCap));
  const upsert = `INSERT INTO session_memories (id, session_key, memory_id, source, final_score, rank, was_injected, fts_hit_count, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(session_key, agent_id, memory_id) DO UPDATE SET
      fts_hit_count = fts_hit_count + excluded.fts_hit_count,
      was_injected = MAX(was_injected, excluded.was_injected),
      final_score = MAX(final_score, excluded.final_score)`;
  const next = w.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories WHERE session_key = ?', [req.session])?.n ?? 0;
  let rank = next;
  ranked.results.forEach((c) => {
    w.run(upsert, [randomUUID(), req.session as string, c.id, sessionSource(c), c.score, rank++, req.injected ? 1 : 0, lexical.has(c.id) ? 1 : 0, nowIso]);
  });
  const returned = new Set(ids);
  for (const id of lexical) {
    if (returned.has(id)) continue;
    w.run(upsert, [randomUUID(), req.session as string, id, 'fts_only', 0, rank++, 0, 1, nowIso]);
  }
}

export interface RecallOutcome extends RankedRecall {
  readonly items: RecallResult[];
}

/** Full recall with timings and notes (bench, CLI --explain). */
export async function recallDetailed(store: MemoryStore, req: RecallRequest, deps: RecallDeps, withExplain = true): Promise<RecallOutcome> {
  validateRequest(req);
  const cfg = effectiveConfig(deps.config, req);
  const vectors = deps.vectors ?? (deps.embedder ? vectorIndexFor(store, deps.embedder.id, deps.embedder.dims) : undefined);
  const ranked = await rankRecall(store, req, deps, cfg, vectors);
  if (deps.track !== false && (ranked.results.length > 0 || ranked.lexicalIds.length > 0)) {
    const nowIso = isoFromMs(deps.clock.now());
    await store.write('recall', (w) => recordRecall(w, ranked, req, nowIso, cfg.topK));
  }
  return { ...ranked, items: ranked.results.map((c) => toResult(c, withExplain)) };
}

export async function recall(store: MemoryStore, req: RecallRequest, deps: RecallDeps): Promise<RecallResult[]> {
  return (await recallDetailed(store, req, deps, true)).items;
}

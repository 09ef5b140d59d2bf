/**
 * recall(store, request, deps) → RecallResult[]: the hybrid pipeline (recallPipeline.ts) and the
 * results' shape. Recall only reads: it never writes the store. It returns what a tracked recall
 * should record (`bookkeeping`: the returned memories for access counts, and with a session key
 * the results and lexical hits for session_memories, the feedback loop's input); the session layer
 * records it off the answer path (`trackedRecall`, src/core/sessions/recallTracking.ts;
 * docs/store.md "Deferred write").
 */
import { isoFromMs } from '../clock';
import type { MemoryStore } from '../store/storeTypes';
import { relevanceOf } from './explainText';
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
  if (!idx) { idx = new VectorIndex(modelId, dims); idx.watch(store); byModel.set(key, idx); }
  return idx;
}

/** session_memories.source for a result: its strongest kind of evidence. */
export function sessionSource(c: Candidate): string {
  const s = c.explain.sources;
  if (s.includes('lexical') && s.includes('vector')) return 'hybrid';
  return s[0] ?? 'recall';
}

/** A result as callers get it; `best` is the best score of the same recall (relevance is relative to it). */
export function toResult(c: Candidate, withExplain: boolean, best: number): RecallResult {
  const round = (x: number): number => Math.round(x * 10_000) / 10_000;
  const base = { id: c.id, sourceId: c.sourceId, content: c.content, score: round(c.score), relevance: round(relevanceOf(c.score, best)), type: c.type, createdAt: c.createdAt, ...(c.currentness ? { currentness: c.currentness } : {}) };
  return withExplain ? { ...base, explain: c.explain } : base;
}

/** What one recall's bookkeeping needs (kept small: entries wait in memory until written). */
export interface RecallBookkeepingEntry {
  readonly nowIso: string;
  readonly results: readonly { readonly id: string; readonly source: string; readonly score: number }[];
  /** Lexical-arm hits counted for fts_hit_count (already capped at topK). */
  readonly lexicalIds: readonly string[];
  readonly session?: string;
  readonly injected: boolean;
}

export function bookkeepingEntry(ranked: RankedRecall, req: RecallRequest, nowIso: string, lexicalCap: number): RecallBookkeepingEntry {
  return {
    nowIso,
    results: ranked.results.map((c) => ({ id: c.id, source: sessionSource(c), score: c.score })),
    lexicalIds: req.session === undefined || req.countLexicalHits === false ? [] : ranked.lexicalIds.slice(0, lexicalCap),
    ...(req.session !== undefined ? { session: req.session } : {}),
    injected: req.injected === true,
  };
}

export interface RecallOutcome extends RankedRecall {
  readonly items: RecallResult[];
  /**
   * What a tracked recall records (src/core/sessions/recallTracking.ts), or undefined when there is
   * nothing to record (no result and no lexical hit). Recall itself writes nothing.
   */
  readonly bookkeeping: RecallBookkeepingEntry | undefined;
  /**
   * Partial team replicas only (src/core/team/teamRecall.ts): settles once this recall's hits
   * from the team server are replicated into the store (or that failed), for a host that reads
   * the store about them right away (the Knowledge panel's team marks). Never rejects.
   */
  readonly teamReplicated?: Promise<void>;
}

/** Full recall with timings and notes (bench, CLI --explain). */
export async function recallDetailed(store: MemoryStore, req: RecallRequest, deps: RecallDeps, withExplain = true): Promise<RecallOutcome> {
  validateRequest(req);
  const cfg = effectiveConfig(deps.config, req);
  const vectors = deps.vectors ?? (deps.embedder ? vectorIndexFor(store, deps.embedder.id, deps.embedder.dims) : undefined);
  const ranked = await rankRecall(store, req, deps, cfg, vectors);
  const bookkeeping = ranked.results.length > 0 || ranked.lexicalIds.length > 0 ? bookkeepingEntry(ranked, req, isoFromMs(deps.clock.now()), cfg.topK) : undefined;
  const best = Math.max(0, ...ranked.results.map((c) => c.score));
  return { ...ranked, items: ranked.results.map((c) => toResult(c, withExplain, best)), bookkeeping };
}

export async function recall(store: MemoryStore, req: RecallRequest, deps: RecallDeps): Promise<RecallResult[]> {
  return (await recallDetailed(store, req, deps, true)).items;
}

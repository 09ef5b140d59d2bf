/**
 * recall(store, request, deps) → RecallResult[]: the hybrid pipeline (recallPipeline.ts) plus
 * bookkeeping: access_count + 1 and last_accessed for returned memories (a metadata-only UPDATE,
 * so the FTS triggers never fire), and with a session key one session_memories row per result
 * (source, rank, was_injected) plus fts_hit_count + 1 for every memory the lexical arm found (new
 * rows for those get source 'fts_only'): the feedback loop's input.
 *
 * The bookkeeping is not written on the interactive path: each recall appends its entry to the
 * store's pending bookkeeping, and one deferred write (`store.writeLater`) drains every entry
 * gathered so far in request order. It commits with the process's next write (a session end
 * sees it), after `deferredWriteMs` at the latest, or on close, so a burst of recalls costs one
 * journal record and one fsync, none of them between a query and its answer (docs/store.md).
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
  const base = { id: c.id, sourceId: c.sourceId, content: c.content, score: Math.round(c.score * 10_000) / 10_000, type: c.type, createdAt: c.createdAt };
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
    lexicalIds: req.session === undefined ? [] : ranked.lexicalIds.slice(0, lexicalCap),
    ...(req.session !== undefined ? { session: req.session } : {}),
    injected: req.injected === true,
  };
}

/** One recall's bookkeeping, written on its own (the behaviour recordRecalls reproduces in bulk). */
export function recordRecall(w: SqlWriter, ranked: RankedRecall, req: RecallRequest, nowIso: string, lexicalCap: number): void {
  recordRecalls(w, [bookkeepingEntry(ranked, req, nowIso, lexicalCap)]);
}

/**
 * Writes the bookkeeping of several recalls, oldest first, with the same outcome as writing each
 * on its own: access counts are summed per memory (last_accessed is the latest recall's time) and
 * session rows are upserted recall by recall, so ranks and hit counts are unchanged.
 */
export function recordRecalls(w: SqlWriter, entries: readonly RecallBookkeepingEntry[]): void {
  const access = new Map<string, { n: number; at: string }>();
  for (const e of entries) {
    for (const r of e.results) {
      const a = access.get(r.id);
      access.set(r.id, { n: (a?.n ?? 0) + 1, at: a && a.at > e.nowIso ? a.at : e.nowIso });
    }
  }
  for (const [id, a] of access) {
    w.run('UPDATE memories SET access_count = access_count + ?, last_accessed = ? WHERE id = ?', [a.n, a.at, id]);
  }
  for (const e of entries) recordSessionRows(w, e);
}

function recordSessionRows(w: SqlWriter, e: RecallBookkeepingEntry): void {
  if (e.session === undefined) return;
  const lexical = new Set(e.lexicalIds);
  const upsert = `INSERT INTO session_memories (id, session_key, memory_id, source, final_score, rank, was_injected, fts_hit_count, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(session_key, agent_id, memory_id) DO UPDATE SET
      fts_hit_count = fts_hit_count + excluded.fts_hit_count,
      was_injected = MAX(was_injected, excluded.was_injected),
      final_score = MAX(final_score, excluded.final_score)`;
  const session = e.session;
  let rank = w.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories WHERE session_key = ?', [session])?.n ?? 0;
  for (const r of e.results) {
    w.run(upsert, [randomUUID(), session, r.id, r.source, r.score, rank++, e.injected ? 1 : 0, lexical.has(r.id) ? 1 : 0, e.nowIso]);
  }
  const returned = new Set(e.results.map((r) => r.id));
  for (const id of lexical) {
    if (returned.has(id)) continue;
    w.run(upsert, [randomUUID(), session, id, 'fts_only', 0, rank++, 0, 1, e.nowIso]);
  }
}

/** Bookkeeping entries waiting for their deferred write, per store. */
class PendingBookkeeping {
  private entries: RecallBookkeepingEntry[] = [];
  private scheduled: Promise<boolean> | undefined;

  constructor(private readonly store: MemoryStore) {}

  add(entry: RecallBookkeepingEntry): Promise<boolean> {
    this.entries.push(entry);
    if (!this.scheduled) {
      this.scheduled = this.store.writeLater('recall', (w) => {
        // Drained when the write runs, so entries added until then ride in the same record.
        this.scheduled = undefined;
        recordRecalls(w, this.entries.splice(0));
      }).then(() => true, () => false);
    }
    return this.scheduled;
  }
}

const bookkeeping = new WeakMap<MemoryStore, PendingBookkeeping>();

function pendingBookkeeping(store: MemoryStore): PendingBookkeeping {
  let p = bookkeeping.get(store);
  if (!p) { p = new PendingBookkeeping(store); bookkeeping.set(store, p); }
  return p;
}

export interface RecallOutcome extends RankedRecall {
  readonly items: RecallResult[];
  /**
   * Settles once this recall's bookkeeping is durable: true, or false when it could not be written
   * (the store was closed or the write failed; the results stand either way). Nobody needs to
   * await it; tests and benches do.
   */
  readonly recorded: Promise<boolean>;
}

/** Full recall with timings and notes (bench, CLI --explain). */
export async function recallDetailed(store: MemoryStore, req: RecallRequest, deps: RecallDeps, withExplain = true): Promise<RecallOutcome> {
  validateRequest(req);
  const cfg = effectiveConfig(deps.config, req);
  const vectors = deps.vectors ?? (deps.embedder ? vectorIndexFor(store, deps.embedder.id, deps.embedder.dims) : undefined);
  const ranked = await rankRecall(store, req, deps, cfg, vectors);
  let recorded = Promise.resolve(true);
  if (deps.track !== false && (ranked.results.length > 0 || ranked.lexicalIds.length > 0)) {
    recorded = pendingBookkeeping(store).add(bookkeepingEntry(ranked, req, isoFromMs(deps.clock.now()), cfg.topK));
  }
  return { ...ranked, items: ranked.results.map((c) => toResult(c, withExplain)), recorded };
}

export async function recall(store: MemoryStore, req: RecallRequest, deps: RecallDeps): Promise<RecallResult[]> {
  return (await recallDetailed(store, req, deps, true)).items;
}

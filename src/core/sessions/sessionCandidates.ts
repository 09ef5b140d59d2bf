import type { SessionConfig } from '../config/sessionConfig';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * Session-start candidates: recent live memories by effective score
 * (importance × recencyBase^ageDays; pinned memories 1.0), plus memories linked to the focal
 * entities (traversal candidates, score = max active attribute importance, or the memory's
 * importance), capped at the pool limit; the injected ones are chosen within a token budget.
 */
export type CandidateSource = 'effective' | 'ka_traversal' | 'ka_traversal_pinned';

export interface SessionCandidate {
  readonly memoryId: string;
  readonly content: string;
  readonly source: CandidateSource;
  /** Baseline score (effective score, or traversal score when higher). */
  readonly effectiveScore: number;
  /** Learned ranker score when it is live, else undefined. */
  predictorScore: number | undefined;
  /** Score the final order uses. */
  finalScore: number;
  readonly projectMatch: boolean;
}

const DAY_MS = 86_400_000;
/** Characters per token for the budget estimate. */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function effectiveScore(importance: number, ageDays: number, pinned: boolean, recencyBase: number): number {
  if (pinned) return 1;
  return importance * Math.pow(recencyBase, Math.max(0, ageDays));
}

/**
 * The most recent live memories. INDEXED BY because, left to itself, the planner scans the whole
 * table and sorts it for the `id` tie-break (700 ms at 100k memories, on every session start of
 * a hook or chat); the index walk with a sort of equal timestamps only takes 4 ms.
 */
export const RECENT_CANDIDATES_SQL = 'SELECT id, content, importance, created_at, pinned, project FROM memories INDEXED BY idx_memories_created '
  + 'WHERE is_deleted = 0 AND agent_id = ? ORDER BY created_at DESC, id LIMIT ?';

interface MemRow { id: string; content: string; importance: number; created_at: string; pinned: number; project: string | null }

export function gatherCandidates(db: SqlReader, options: {
  agentId: string;
  project: string | null;
  focalEntityIds: readonly string[];
  pinnedEntityIds: readonly string[];
  nowMs: number;
  config: SessionConfig;
}): SessionCandidate[] {
  const { config } = options;
  const byId = new Map<string, SessionCandidate>();
  const rows = db.all<MemRow>(RECENT_CANDIDATES_SQL, [options.agentId, config.candidatePoolLimit * 3]);
  for (const r of rows) {
    const ageDays = (options.nowMs - Date.parse(r.created_at)) / DAY_MS;
    const score = effectiveScore(r.importance, ageDays, r.pinned !== 0, config.recencyBase);
    if (score <= config.minEffectiveScore && r.pinned === 0) continue;
    byId.set(r.id, { memoryId: r.id, content: r.content, source: 'effective', effectiveScore: score, predictorScore: undefined, finalScore: score, projectMatch: options.project !== null && r.project === options.project });
  }
  if (options.focalEntityIds.length) {
    const ph = options.focalEntityIds.map(() => '?').join(', ');
    // unary + keeps the planner on idx_attributes_entity / idx_attributes_memory (the unselective status index it once chose is gone since migration 28; the + stays as the guard)
    const linked = db.all<MemRow & { attr_importance: number }>(
      `SELECT m.id, m.content, m.importance, m.created_at, m.pinned, m.project, MAX(t.importance) AS attr_importance
       FROM entity_attributes t JOIN memories m ON m.id = t.memory_id
       WHERE +t.agent_id = ? AND +t.status = 'active' AND t.entity_id IN (${ph}) AND m.is_deleted = 0
       GROUP BY m.id ORDER BY attr_importance DESC, m.id LIMIT ?`,
      [options.agentId, ...options.focalEntityIds, config.candidatePoolLimit]);
    const pinnedSet = new Set(options.pinnedEntityIds);
    for (const r of linked) {
      const score = Math.min(1, Math.max(0, r.attr_importance ?? r.importance ?? 0.5));
      const existing = byId.get(r.id);
      if (existing) {
        if (score > existing.effectiveScore) byId.set(r.id, { ...existing, effectiveScore: score, finalScore: score });
        continue;
      }
      const pinnedLink = db.get<{ found: number }>(
        `SELECT 1 AS found FROM entity_attributes WHERE memory_id = ? AND +status = 'active' AND +entity_id IN (${[...pinnedSet].map(() => '?').join(', ') || "''"}) LIMIT 1`,
        [r.id, ...pinnedSet]) !== undefined;
      byId.set(r.id, { memoryId: r.id, content: r.content, source: pinnedLink ? 'ka_traversal_pinned' : 'ka_traversal', effectiveScore: score, predictorScore: undefined, finalScore: score, projectMatch: options.project !== null && r.project === options.project });
    }
  }
  return orderCandidates([...byId.values()]).slice(0, config.candidatePoolLimit);
}

/** Project matches first, then final score, then id (deterministic). */
export function orderCandidates(cands: SessionCandidate[]): SessionCandidate[] {
  return [...cands].sort((a, b) => Number(b.projectMatch) - Number(a.projectMatch) || b.finalScore - a.finalScore || a.memoryId.localeCompare(b.memoryId));
}

/** Greedy selection in order: a candidate that does not fit the remaining budget is skipped. */
export function selectWithinBudget(cands: readonly SessionCandidate[], maxTokens: number): Set<string> {
  const chosen = new Set<string>();
  let left = maxTokens;
  for (const c of cands) {
    const t = estimateTokens(c.content);
    if (t > left) continue;
    chosen.add(c.memoryId);
    left -= t;
  }
  return chosen;
}

/** Records every candidate with its 0-based rank and was_injected flag (INSERT OR IGNORE: idempotent). */
export function recordSessionCandidates(db: SqlWriter, options: { sessionKey: string; agentId: string; ordered: readonly SessionCandidate[]; injected: ReadonlySet<string>; nowIso: string }): number {
  let n = 0;
  options.ordered.forEach((c, rank) => {
    const r = db.run(`INSERT OR IGNORE INTO session_memories (session_key, agent_id, memory_id, source, effective_score, predictor_score, final_score, rank, was_injected, created_ms)
                      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [options.sessionKey, options.agentId, c.memoryId, c.source, c.effectiveScore, c.predictorScore ?? null, c.finalScore, rank, options.injected.has(c.memoryId) ? 1 : 0, Date.parse(options.nowIso)]);
    n += r.changes;
  });
  return n;
}

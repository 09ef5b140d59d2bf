import type { SqlReader } from '../store/storeTypes';

/** Feedback part of the knowledge stats (computed from entity_aspects directly). */
export interface FeedbackKnowledgeStats {
  readonly aspectCount: number;
  /** Distinct aspects whose weight feedback raised in the window (default last 7 days): session evidence ('fts') or a user's action ('user+'). */
  readonly aspectsUpdatedByFeedback: number;
  readonly avgAspectWeight: number;
  readonly aspectsAtMax: number;
  readonly aspectsAtMin: number;
}

const DAY_MS = 86_400_000;
/** Weights within this of a bound count as "at" it (REAL arithmetic). */
const BOUND_EPSILON = 1e-9;
export const FEEDBACK_STATS_WINDOW_DAYS = 7;

export function knowledgeStats(db: SqlReader, options: { agentId: string; nowMs: number; minWeight: number; maxWeight: number; windowDays?: number }): FeedbackKnowledgeStats {
  const row = db.get<{ n: number; avg: number | null; at_max: number | null; at_min: number | null }>(
    'SELECT COUNT(*) AS n, AVG(weight) AS avg, SUM(weight >= ?) AS at_max, SUM(weight <= ?) AS at_min FROM entity_aspects WHERE agent_id = ?',
    [options.maxWeight - BOUND_EPSILON, options.minWeight + BOUND_EPSILON, options.agentId],
  );
  const since = new Date(options.nowMs - (options.windowDays ?? FEEDBACK_STATS_WINDOW_DAYS) * DAY_MS).toISOString();
  const updated = db.get<{ n: number }>("SELECT COUNT(DISTINCT aspect_id) AS n FROM aspect_feedback_log WHERE agent_id = ? AND kind IN ('fts', 'user+') AND created_at >= ?", [options.agentId, since])?.n ?? 0;
  return {
    aspectCount: row?.n ?? 0,
    aspectsUpdatedByFeedback: updated,
    avgAspectWeight: row?.avg ?? 0,
    aspectsAtMax: row?.at_max ?? 0,
    aspectsAtMin: row?.at_min ?? 0,
  };
}

/**
 * Learned use (docs/feedback.md, "Does the loop raise recall?"): a memory that paid off in the
 * sessions that showed it before — used in an answer's own words, 👍, opened (answerUsage.ts,
 * userFeedback.ts; hook evidence for agents) — is lifted, one that was shown and never used (or
 * got 👎) is lowered, by at most ×(1 ± boost). It reads the same session rows the learned ranker
 * trains on, excluding the current session. Off by default: on the replayed development
 * conversations it did not raise recall (bench/feedbackReplay.ts, figures in docs/feedback.md).
 */
import type { SqlReader } from '../store/storeTypes';
import { sqlPlaceholders } from '../store/sqlPlaceholders';
import { applyFactor, sortByScore } from './recallTypes';
import type { Candidate } from './recallTypes';

export interface LearnedUseConfig {
  readonly enabled: boolean;
  /** Largest lift (all past showings paid off) and cut (none did): × (1 ± boost). */
  readonly boost: number;
  /** Past showings a memory needs before its record counts. */
  readonly minShown: number;
}

/** A session row counts as paid off as the predictor reads it (FeedbackConfig.paidOffRelevance default). */
const PAID_OFF_RELEVANCE = 0.5;

/**
 * Rows the session start wrote (sessionCandidates.ts): a hundred memories put into a session's context
 * that no answer showed; unused there is no evidence against them (used there still counts).
 */
const SESSION_START_SOURCES = ['effective', 'ka_traversal', 'ka_traversal_pinned'] as const;

/** Past showings and paid-off showings of each candidate, in sessions other than `excludeSession`. */
export function loadPastUse(db: SqlReader, ids: readonly string[], agentId: string, excludeSession: string | undefined): Map<string, { shown: number; paid: number }> {
  const out = new Map<string, { shown: number; paid: number }>();
  if (!ids.length) return out;
  for (const r of db.all<{ memory_id: string; n: number; paid: number }>(
    `SELECT memory_id, COUNT(*) AS n, SUM(fts_hit_count > 0 OR COALESCE(relevance_score, 0) >= ?) AS paid FROM session_memories
     WHERE memory_id IN (${sqlPlaceholders(ids.length)}) AND agent_id = ? AND session_key <> ?
       AND (source NOT IN (${sqlPlaceholders(SESSION_START_SOURCES.length)}) OR fts_hit_count > 0 OR COALESCE(relevance_score, 0) >= ?) GROUP BY memory_id`,
    [PAID_OFF_RELEVANCE, ...ids, agentId, excludeSession ?? '', ...SESSION_START_SOURCES, PAID_OFF_RELEVANCE])) out.set(r.memory_id, { shown: r.n, paid: r.paid });
  return out;
}

export function applyLearnedUse(cands: Candidate[], past: ReadonlyMap<string, { shown: number; paid: number }>, cfg: LearnedUseConfig): Candidate[] {
  if (!cfg.enabled || cfg.boost <= 0 || past.size === 0) return cands;
  for (const c of cands) {
    const p = past.get(c.id);
    if (!p || p.shown < cfg.minShown) continue;
    const share = p.paid / p.shown;
    applyFactor(c, 'learnedUse', 1 + cfg.boost * (2 * share - 1), `used in ${p.paid} of the ${p.shown} earlier answers that showed it`);
  }
  return sortByScore(cands);
}

import { MemoryError } from '../errors';
import { sqlPlaceholders } from '../store/sqlPlaceholders';
import type { SqlWriter } from '../store/storeTypes';

/**
 * Explicit user actions as feedback (docs/feedback.md): 👍 / 👎 on a chat answer, opening or copying
 * a memory the answer cited, *wrong / outdated*. They are the strongest evidence the loop gets, so
 * they act at once and take precedence over what an answer's words suggested:
 *  - the memory's rows in the session that showed it (or, without a session, in every active
 *    session) become paid off (relevance 1) or not (relevance 0 and no hits): the predictor's
 *    comparison and training at that session's end, and its past-outcome feature later, read them;
 *  - the weights of the aspects of the memory's active attributes move by ±delta at once (clamped,
 *    logged in aspect_feedback_log as kind `user+` / `user-`), so the Knowledge panel shows them.
 * *Wrong / outdated* lowers the aspects itself (captureCorrection.ts); here it only clears the
 * session evidence (action `wrong` moves no weight).
 */
export type UserFeedbackAction = 'helpful' | 'unhelpful' | 'opened' | 'copied' | 'wrong';

export const USER_FEEDBACK_ACTIONS: readonly UserFeedbackAction[] = ['helpful', 'unhelpful', 'opened', 'copied', 'wrong'];

/** +1 for actions that say a memory helped, −1 for those that say it did not. */
export function feedbackSign(action: UserFeedbackAction): 1 | -1 {
  return action === 'unhelpful' || action === 'wrong' ? -1 : 1;
}

export interface UserFeedbackInput {
  readonly memoryIds: readonly string[];
  readonly action: UserFeedbackAction;
  /** The session whose answer showed the memories; without one, every active session that holds them. */
  readonly sessionKey?: string;
}

export interface UserFeedbackResult {
  readonly action: UserFeedbackAction;
  /** Memories of the input that exist. */
  readonly memories: number;
  /** Session rows whose paid-off evidence changed. */
  readonly sessionRows: number;
  readonly aspectsRaised: number;
  readonly aspectsLowered: number;
}

export interface UserFeedbackOptions {
  readonly agentId: string;
  readonly delta: number;
  readonly minWeight: number;
  readonly maxWeight: number;
  readonly nowIso: string;
  /** Weights move only when feedback and the graph are on (evidence is recorded either way). */
  readonly weightsEnabled: boolean;
}

/** Checks an action name from outside (CLI, MCP, a command argument). */
export function parseFeedbackAction(raw: string): UserFeedbackAction {
  const a = raw.trim().toLowerCase();
  if ((USER_FEEDBACK_ACTIONS as readonly string[]).includes(a)) return a as UserFeedbackAction;
  throw new MemoryError('E_INVALID_INPUT', `Unknown feedback action '${raw.slice(0, 40)}': use one of ${USER_FEEDBACK_ACTIONS.join(', ')}.`);
}

export function applyUserFeedback(db: SqlWriter, input: UserFeedbackInput, options: UserFeedbackOptions): UserFeedbackResult {
  const ids = [...new Set(input.memoryIds)].slice(0, 100);
  const empty: UserFeedbackResult = { action: input.action, memories: 0, sessionRows: 0, aspectsRaised: 0, aspectsLowered: 0 };
  if (!ids.length) return empty;
  const known = db.all<{ id: string }>(`SELECT id FROM memories WHERE agent_id = ? AND id IN (${sqlPlaceholders(ids.length)})`, [options.agentId, ...ids]).map((r) => r.id);
  if (!known.length) return empty;
  const sign = feedbackSign(input.action);
  const set = sign > 0 ? 'relevance_score = 1' : 'relevance_score = 0, fts_hit_count = 0';
  const scope = input.sessionKey !== undefined
    ? { sql: 'session_key = ?', args: [input.sessionKey] }
    : { sql: "session_key IN (SELECT session_key FROM sessions WHERE status = 'active' AND agent_id = ?)", args: [options.agentId] };
  let sessionRows = 0;
  for (const id of known) {
    sessionRows += db.run(`UPDATE session_memories SET ${set} WHERE agent_id = ? AND memory_id = ? AND ${scope.sql}`, [options.agentId, id, ...scope.args]).changes;
  }
  let raised = 0, lowered = 0;
  if (options.weightsEnabled && input.action !== 'wrong') {
    const aspects = db.all<{ aspect_id: string }>(
      `SELECT DISTINCT aspect_id FROM entity_attributes WHERE memory_id IN (${sqlPlaceholders(known.length)}) AND +agent_id = ? AND +status = 'active' AND aspect_id IS NOT NULL ORDER BY aspect_id`,
      [...known, options.agentId]);
    for (const { aspect_id } of aspects) {
      const before = db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ? AND agent_id = ?', [aspect_id, options.agentId]);
      if (!before) continue;
      const after = Math.min(options.maxWeight, Math.max(options.minWeight, before.weight + sign * options.delta));
      if (after === before.weight) continue;
      db.run('UPDATE entity_aspects SET weight = ?, updated_at = ? WHERE id = ? AND agent_id = ?', [after, options.nowIso, aspect_id, options.agentId]);
      db.run('INSERT INTO aspect_feedback_log (aspect_id, agent_id, kind, session_key, confirmations, weight_before, weight_after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [aspect_id, options.agentId, sign > 0 ? 'user+' : 'user-', input.sessionKey ?? null, 1, before.weight, after, options.nowIso]);
      if (sign > 0) raised++; else lowered++;
    }
  }
  return { action: input.action, memories: known.length, sessionRows, aspectsRaised: raised, aspectsLowered: lowered };
}

/**
 * Numbers cited as [n] (also [1, 3] and [2][4]) in an answer, mapped to the memories listed under
 * those numbers (1-based); unknown numbers are ignored. The memories a 👍 / 👎 speaks about.
 */
export function citedMemoryIds(answer: string, numbered: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of answer.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)) {
    for (const n of (m[1] as string).split(',')) {
      const id = numbered[Number(n.trim()) - 1];
      if (id !== undefined && !out.includes(id)) out.push(id);
    }
  }
  return out;
}

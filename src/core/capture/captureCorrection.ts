import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import { MemoryError } from '../errors';
import { applyGraphOp, graphContext } from '../graph/graphApply';
import { applyUserFeedback } from '../feedback/userFeedback';
import type { SqlWriter } from '../store/storeTypes';

/**
 * "Wrong / outdated" on a captured memory (the Recently Captured view, docs/agents.md "Seeing and
 * undoing it"): the memory leaves recall but keeps its row (history), its graph attributes are
 * superseded (propagate_memory_status), and the aspects it supported lose weight as negative
 * feedback (logged in aspect_feedback_log with kind `wrong`, like the FTS confirmations that raise
 * them; docs/recall-design.md "Aspect feedback and decay"). Forget (hard delete) is forget.ts.
 */
export interface WrongCaptureOptions {
  /** Weight an aspect loses (the feedback loop's per-confirmation delta). */
  readonly delta: number;
  readonly minWeight: number;
}

export interface WrongCaptureResult {
  readonly changed: boolean;
  readonly aspectsLowered: number;
}

export function markMemoryWrongInTransaction(db: SqlWriter, id: string, clock: Clock, options: WrongCaptureOptions): WrongCaptureResult {
  const row = db.get<{ is_deleted: number; agent_id: string }>('SELECT is_deleted, agent_id FROM memories WHERE id = ?', [id]);
  if (!row) throw new MemoryError('E_NOT_FOUND', `No memory with id ${id}.`);
  if (row.is_deleted) return { changed: false, aspectsLowered: 0 };
  const now = isoFromMs(clock.now());
  const aspects = db.all<{ aspect_id: string }>(
    "SELECT DISTINCT aspect_id FROM entity_attributes WHERE memory_id = ? AND +agent_id = ? AND +status = 'active' AND aspect_id IS NOT NULL ORDER BY aspect_id",
    [id, row.agent_id]);
  let lowered = 0;
  for (const { aspect_id } of aspects) {
    const before = db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ? AND agent_id = ?', [aspect_id, row.agent_id]);
    if (!before) continue;
    const after = Math.max(options.minWeight, before.weight - options.delta);
    if (after === before.weight) continue;
    db.run('UPDATE entity_aspects SET weight = ?, updated_at = ? WHERE id = ? AND agent_id = ?', [after, now, aspect_id, row.agent_id]);
    db.run('INSERT INTO aspect_feedback_log (aspect_id, agent_id, kind, session_key, confirmations, weight_before, weight_after, created_at) VALUES (?, ?, ?, NULL, 0, ?, ?, ?)',
      [aspect_id, row.agent_id, 'wrong', before.weight, after, now]);
    lowered++;
  }
  // The sessions still open that showed it learn it did not pay off (userFeedback.ts, action 'wrong').
  applyUserFeedback(db, { memoryIds: [id], action: 'wrong' }, { agentId: row.agent_id, delta: 0, minWeight: options.minWeight, maxWeight: options.minWeight, nowIso: now, weightsEnabled: false });
  db.run('UPDATE memories SET is_deleted = 1, deleted_at = ?, updated_at = ? WHERE id = ?', [now, now, id]);
  db.run("DELETE FROM memory_jobs WHERE memory_id = ? AND status = 'pending'", [id]);
  applyGraphOp(db, graphContext({ actor: 'user', reason: 'memory marked wrong or outdated', clock, agentId: row.agent_id }), { op: 'propagate_memory_status' });
  return { changed: true, aspectsLowered: lowered };
}

/**
 * A person's answer to a proposed conflict (docs/maintenance.md, "Conflicts"), applied through the
 * graph's audited path (actor `user`):
 * - keep newer: the older memory is superseded by the newer (`supersede_memory`), and so are the
 *   attributes and claims extracted from it;
 * - keep older: whatever the newer memory had superseded of the older is made current again, then
 *   the newer memory is superseded by the older (a person may keep the older one);
 * - both are true: whatever either had superseded of the other is made current again, and the pair,
 *   and pairs of the same two statements, are never proposed again (conflictRecords.ts).
 * Recall reads the same rows, so the answer shows in the next recall.
 */
import { MemoryError } from '../errors';
import { applyGraphOp } from '../graph/graphApply';
import { recordGraphOp } from '../graph/graphAudit';
import type { GraphWriteContext } from '../graph/graphWriteTypes';
import type { SqlWriter } from '../store/storeTypes';
import { CONFLICT_CHOICES, conflictById } from './conflictRecords';
import type { ConflictChoice, ConflictRecord } from './conflictRecords';

export interface ConflictResolution {
  readonly conflict: ConflictRecord;
  readonly choice: ConflictChoice;
  /** Rows made current again (claims and attributes one memory had superseded of the other). */
  readonly restored: number;
  /** Whether a memory was newly marked superseded (false when it already was, e.g. by the extractor). */
  readonly superseded: boolean;
  /** One sentence for the person who answered. */
  readonly message: string;
}

/**
 * Makes current again every claim or attribute of memory `keptId` that a row of memory `otherId`
 * superseded (audited as `attribute_restore`). Returns how many.
 */
export function restoreSupersededBy(db: SqlWriter, ctx: GraphWriteContext, keptId: string, otherId: string): number {
  const rows = db.all<{ id: string }>(
    `SELECT id FROM entity_attributes WHERE memory_id = ? AND status = 'superseded'
       AND superseded_by IN (SELECT id FROM entity_attributes WHERE memory_id = ?)`, [keptId, otherId]);
  for (const r of rows) {
    db.run("UPDATE entity_attributes SET status = 'active', superseded_by = NULL, updated_at = ? WHERE id = ?", [ctx.nowIso, r.id]);
    recordGraphOp(db, ctx, { op: 'attribute_restore', targetKind: 'attribute', targetId: r.id, memoryId: keptId, details: { why: ctx.reason } });
  }
  return rows.length;
}

const snippet = (s: string): string => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return `"${flat.length > 60 ? `${flat.slice(0, 59)}…` : flat}"`;
};

/** Applies a person's answer to the stored conflict `conflictId` in the caller's write transaction. */
export function resolveConflictInTransaction(db: SqlWriter, ctx: GraphWriteContext, conflictId: string, choice: ConflictChoice): ConflictResolution {
  if (!CONFLICT_CHOICES.includes(choice)) throw new MemoryError('E_INVALID_INPUT', `Unknown answer '${String(choice)}': use keep-newer, keep-older or both-true.`);
  const row = db.get<{ status: string; older_id: string; newer_id: string }>('SELECT status, older_id, newer_id FROM memory_conflicts WHERE id = ?', [conflictId]);
  if (!row) throw new MemoryError('E_NOT_FOUND', 'This conflict is no longer listed; run maintenance again to see the current ones.');
  const conflict = conflictById(db, conflictId);
  if (!conflict) throw new MemoryError('E_NOT_FOUND', 'One of the two memories of this conflict was forgotten or deleted; nothing to resolve.');
  if (row.status !== 'open') throw new MemoryError('E_INVALID_INPUT', `This conflict was already resolved (${row.status.replace(/-/g, ' ')}) on ${(conflict.resolvedAt ?? '').slice(0, 10)}.`);
  const { older, newer } = conflict;
  let restored = 0;
  let superseded = false;
  if (choice === 'keep-newer') {
    restored = restoreSupersededBy(db, ctx, newer.id, older.id);
    const r = applyGraphOp(db, ctx, { op: 'supersede_memory', olderId: older.id, newerId: newer.id, why: 'conflict resolved by a person: keep newer', byUser: true });
    superseded = r.op === 'supersede_memory' && r.superseded;
  } else if (choice === 'keep-older') {
    restored = restoreSupersededBy(db, ctx, older.id, newer.id);
    const r = applyGraphOp(db, ctx, { op: 'supersede_memory', olderId: newer.id, newerId: older.id, why: 'conflict resolved by a person: keep older', byUser: true });
    superseded = r.op === 'supersede_memory' && r.superseded;
  } else {
    restored = restoreSupersededBy(db, ctx, older.id, newer.id) + restoreSupersededBy(db, ctx, newer.id, older.id);
  }
  db.run('UPDATE memory_conflicts SET status = ?, resolved_at = ? WHERE id = ?', [choice, ctx.nowIso, conflictId]);
  recordGraphOp(db, ctx, { op: 'conflict_resolve', targetKind: 'memory', targetId: newer.id, memoryId: older.id, details: { conflictId, choice } });
  const message = choice === 'keep-newer'
    ? `Kept the newer memory ${snippet(newer.content)} (${newer.createdAt.slice(0, 10)}); the older one is marked superseded.`
    : choice === 'keep-older'
      ? `Kept the older memory ${snippet(older.content)} (${older.createdAt.slice(0, 10)}); the newer one is marked superseded.`
      : 'Both memories stay current; this pair and copies of the same two statements will not be proposed again.';
  return { conflict: conflictById(db, conflictId) ?? conflict, choice, restored, superseded, message };
}

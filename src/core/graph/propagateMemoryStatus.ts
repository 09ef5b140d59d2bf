import type { SqlWriter } from '../store/storeTypes';
import { recordGraphOp } from './graphAudit';
import type { GraphWriteContext } from './graphWriteTypes';

/**
 * Status propagation: active attributes whose memory is deleted, superseded or
 * gone become superseded (superseded_by left empty). Returns how many changed. The memories table
 * has no separate superseded flag: a memory is retired by soft delete, so "deleted or superseded"
 * is is_deleted = 1, and "gone" is a memory_id with no row (hard delete by forget).
 */
export function propagateMemoryStatus(db: SqlWriter, ctx: GraphWriteContext): number {
  const rows = db.all<{ id: string; memory_id: string }>(
    `SELECT id, memory_id FROM entity_attributes
      WHERE agent_id = ? AND status = 'active' AND memory_id IS NOT NULL
        AND memory_id NOT IN (SELECT id FROM memories WHERE is_deleted = 0)`, [ctx.agentId]);
  for (const r of rows) {
    db.run("UPDATE entity_attributes SET status = 'superseded', updated_at = ? WHERE id = ?", [ctx.nowIso, r.id]);
    recordGraphOp(db, ctx, { op: 'attribute_propagate', targetKind: 'attribute', targetId: r.id, memoryId: r.memory_id, details: { why: 'memory deleted or missing' } });
  }
  return rows.length;
}

import type { SqlReader, SqlWriter } from '../store/storeTypes';
import type { GraphOpRecord, GraphWriteContext } from './graphWriteTypes';

/** Appends one audit row to graph_ops: actor, op, target, memory, reason (in details) and time. */
export function recordGraphOp(db: SqlWriter, ctx: GraphWriteContext, rec: GraphOpRecord): void {
  db.run(
    'INSERT INTO graph_ops (op, target_kind, target_id, memory_id, actor, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [rec.op, rec.targetKind, rec.targetId, rec.memoryId ?? null, ctx.actor, JSON.stringify({ reason: ctx.reason, ...(rec.details ?? {}) }), ctx.nowIso],
  );
}

export interface GraphOpRow {
  readonly op: string;
  readonly targetKind: string;
  readonly targetId: string | null;
  readonly memoryId: string | null;
  readonly actor: string;
  readonly reason: string;
  readonly details: Record<string, unknown>;
  readonly createdAt: string;
}

/**
 * The audit trail in write order (rowid: the order the journal applied the writes; graph_ops has no
 * index on created_at since migration 28), optionally for one target (idx_graph_ops_target_id).
 */
export function listGraphOps(db: SqlReader, filter: { targetId?: string; limit?: number } = {}): GraphOpRow[] {
  const rows = db.all<{ op: string; target_kind: string; target_id: string | null; memory_id: string | null; actor: string; details: string | null; created_at: string }>(
    `SELECT op, target_kind, target_id, memory_id, actor, details, created_at FROM graph_ops
      ${filter.targetId ? 'WHERE target_id = ?' : ''} ORDER BY rowid LIMIT ?`,
    filter.targetId ? [filter.targetId, filter.limit ?? 10_000] : [filter.limit ?? 10_000]);
  return rows.map((r) => {
    let details: Record<string, unknown> = {};
    try { details = r.details ? (JSON.parse(r.details) as Record<string, unknown>) : {}; } catch { details = {}; }
    return { op: r.op, targetKind: r.target_kind, targetId: r.target_id, memoryId: r.memory_id, actor: r.actor,
      reason: typeof details.reason === 'string' ? details.reason : '', details, createdAt: r.created_at };
  });
}

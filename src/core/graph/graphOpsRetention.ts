import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * Retention of the graph audit log (docs/store.md, "What the store keeps"). `graph_ops` gains
 * several rows per extracted memory, so left alone it outgrows the memories themselves. Kept:
 *  - the last GRAPH_OPS_KEPT rows written (by rowid, i.e. write order), whatever they are: recent
 *    history stays queryable with listGraphOps;
 *  - older `relation_create` / `relation_confirm` rows of a memory while their relation exists: they
 *    are the relation's provenance, which forgetting that memory reads (detachMemory.ts). Only op,
 *    target, memory, actor and time are kept of them: their `details` (the reason and confidence of
 *    that observation, ~120 bytes a row) go when they leave the window; nothing reads them there.
 * Everything else is deleted in steps of at least GRAPH_OPS_PRUNE_STEP rows, walking only the
 * rowid range written since the last step (meta `graph_ops_pruned_to`), so the check after each
 * graph write is two indexed lookups.
 */
export const GRAPH_OPS_KEPT = 5_000;
export const GRAPH_OPS_PRUNE_STEP = 500;
const PRUNED_TO_KEY = 'graph_ops_pruned_to';

const LIVE_PROVENANCE = `op IN ('relation_create', 'relation_confirm') AND memory_id IS NOT NULL
  AND EXISTS (SELECT 1 FROM relations r WHERE r.id = graph_ops.target_id)`;

export function graphOpsPrunedTo(db: SqlReader): number {
  const v = db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [PRUNED_TO_KEY])?.value;
  const n = v === undefined ? 0 : Number(v);
  return Number.isFinite(n) ? n : 0;
}

/** Deletes audit rows outside the retention window; returns how many. `force` ignores the step. */
export function compactGraphOps(db: SqlWriter, options: { keep?: number; step?: number; force?: boolean } = {}): number {
  const keep = options.keep ?? GRAPH_OPS_KEPT;
  const max = db.get<{ mx: number | null }>('SELECT MAX(rowid) AS mx FROM graph_ops')?.mx ?? 0;
  const cutoff = max - keep;
  const from = graphOpsPrunedTo(db);
  if (cutoff <= from || (!options.force && cutoff - from < (options.step ?? GRAPH_OPS_PRUNE_STEP))) return 0;
  const deleted = db.run(`DELETE FROM graph_ops WHERE rowid > ? AND rowid <= ? AND NOT (${LIVE_PROVENANCE})`, [from, cutoff]).changes;
  db.run('UPDATE graph_ops SET details = NULL WHERE rowid > ? AND rowid <= ? AND details IS NOT NULL', [from, cutoff]);
  db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [PRUNED_TO_KEY, String(cutoff)]);
  return deleted;
}

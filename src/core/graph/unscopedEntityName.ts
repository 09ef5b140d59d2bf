/**
 * The condition that finds an unscoped entity by canonical name through its unique index,
 * `uq_entities_canonical (agent_id, COALESCE(scope, ''), canonical_name)` (graphSchema.ts). Written
 * as `scope IS NULL AND canonical_name = ?`, the planner cannot match the index's expression and
 * walks every entity of the agent instead (idx_entities_order): an upsert per extracted entity made
 * that linear in the graph's size. `COALESCE(scope, '') = ''` matches the index; `scope IS NULL`
 * keeps the meaning exact (a scope of '' shares the index key but is not unscoped).
 * Follows the caller's `agent_id = ?`; `alias` is the table alias with its dot, e.g. 'e.'.
 */
export function unscopedEntityName(alias = ''): string {
  return `COALESCE(${alias}scope, '') = '' AND ${alias}scope IS NULL AND ${alias}canonical_name = ?`;
}

import type { SqlReader } from '../store/storeTypes';
import { computeEntityHealth, DEFAULT_MIN_COMPARISONS } from './entityHealthCalc';
import type { EntityHealth } from './entityHealthCalc';

/**
 * getEntityHealth: per-entity win rate, margin and trend of the
 * learned ranker against the baseline, from predictor_comparisons rows with a focal entity.
 */
export function getEntityHealth(db: SqlReader, agentId: string, since?: string, minComparisons = DEFAULT_MIN_COMPARISONS): EntityHealth[] {
  const rows = db.all<{ focal_entity_id: string; focal_entity_name: string | null; predictor_won: number; margin: number | null; created_at: string; rowid: number }>(
    `SELECT focal_entity_id, focal_entity_name, predictor_won, margin, created_at, rowid FROM predictor_comparisons
     WHERE agent_id = ? AND focal_entity_id IS NOT NULL AND created_at >= ? ORDER BY focal_entity_id, created_at, rowid`,
    [agentId, since ?? ''],
  );
  return computeEntityHealth(rows.map((r) => ({
    entityId: r.focal_entity_id,
    entityName: r.focal_entity_name ?? r.focal_entity_id,
    won: r.predictor_won !== 0,
    margin: r.margin ?? 0,
    createdAt: r.created_at,
  })), minComparisons);
}

import type { SqlReader } from '../store/storeTypes';

/**
 * Why getEntityHealth returned no entity, in one sentence a person can act on (the CLI's
 * `health --json` puts it in "reason", its text mode prints it). Health needs predictor comparisons
 * with a focal entity, which are written at session end (sessionComparison.ts), and at least
 * `minComparisons` of them for one entity.
 */
export function healthEmptyReason(db: SqlReader, agentId: string, since: string | undefined, minComparisons: number): string {
  const window = since ? ` since ${since}` : '';
  const all = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM predictor_comparisons WHERE agent_id = ?', [agentId])?.n ?? 0;
  if (all === 0) return `No predictor comparisons for agent "${agentId}" yet: they are recorded when a session with recalled memories ends.`;
  const rows = db.all<{ n: number }>(
    `SELECT COUNT(*) AS n FROM predictor_comparisons WHERE agent_id = ? AND focal_entity_id IS NOT NULL AND created_at >= ?
      GROUP BY focal_entity_id ORDER BY n DESC LIMIT 1`, [agentId, since ?? '']);
  const most = rows[0]?.n ?? 0;
  if (most === 0) {
    return since
      ? `No predictor comparison with a focal entity${window}: ${all} comparison${all === 1 ? '' : 's'} in all; try an earlier --since.`
      : `None of the ${all} predictor comparison${all === 1 ? '' : 's'} had a focal entity: entities become focal once memories mention them (or when pinned).`;
  }
  return `No entity has ${minComparisons}+ comparisons${window} yet (the most is ${most}); lower --min to see them.`;
}

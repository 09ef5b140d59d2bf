/**
 * How many session_memories rows the store keeps (docs/store.md "What the store keeps"). Tracked
 * recalls add a row per result and lexical hit of each recall with a session key (~25 per recall),
 * so without a bound the table outgrows the memories themselves and every snapshot rewrites it.
 *
 * Kept: every row of a session whose feedback is not applied yet (its `sessions` row is 'active' or
 * 'ending'), every session the current bookkeeping batch wrote to, and the most recently active
 * other sessions up to `SESSION_MEMORY_ROWS_KEPT` rows. Pruned: whole sessions, least recently
 * active first (latest row time), down to `SESSION_MEMORY_ROWS_PRUNE_TO` so the pruning query does
 * not run on every batch. Those are ended sessions (feedback applied at their end) and session keys
 * that only recall used (no session start, so no session end will ever read them). The predictor's
 * per-memory history (src/core/predictor/candidateSignals.ts) counts the sessions still kept.
 */
import type { SqlWriter } from '../store/storeTypes';

export const SESSION_MEMORY_ROWS_KEPT = 10_000;
export const SESSION_MEMORY_ROWS_PRUNE_TO = 8_000;

/** Prunes old sessions' rows when the table is over the bound; returns the rows deleted. */
export function pruneSessionMemories(w: SqlWriter, keep: ReadonlySet<string>, kept = SESSION_MEMORY_ROWS_KEPT, pruneTo = SESSION_MEMORY_ROWS_PRUNE_TO): number {
  const total = w.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories')?.n ?? 0;
  if (total <= kept) return 0;
  const sessions = w.all<{ session_key: string; n: number }>(
    `SELECT sm.session_key, COUNT(*) AS n FROM session_memories sm
      WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_key = sm.session_key AND s.status <> 'ended')
      GROUP BY sm.session_key ORDER BY MAX(sm.created_ms), sm.session_key`);
  const drop: string[] = [];
  let left = total;
  for (const s of sessions) {
    if (left <= pruneTo) break;
    if (keep.has(s.session_key)) continue;
    drop.push(s.session_key);
    left -= s.n;
  }
  if (drop.length === 0) return 0;
  w.run('DELETE FROM session_memories WHERE session_key IN (SELECT value FROM json_each(?))', [JSON.stringify(drop)]);
  return total - left;
}

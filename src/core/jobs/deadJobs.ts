import { isoFromMs } from '../clock';
import type { SqlWriter } from '../store/storeTypes';

/**
 * Dead-letter handling for memory_jobs.
 * A dead job whose memory is still live is retried from scratch (attempts reset), unless an
 * equivalent job is already pending or leased; a dead job whose memory is deleted or gone can
 * never succeed and is cleared.
 */
export interface DeadJobsOutcome {
  readonly retried: number;
  readonly cleared: number;
}

const ORPHANED = `memory_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = memory_jobs.memory_id AND m.is_deleted = 0)`;
const SUPERSEDED_BY_LIVE_JOB = `EXISTS (SELECT 1 FROM memory_jobs o WHERE o.job_type = memory_jobs.job_type AND o.memory_id IS memory_jobs.memory_id AND o.status IN ('pending', 'leased'))`;

/** Handles at most `limit` dead jobs (oldest first); returns what it did. */
export function retryOrClearDeadJobs(db: SqlWriter, nowMs: number, limit: number): DeadJobsOutcome {
  const ids = db.all<{ id: string }>("SELECT id FROM memory_jobs WHERE status = 'dead' ORDER BY updated_at, id LIMIT ?", [limit]).map((r) => r.id);
  if (ids.length === 0) return { retried: 0, cleared: 0 };
  const inList = `id IN (${ids.map(() => '?').join(', ')})`;
  const cleared = db.run(`DELETE FROM memory_jobs WHERE ${inList} AND (${ORPHANED} OR ${SUPERSEDED_BY_LIVE_JOB})`, ids).changes;
  const now = isoFromMs(nowMs);
  const retried = db.run(
    `UPDATE memory_jobs SET status = 'pending', attempts = 0, error = NULL, failed_at = NULL, next_attempt_at = NULL,
       lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE ${inList} AND status = 'dead'`,
    [now, ...ids],
  ).changes;
  return { retried, cleared };
}

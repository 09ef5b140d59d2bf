import { isoFromMs } from '../clock';
import type { JobsConfig } from '../config/jobsConfig';
import type { SqlReader, SqlWriter } from '../store/storeTypes';
import { isDeadLocalOwner } from './leaseOwner';

/**
 * The memory_jobs queue. Plain functions over a SqlWriter, so a
 * lease, a completion or a failure is one store transaction. Times are ISO strings from the
 * injected clock; they compare correctly as text.
 */
export type JobStatus = 'pending' | 'leased' | 'completed' | 'dead';

/** Job types the write path enqueues. Handlers register by these names. */
export const JOB_TYPES = { embed: 'embed', extract: 'extract', hints: 'hints' } as const;

export interface JobRecord {
  readonly id: string;
  readonly memoryId: string | null;
  readonly type: string;
  readonly status: JobStatus;
  readonly payload: unknown;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly leaseOwner: string | null;
  readonly error: string | null;
}

interface JobRow {
  id: string; memory_id: string | null; job_type: string; status: JobStatus; payload: string | null;
  attempts: number; max_attempts: number; lease_owner: string | null; error: string | null;
}

const COLUMNS = 'id, memory_id, job_type, status, payload, attempts, max_attempts, lease_owner, error';

function toRecord(r: JobRow): JobRecord {
  let payload: unknown = null;
  try { payload = r.payload ? JSON.parse(r.payload) : null; } catch { payload = null; }
  return { id: r.id, memoryId: r.memory_id, type: r.job_type, status: r.status, payload, attempts: r.attempts, maxAttempts: r.max_attempts, leaseOwner: r.lease_owner, error: r.error };
}

export interface EnqueueInput {
  readonly type: string;
  readonly memoryId?: string | null;
  readonly payload?: unknown;
  readonly maxAttempts?: number;
}

/**
 * Enqueues a job unless one of the same type for the same memory is already pending or leased
 * (then that job's id is returned with duplicate: true).
 */
export function enqueueJob(db: SqlWriter, input: EnqueueInput, nowMs: number, newId: () => string, cfg: JobsConfig): { id: string; duplicate: boolean } {
  const memoryId = input.memoryId ?? null;
  const existing = db.get<{ id: string }>(
    "SELECT id FROM memory_jobs WHERE job_type = ? AND memory_id IS ? AND status IN ('pending', 'leased') LIMIT 1", [input.type, memoryId]);
  if (existing) return { id: existing.id, duplicate: true };
  const id = newId();
  const now = isoFromMs(nowMs);
  db.run(
    `INSERT INTO memory_jobs (id, memory_id, job_type, status, payload, attempts, max_attempts, created_at, updated_at)
     VALUES (?, ?, ?, 'pending', ?, 0, ?, ?, ?)`,
    [id, memoryId, input.type, input.payload === undefined ? null : JSON.stringify(input.payload), input.maxAttempts ?? cfg.maxAttempts, now, now]);
  return { id, duplicate: false };
}

/** Retry delay after the n-th failed attempt: base × 2^(n−1), capped (5 s, 10 s, 20 s … 120 s). */
export function backoffMs(attempts: number, cfg: JobsConfig): number {
  return Math.min(cfg.backoffMaxMs, cfg.backoffBaseMs * 2 ** Math.max(0, attempts - 1));
}

/** Owners of leased jobs that are processes of this host that no longer run (see leaseOwner.ts). */
export function deadLeaseOwners(db: SqlReader, isDead: (owner: string) => boolean = isDeadLocalOwner): string[] {
  return db.all<{ lease_owner: string }>("SELECT DISTINCT lease_owner FROM memory_jobs WHERE status = 'leased' AND lease_owner IS NOT NULL")
    .map((r) => r.lease_owner)
    .filter((owner) => isDead(owner));
}

/**
 * Reclaims expired leases and the leases of dead local processes (a crashed, killed or stopped
 * worker's jobs): back to pending, or dead when the crashed run was the last allowed attempt.
 * Returns how many were reclaimed.
 */
export function reclaimExpiredLeases(db: SqlWriter, nowMs: number, isDead: (owner: string) => boolean = isDeadLocalOwner): number {
  const now = isoFromMs(nowMs);
  const deadOwners = deadLeaseOwners(db, isDead);
  const ownerList = deadOwners.map(() => '?').join(', ');
  const reclaimable = deadOwners.length ? `(lease_expires_at < ? OR lease_owner IN (${ownerList}))` : 'lease_expires_at < ?';
  const reason = deadOwners.length ? `CASE WHEN lease_expires_at < ? THEN 'lease expired' ELSE 'lease holder process died' END` : `'lease expired'`;
  const reasonParams = deadOwners.length ? [now] : [];
  const dead = db.run(
    `UPDATE memory_jobs SET status = 'dead', failed_at = ?, error = COALESCE(error, ${reason}), lease_owner = NULL, updated_at = ?
      WHERE status = 'leased' AND ${reclaimable} AND attempts >= max_attempts`, [now, ...reasonParams, now, now, ...deadOwners]);
  const back = db.run(
    `UPDATE memory_jobs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = NULL, updated_at = ?
      WHERE status = 'leased' AND ${reclaimable}`, [now, now, ...deadOwners]);
  return dead.changes + back.changes;
}

/**
 * Whether leaseJobs would find anything to do: a due pending job of these types, or an expired or
 * dead process's lease to reclaim. A read, so an idle worker polls without writing to the journal.
 */
export function hasLeasableWork(db: SqlReader, types: readonly string[], nowMs: number, isDead: (owner: string) => boolean = isDeadLocalOwner): boolean {
  if (!types.length) return false;
  const now = isoFromMs(nowMs);
  const row = db.get<{ one: number }>(
    `SELECT 1 AS one FROM memory_jobs
      WHERE (status = 'pending' AND attempts < max_attempts AND job_type IN (${types.map(() => '?').join(', ')})
             AND (next_attempt_at IS NULL OR next_attempt_at <= ?))
         OR (status = 'leased' AND lease_expires_at < ?)
      LIMIT 1`, [...types, now, now]);
  return row !== undefined || deadLeaseOwners(db, isDead).length > 0;
}

/** Leases up to `limit` ready jobs of the given types, oldest first (after reclaiming expired and dead processes' leases). */
export function leaseJobs(db: SqlWriter, opts: { owner: string; types: readonly string[]; limit: number; nowMs: number; leaseMs: number; isDead?: (owner: string) => boolean }): JobRecord[] {
  if (!opts.types.length || opts.limit <= 0) return [];
  reclaimExpiredLeases(db, opts.nowMs, opts.isDead);
  const now = isoFromMs(opts.nowMs);
  const rows = db.all<JobRow>(
    `SELECT ${COLUMNS} FROM memory_jobs
      WHERE status = 'pending' AND attempts < max_attempts AND job_type IN (${opts.types.map(() => '?').join(', ')})
        AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
      ORDER BY created_at, rowid LIMIT ?`, [...opts.types, now, opts.limit]);
  const expires = isoFromMs(opts.nowMs + opts.leaseMs);
  return rows.map((r) => {
    db.run(
      "UPDATE memory_jobs SET status = 'leased', attempts = attempts + 1, leased_at = ?, lease_owner = ?, lease_expires_at = ?, updated_at = ? WHERE id = ?",
      [now, opts.owner, expires, now, r.id]);
    return toRecord({ ...r, status: 'leased', attempts: r.attempts + 1, lease_owner: opts.owner });
  });
}

/**
 * Retention of finished jobs (docs/store.md, "What the store keeps"). A completed job has done its
 * work (the embedding, the graph rows), so only the most recent ones are kept, to show what ran
 * last; every completion removes the completed rows older than that window. Completed `hints`
 * jobs are kept, one per memory at most: the hints backfill reads them as "this memory has had its
 * hints generated" (src/core/hints/hintsJobs.ts). Dead jobs are kept for diagnosis and for the
 * dead-jobs maintenance task, the most recent DEAD_JOBS_KEPT of them.
 */
export const COMPLETED_JOBS_KEPT = 200;
export const DEAD_JOBS_KEPT = 500;
/** Job types whose completed rows are markers other code reads (never pruned). */
const MARKER_TYPES = [JOB_TYPES.hints];

/**
 * Marks a leased job completed. False when the lease was lost (expired and taken by another worker).
 * `prune: false` leaves the retention prune to a later completion: the worker's batch path prunes
 * once, with the batch's last job, instead of walking the completed window once per job (~9 % of an
 * ingest's main thread at 10k, docs/store.md).
 */
export function completeJob(db: SqlWriter, id: string, owner: string, result: unknown, nowMs: number, prune = true): boolean {
  const now = isoFromMs(nowMs);
  const done = db.run(
    "UPDATE memory_jobs SET status = 'completed', result = ?, completed_at = ?, lease_owner = NULL, lease_expires_at = NULL, error = NULL, updated_at = ? WHERE id = ? AND status = 'leased' AND lease_owner = ?",
    [result === undefined ? null : JSON.stringify(result), now, now, id, owner]).changes > 0;
  if (done && prune) pruneCompletedJobs(db, COMPLETED_JOBS_KEPT);
  return done;
}

/**
 * Deletes completed jobs (marker types excepted) outside the `keep` most recent ones (rows completed in the same millisecond as the oldest kept one go with it). Walks the
 * completed_at index from the newest, so its cost is about `keep` index steps whatever the table
 * size. Returns how many rows it deleted.
 */
export function pruneCompletedJobs(db: SqlWriter, keep: number): number {
  const markers = MARKER_TYPES.map(() => '?').join(', ');
  const cutoff = db.get<{ t: string }>(
    `SELECT completed_at AS t FROM memory_jobs WHERE completed_at IS NOT NULL AND status = 'completed' AND job_type NOT IN (${markers})
      ORDER BY completed_at DESC LIMIT 1 OFFSET ?`, [...MARKER_TYPES, keep]);
  if (!cutoff) return 0;
  return db.run(`DELETE FROM memory_jobs WHERE completed_at <= ? AND status = 'completed' AND job_type NOT IN (${markers})`, [cutoff.t, ...MARKER_TYPES]).changes;
}

/** Deletes dead jobs older than the `keep` most recently failed ones. */
export function pruneDeadJobs(db: SqlWriter, keep: number): number {
  const cutoff = db.get<{ t: string }>(
    "SELECT failed_at AS t FROM memory_jobs WHERE failed_at IS NOT NULL AND status = 'dead' ORDER BY failed_at DESC LIMIT 1 OFFSET ?", [keep]);
  if (!cutoff) return 0;
  return db.run("DELETE FROM memory_jobs WHERE failed_at <= ? AND status = 'dead'", [cutoff.t]).changes;
}

/**
 * Records a failed attempt: back to pending with exponential backoff, or dead once attempts reach
 * max_attempts. Returns the new status, or undefined when the lease was lost.
 */
export function failJob(db: SqlWriter, id: string, owner: string, error: string, nowMs: number, cfg: JobsConfig): JobStatus | undefined {
  const row = db.get<{ attempts: number; max_attempts: number }>("SELECT attempts, max_attempts FROM memory_jobs WHERE id = ? AND status = 'leased' AND lease_owner = ?", [id, owner]);
  if (!row) return undefined;
  const now = isoFromMs(nowMs);
  const dead = row.attempts >= row.max_attempts;
  db.run(
    `UPDATE memory_jobs SET status = ?, error = ?, failed_at = ?, next_attempt_at = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?`,
    [dead ? 'dead' : 'pending', error.slice(0, 2000), now, dead ? null : isoFromMs(nowMs + backoffMs(row.attempts, cfg)), now, id]);
  if (dead) pruneDeadJobs(db, DEAD_JOBS_KEPT);
  return dead ? 'dead' : 'pending';
}

export type JobCounts = Readonly<Record<JobStatus, number>>;

export function countJobs(db: SqlReader, types?: readonly string[]): JobCounts {
  const filter = types?.length ? `WHERE job_type IN (${types.map(() => '?').join(', ')})` : '';
  const rows = db.all<{ status: JobStatus; n: number }>(`SELECT status, COUNT(*) AS n FROM memory_jobs ${filter} GROUP BY status`, types ?? []);
  const counts: Record<JobStatus, number> = { pending: 0, leased: 0, completed: 0, dead: 0 };
  for (const r of rows) if (r.status in counts) counts[r.status] = r.n;
  return counts;
}

export function getJob(db: SqlReader, id: string): JobRecord | undefined {
  const r = db.get<JobRow>(`SELECT ${COLUMNS} FROM memory_jobs WHERE id = ?`, [id]);
  return r ? toRecord(r) : undefined;
}

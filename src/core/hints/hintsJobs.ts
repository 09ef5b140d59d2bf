import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * prospective_index jobs in memory_jobs (seed 000 "Prospective Indexing"; signet-spec §1.4, §2.14):
 * pending → leased → completed, or back to pending with backoff, dead after max_attempts.
 */
export const HINTS_JOB_TYPE = 'prospective_index';
export const HINTS_MAX_ATTEMPTS = 3;
/** Backoff after the n-th failure: min(2^n × 5 s, 120 s) (spec §1.4). */
export function backoffMs(attempts: number): number {
  return Math.min(Math.pow(2, attempts) * 5_000, 120_000);
}

export interface HintsJob {
  readonly id: string;
  readonly memoryId: string;
  readonly agentId: string;
  readonly attempts: number;
}

/** Enqueues a job unless one for the memory is already pending or leased. Returns whether it did. */
export function enqueueHintsJob(db: SqlWriter, memoryId: string, agentId: string, nowIso: string, id: string): boolean {
  if (!db.hasTable('memory_jobs')) return false;
  const open = db.get("SELECT 1 AS found FROM memory_jobs WHERE memory_id = ? AND job_type = ? AND status IN ('pending', 'leased')", [memoryId, HINTS_JOB_TYPE]);
  if (open) return false;
  db.run(`INSERT INTO memory_jobs (id, memory_id, job_type, status, payload, attempts, max_attempts, created_at, updated_at)
          VALUES (?, ?, ?, 'pending', ?, 0, ?, ?, ?)`, [id, memoryId, HINTS_JOB_TYPE, JSON.stringify({ agentId }), HINTS_MAX_ATTEMPTS, nowIso, nowIso]);
  return true;
}

/** Leases the oldest due job (also reclaims leases that expired). */
export function leaseHintsJob(db: SqlWriter, owner: string, nowIso: string, leaseExpiresIso: string): HintsJob | undefined {
  const row = db.get<{ id: string; memory_id: string; payload: string | null; attempts: number }>(
    `SELECT id, memory_id, payload, attempts FROM memory_jobs WHERE job_type = ? AND memory_id IS NOT NULL
       AND ((status = 'pending' AND attempts < max_attempts AND (next_attempt_at IS NULL OR next_attempt_at <= ?))
         OR (status = 'leased' AND lease_expires_at IS NOT NULL AND lease_expires_at < ?))
     ORDER BY created_at, id LIMIT 1`, [HINTS_JOB_TYPE, nowIso, nowIso]);
  if (!row) return undefined;
  db.run("UPDATE memory_jobs SET status = 'leased', attempts = attempts + 1, leased_at = ?, lease_owner = ?, lease_expires_at = ?, updated_at = ? WHERE id = ?",
    [nowIso, owner, leaseExpiresIso, nowIso, row.id]);
  let agentId = 'default';
  try {
    const p = JSON.parse(row.payload ?? '{}') as { agentId?: unknown };
    if (typeof p.agentId === 'string') agentId = p.agentId;
  } catch { /* payload written by someone else: default agent */ }
  return { id: row.id, memoryId: row.memory_id, agentId, attempts: row.attempts + 1 };
}

/** Stores the hints (INSERT OR IGNORE on UNIQUE(memory_id, hint)) and completes the job; returns hints written. */
export function completeHintsJob(db: SqlWriter, job: HintsJob, hints: readonly string[], nowIso: string, newId: () => string): number {
  let written = 0;
  const live = db.get('SELECT 1 AS found FROM memories WHERE id = ? AND is_deleted = 0', [job.memoryId]);
  if (live) {
    for (const h of hints) written += db.run('INSERT OR IGNORE INTO memory_hints (id, memory_id, agent_id, hint, created_at) VALUES (?, ?, ?, ?, ?)', [newId(), job.memoryId, job.agentId, h, nowIso]).changes;
  }
  db.run("UPDATE memory_jobs SET status = 'completed', completed_at = ?, result = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?",
    [nowIso, JSON.stringify({ hints: written }), nowIso, job.id]);
  return written;
}

/** A failure goes back to pending with backoff, or dead once attempts reach the maximum. */
export function failHintsJob(db: SqlWriter, job: HintsJob, error: string, nowMs: number): 'pending' | 'dead' {
  const nowIso = new Date(nowMs).toISOString();
  const dead = job.attempts >= HINTS_MAX_ATTEMPTS;
  db.run(`UPDATE memory_jobs SET status = ?, failed_at = ?, error = ?, next_attempt_at = ?, lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?`,
    [dead ? 'dead' : 'pending', nowIso, error.slice(0, 500), dead ? null : new Date(nowMs + backoffMs(job.attempts)).toISOString(), nowIso, job.id]);
  return dead ? 'dead' : 'pending';
}

export function memoryContent(db: SqlReader, memoryId: string): string | undefined {
  return db.get<{ content: string }>('SELECT content FROM memories WHERE id = ? AND is_deleted = 0', [memoryId])?.content;
}

/** Live memories of the agent with no hints and no open hints job (for the backfill task). */
export function memoriesWithoutHints(db: SqlReader, limit: number, afterId: string): string[] {
  if (!db.hasTable('memory_hints') || !db.hasTable('memory_jobs')) return [];
  return db.all<{ id: string }>(
    `SELECT m.id FROM memories m WHERE m.is_deleted = 0 AND m.id > ?
       AND NOT EXISTS (SELECT 1 FROM memory_hints h WHERE h.memory_id = m.id)
       AND NOT EXISTS (SELECT 1 FROM memory_jobs j WHERE j.memory_id = m.id AND j.job_type = ? AND j.status IN ('pending', 'leased', 'completed'))
     ORDER BY m.id LIMIT ?`, [afterId, HINTS_JOB_TYPE, limit]).map((r) => r.id);
}

import { DEFAULT_REDACTION_CONFIG } from '../config/redactionConfig';
import { redactSecrets } from '../memory/redaction';
import type { JobsConfig } from '../config/jobsConfig';
import { completeJob, enqueueJob, failJob, JOB_TYPES, leaseJobs } from '../jobs/jobQueue';
import type { JobRecord, JobStatus } from '../jobs/jobQueue';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * Prospective-hints jobs (seed 000 "Prospective Indexing"; signet-spec §2.14) on the shared
 * memory_jobs queue (jobs/jobQueue.ts: leasing, backoff, dead-lettering). The job type is the
 * queue's `hints` (the reference's prospective_index), the one the write path enqueues.
 */
export const HINTS_JOB_TYPE = JOB_TYPES.hints;

export interface HintsJob {
  readonly id: string;
  readonly memoryId: string;
  readonly agentId: string;
}

/** Enqueues a job unless one for the memory is already pending or leased. Returns whether it did. */
export function enqueueHintsJob(db: SqlWriter, memoryId: string, agentId: string, nowMs: number, newId: () => string, cfg: JobsConfig): boolean {
  if (!db.hasTable('memory_jobs')) return false;
  return !enqueueJob(db, { type: HINTS_JOB_TYPE, memoryId, payload: { agentId } }, nowMs, newId, cfg).duplicate;
}

function toHintsJob(j: JobRecord): HintsJob | undefined {
  if (!j.memoryId) return undefined;
  const p = j.payload as { agentId?: unknown } | null;
  return { id: j.id, memoryId: j.memoryId, agentId: p && typeof p.agentId === 'string' ? p.agentId : 'default' };
}

/** Leases up to `limit` due hints jobs for `owner`. */
export function leaseHintsJobs(db: SqlWriter, owner: string, limit: number, nowMs: number, leaseMs: number): HintsJob[] {
  if (!db.hasTable('memory_jobs')) return [];
  return leaseJobs(db, { owner, types: [HINTS_JOB_TYPE], limit, nowMs, leaseMs }).map(toHintsJob).filter((j): j is HintsJob => j !== undefined);
}

/** Stores the hints (INSERT OR IGNORE on UNIQUE(memory_id, hint)) and completes the job; returns hints written. */
export function completeHintsJob(db: SqlWriter, job: HintsJob, owner: string, hints: readonly string[], nowMs: number, newId: () => string): number {
  const written = writeHints(db, job.memoryId, job.agentId, hints, nowMs, newId);
  completeJob(db, job.id, owner, { hints: written }, nowMs);
  return written;
}

/** Inserts hints of a live memory (redacted: an LLM wrote them; deduped by UNIQUE(memory_id, hint)); returns how many were new. */
export function writeHints(db: SqlWriter, memoryId: string, agentId: string, hints: readonly string[], nowMs: number, newId: () => string): number {
  let written = 0;
  const nowIso = new Date(nowMs).toISOString();
  if (!db.get('SELECT 1 AS found FROM memories WHERE id = ? AND is_deleted = 0', [memoryId])) return 0;
  for (const h of hints) written += db.run('INSERT OR IGNORE INTO memory_hints (id, memory_id, agent_id, hint, created_at) VALUES (?, ?, ?, ?, ?)', [newId(), memoryId, agentId, redactSecrets(h, DEFAULT_REDACTION_CONFIG).text, nowIso]).changes;
  return written;
}

/** A failure goes back to pending with backoff, or dead once attempts reach the maximum. */
export function failHintsJob(db: SqlWriter, job: HintsJob, owner: string, error: string, nowMs: number, cfg: JobsConfig): JobStatus | undefined {
  return failJob(db, job.id, owner, error, nowMs, cfg);
}

export function memoryContent(db: SqlReader, memoryId: string): string | undefined {
  return db.get<{ content: string }>('SELECT content FROM memories WHERE id = ? AND is_deleted = 0', [memoryId])?.content;
}

/** Live memories with no hints and no open or completed hints job, after `afterId` (backfill task). */
export function memoriesWithoutHints(db: SqlReader, limit: number, afterId: string): string[] {
  if (!db.hasTable('memory_hints') || !db.hasTable('memory_jobs')) return [];
  return db.all<{ id: string }>(
    `SELECT m.id FROM memories m WHERE m.is_deleted = 0 AND m.id > ?
       AND NOT EXISTS (SELECT 1 FROM memory_hints h WHERE h.memory_id = m.id)
       AND NOT EXISTS (SELECT 1 FROM memory_jobs j WHERE j.memory_id = m.id AND j.job_type = ? AND j.status IN ('pending', 'leased', 'completed'))
     ORDER BY m.id LIMIT ?`, [afterId, HINTS_JOB_TYPE, limit]).map((r) => r.id);
}

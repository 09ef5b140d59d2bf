import { DEFAULT_REDACTION_CONFIG } from '../config/redactionConfig';
import { redactSecrets } from '../memory/redaction';
import type { JobsConfig } from '../config/jobsConfig';
import { enqueueJob, JOB_TYPES } from '../jobs/jobQueue';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * Prospective-hints jobs (docs/recall-design.md, "Prospective hints") on the shared
 * memory_jobs queue (jobs/jobQueue.ts: leasing, backoff, dead-lettering). The job type is the
 * queue's `hints` (the reference's prospective_index), the one the write path enqueues.
 */
export const HINTS_JOB_TYPE = JOB_TYPES.hints;

/** Enqueues a job unless one for the memory is already pending or leased. Returns whether it did. */
export function enqueueHintsJob(db: SqlWriter, memoryId: string, agentId: string, nowMs: number, newId: () => string, cfg: JobsConfig): boolean {
  return !enqueueJob(db, { type: HINTS_JOB_TYPE, memoryId, payload: { agentId } }, nowMs, newId, cfg).duplicate;
}

/** Inserts hints of a live memory (redacted: an LLM wrote them; deduped by UNIQUE(memory_id, hint)); returns how many were new. */
export function writeHints(db: SqlWriter, memoryId: string, agentId: string, hints: readonly string[], nowMs: number): number {
  let written = 0;
  const nowIso = new Date(nowMs).toISOString();
  if (!db.get('SELECT 1 AS found FROM memories WHERE id = ? AND is_deleted = 0', [memoryId])) return 0;
  for (const h of hints) written += db.run('INSERT OR IGNORE INTO memory_hints (memory_id, agent_id, hint, created_at) VALUES (?, ?, ?, ?)', [memoryId, agentId, redactSecrets(h, DEFAULT_REDACTION_CONFIG).text, nowIso]).changes;
  return written;
}

export function memoryContent(db: SqlReader, memoryId: string): string | undefined {
  return db.get<{ content: string }>('SELECT content FROM memories WHERE id = ? AND is_deleted = 0', [memoryId])?.content;
}

/** Live memories with no hints and no open or completed hints job, after `afterId` (backfill task). */
export function memoriesWithoutHints(db: SqlReader, limit: number, afterId: string): string[] {
  return db.all<{ id: string }>(
    `SELECT m.id FROM memories m WHERE m.is_deleted = 0 AND m.id > ?
       AND NOT EXISTS (SELECT 1 FROM memory_hints h WHERE h.memory_id = m.id)
       AND NOT EXISTS (SELECT 1 FROM memory_jobs j WHERE j.memory_id = m.id AND j.job_type = ? AND j.status IN ('pending', 'leased', 'completed'))
     ORDER BY m.id LIMIT ?`, [afterId, HINTS_JOB_TYPE, limit]).map((r) => r.id);
}

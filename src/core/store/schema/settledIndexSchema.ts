/**
 * Migration 32: two partial indexes for the ingest path (docs/store.md, "Ingest throughput").
 *
 * - `idx_memories_settled_created`: the memories whose extraction is not waiting
 *   (`extraction_status` other than 'pending'), by time. The memory-level supersession scan of an
 *   extract job (extraction/memorySupersessionScan.ts) asks whether a NEWER memory has already been
 *   through its own scan (or never will be); only then can a pair in which the job's memory is the
 *   older side have been missed. During a bulk ingest every newer memory is still pending, so the
 *   answer is "no" at once and the job skips a full-text query that scored every row holding a
 *   common word (most of an ingest's CPU at 10k). One entry per settled memory: its created_at.
 * - `idx_memory_jobs_pending`: pending jobs by type and age, so leasing the oldest jobs of one type
 *   (jobs/jobQueue.ts leaseJobs; the worker leases each batch type on its own) reads them in order
 *   instead of sorting every pending job of the queue at each lease. Empty when nothing waits.
 */
import type { Migration } from '../migrations';

export const SETTLED_INDEX_MIGRATION_VERSION = 32;
export const SETTLED_INDEX = 'idx_memories_settled_created';

export const SETTLED_INDEX_MIGRATION: Migration = {
  version: SETTLED_INDEX_MIGRATION_VERSION,
  name: 'memories: settled extraction by time; memory_jobs: pending by type and age (ingest path)',
  up(db) {
    db.run(`CREATE INDEX IF NOT EXISTS ${SETTLED_INDEX} ON memories(created_at) WHERE extraction_status <> 'pending'`);
    db.run("CREATE INDEX IF NOT EXISTS idx_memory_jobs_pending ON memory_jobs(job_type, created_at) WHERE status = 'pending'");
  },
};

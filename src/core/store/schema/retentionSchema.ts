/**
 * Migration 25: applies the store's retention once to stores written before it existed
 * (docs/store.md, "What the store keeps"): completed jobs beyond the most recent ones (hints markers
 * excepted), dead jobs beyond the most recent ones, and graph_ops rows outside the audit window.
 * From then on the same rules run as jobs complete and graph writes happen. Nothing of the schema
 * changes, so it is a plain journaled write of DELETEs other processes replay.
 */
import { compactGraphOps } from '../../graph/graphOpsRetention';
import { COMPLETED_JOBS_KEPT, DEAD_JOBS_KEPT, pruneCompletedJobs, pruneDeadJobs } from '../../jobs/jobQueue';
import type { Migration } from '../migrations';

export const RETENTION_MIGRATION_VERSION = 25;

export const RETENTION_MIGRATION: Migration = {
  version: RETENTION_MIGRATION_VERSION,
  name: 'retention: prune completed and dead memory_jobs, compact graph_ops to its audit window',
  up(db) {
    if (db.hasTable('memory_jobs')) {
      pruneCompletedJobs(db, COMPLETED_JOBS_KEPT);
      pruneDeadJobs(db, DEAD_JOBS_KEPT);
    }
    compactGraphOps(db, { force: true });
  },
};

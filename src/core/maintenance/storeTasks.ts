import { retryOrClearDeadJobs } from '../jobs/deadJobs';
import { checkIntegrity, driftedFtsIndexes, rebuildFtsIndexes } from '../store/storeChecks';
import type { MaintenanceTask, StepResult } from './maintenanceTypes';

/**
 * Maintenance tasks over the store and the job queue: dead jobs, FTS indexes, integrity.
 * Each is one or more short transactions, so recall keeps working while they run.
 */

/** Retries dead jobs whose memory is live; clears the ones that can never succeed. Batched. */
export function deadJobsTask(batchSize: number): MaintenanceTask {
  return {
    id: 'retry-dead-jobs',
    title: 'Retry or clear dead jobs',
    async step(ctx): Promise<StepResult> {
      const nowMs = ctx.clock.now();
      const { retried, cleared } = await ctx.store.write('maintenance:dead-jobs', (db) => retryOrClearDeadJobs(db, nowMs, batchSize));
      const processed = retried + cleared;
      return { cursor: processed >= batchSize ? 'more' : null, processed, summary: { jobsRetried: retried, jobsCleared: cleared } };
    },
  };
}

/** Rebuilds the FTS indexes whose document count drifted from their content table. */
export function rebuildFtsTask(): MaintenanceTask {
  return {
    id: 'rebuild-fts',
    title: 'Rebuild full-text indexes that drifted',
    async step(ctx): Promise<StepResult> {
      const drifted = ctx.store.read((db) => driftedFtsIndexes(db));
      if (drifted.length === 0) return { cursor: null, processed: 0, summary: { indexesRebuilt: 0, note: 'every index matches its table' } };
      const rebuilt = await ctx.store.write('maintenance:rebuild-fts', (db) => rebuildFtsIndexes(db, drifted));
      ctx.logger.info(`Maintenance rebuilt full-text indexes: ${rebuilt.join(', ')}`);
      return { cursor: null, processed: rebuilt.length, summary: { indexesRebuilt: rebuilt.length, rebuilt: rebuilt.join(', ') } };
    },
  };
}

/** SQLite's integrity check (pages, indexes, FTS5), foreign keys, and rows pointing at missing memories. Read-only. */
export function integrityCheckTask(): MaintenanceTask {
  return {
    id: 'integrity-check',
    title: 'Check store integrity',
    async step(ctx): Promise<StepResult> {
      const report = ctx.store.read((db) => checkIntegrity(db));
      const orphans = Object.values(report.orphans).reduce((a, b) => a + b, 0);
      if (!report.ok) ctx.logger.warn(`Integrity check found problems: ${JSON.stringify(report)}`);
      return {
        cursor: null,
        processed: 1,
        summary: {
          result: report.ok ? 'ok' : 'problems found',
          sqliteProblems: report.sqliteProblems.length,
          foreignKeyViolations: report.foreignKeyViolations,
          orphanRows: orphans,
          ...(report.sqliteProblems[0] ? { firstProblem: report.sqliteProblems[0] } : {}),
        },
      };
    },
  };
}

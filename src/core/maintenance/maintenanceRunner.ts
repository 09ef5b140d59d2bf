import { userMessage } from '../errors';
import type { ProgressReporter } from '../hostContext';
import { noProgress } from '../hostContext';
import type { MaintenanceReport, MaintenanceTask, MaintenanceTaskContext, SummaryValue, TaskReport } from './maintenanceTypes';
import { mergeSummary } from './maintenanceTypes';

/** Steps one task runs at most per invocation (a guard against a task that never finishes). */
export const MAX_STEPS_PER_TASK = 100_000;

interface RunRow { id: string; cursor: string | null; processed: number; total: number | null; summary: string | null }

function parseSummary(text: string | null): Record<string, SummaryValue> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, SummaryValue>) : {};
  } catch {
    return {};
  }
}

/** Runs one task to completion (or cancellation), resuming an interrupted run of it. */
export async function runTask(task: MaintenanceTask, ctx: MaintenanceTaskContext, runId: string, newId: () => string, progress: ProgressReporter = noProgress, afterStep?: () => Promise<void>): Promise<TaskReport> {
  const { store, clock } = ctx;
  const iso = (): string => new Date(clock.now()).toISOString();
  const prior = store.read((db) => db.get<RunRow>("SELECT id, cursor, processed, total, summary FROM maintenance_runs WHERE task = ? AND status = 'running' ORDER BY started_at DESC LIMIT 1", [task.id]));
  const rowId = prior?.id ?? newId();
  let cursor = prior?.cursor ?? null;
  let processed = prior?.processed ?? 0;
  let total = prior?.total ?? null;
  let summary = parseSummary(prior?.summary ?? null);
  const persist = async (status: string, error?: string): Promise<void> => {
    await store.write('maintenance', (db) => {
      const now = iso();
      const done = status === 'running' ? null : now;
      if (!db.get('SELECT 1 AS found FROM maintenance_runs WHERE id = ?', [rowId])) {
        db.run('INSERT INTO maintenance_runs (id, run_id, task, status, cursor, processed, total, summary, error, started_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [rowId, runId, task.id, status, cursor, processed, total, JSON.stringify(summary), error ?? null, now, now, done]);
      } else {
        db.run('UPDATE maintenance_runs SET run_id = ?, status = ?, cursor = ?, processed = ?, total = ?, summary = ?, error = ?, updated_at = ?, finished_at = ? WHERE id = ?',
          [runId, status, cursor, processed, total, JSON.stringify(summary), error ?? null, now, done, rowId]);
      }
    });
  };
  await persist('running');
  progress.report({ message: `${task.title}…` });
  try {
    for (let i = 0; i < MAX_STEPS_PER_TASK; i++) {
      if (ctx.signal?.aborted) {
        // the row stays 'running' with its cursor: the next run resumes here
        return { task: task.id, title: task.title, status: 'cancelled', resumed: prior !== undefined, processed, total, summary };
      }
      const r = await task.step(ctx, cursor);
      cursor = r.cursor;
      processed += r.processed;
      if (r.total !== undefined) total = r.total;
      summary = mergeSummary(summary, r.summary);
      await persist(cursor === null ? 'completed' : 'running');
      progress.report({ message: `${task.title}: ${processed}${total !== null ? `/${total}` : ''}` });
      if (cursor === null) break;
      await afterStep?.();
    }
    return { task: task.id, title: task.title, status: 'completed', resumed: prior !== undefined, processed, total, summary };
  } catch (e) {
    const error = userMessage(e);
    ctx.logger.warn(`maintenance ${task.id}: ${error}`);
    cursor = null;
    await persist('failed', error);
    return { task: task.id, title: task.title, status: 'failed', resumed: prior !== undefined, processed, total, summary, error };
  }
}

/** Runs the named tasks (all when `taskIds` is empty) in registry order; one report for the run. */
export async function runMaintenance(registry: readonly MaintenanceTask[], taskIds: readonly string[], ctx: MaintenanceTaskContext, options: { runId: string; newId: () => string; progress?: ProgressReporter; afterStep?: () => Promise<void> }): Promise<MaintenanceReport> {
  const startedAt = new Date(ctx.clock.now()).toISOString();
  const wanted = new Set(taskIds);
  const unknownTasks = taskIds.filter((t) => !registry.some((r) => r.id === t));
  const selected = taskIds.length ? registry.filter((t) => wanted.has(t.id)) : [...registry];
  const tasks: TaskReport[] = [];
  for (const t of selected) {
    if (ctx.signal?.aborted) break;
    tasks.push(await runTask(t, { ...ctx, runId: options.runId }, options.runId, options.newId, options.progress, options.afterStep));
    await options.afterStep?.();
  }
  return { runId: options.runId, startedAt, finishedAt: new Date(ctx.clock.now()).toISOString(), tasks, unknownTasks };
}

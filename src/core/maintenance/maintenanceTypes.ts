import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { MemoryStore } from '../store/storeTypes';

/**
 * A maintenance task works in steps; after each step the runner persists the cursor, progress and
 * summary in maintenance_runs, so an interrupted run resumes from the last step.
 */
export type SummaryValue = number | string;

export interface StepResult {
  /** Where the next step starts; null when the task is done. */
  readonly cursor: string | null;
  /** Items handled by this step. */
  readonly processed: number;
  /** Total items, when known. */
  readonly total?: number;
  /** What the step did: numbers are added up across steps, strings replace. */
  readonly summary: Readonly<Record<string, SummaryValue>>;
}

export interface MaintenanceTaskContext {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
  /** The run this step belongs to (its changes are logged under it: maintenanceUndo.ts). */
  readonly runId?: string;
}

export interface MaintenanceTask {
  /** Stable id used on the CLI (`maintain decay-aspects`). */
  readonly id: string;
  readonly title: string;
  step(ctx: MaintenanceTaskContext, cursor: string | null): Promise<StepResult>;
}

export interface TaskReport {
  readonly task: string;
  readonly title: string;
  readonly status: 'completed' | 'failed' | 'cancelled';
  /** True when the task continued an interrupted earlier run. */
  readonly resumed: boolean;
  readonly processed: number;
  readonly total: number | null;
  readonly summary: Readonly<Record<string, SummaryValue>>;
  readonly error?: string;
}

export interface MaintenanceReport {
  readonly runId: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly tasks: readonly TaskReport[];
  /** Tasks asked for that the registry does not hold. */
  readonly unknownTasks: readonly string[];
}

export function mergeSummary(into: Record<string, SummaryValue>, add: Readonly<Record<string, SummaryValue>>): Record<string, SummaryValue> {
  const out = { ...into };
  for (const [k, v] of Object.entries(add)) {
    const prev = out[k];
    out[k] = typeof v === 'number' && typeof prev === 'number' ? prev + v : v;
  }
  return out;
}

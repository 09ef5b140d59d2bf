/** Maintenance runs. */
export interface MaintenanceConfig {
  /** Scheduled "run all" on/off. */
  readonly scheduleEnabled: boolean;
  /** Interval of scheduled runs in ms (default daily). */
  readonly intervalMs: number;
  /** How long a window holds the run lease before another may take over (ms). */
  readonly leaseMs: number;
  /** Dead jobs younger than this are retried; older ones are cleared (ms). */
  readonly deadJobRetryWindowMs: number;
  /** Items a task handles per step, so progress is reported and a run can resume. */
  readonly batchSize: number;
}

export const DEFAULT_MAINTENANCE_CONFIG: MaintenanceConfig = {
  scheduleEnabled: true,
  intervalMs: 24 * 3_600_000,
  leaseMs: 30 * 60_000,
  deadJobRetryWindowMs: 7 * 24 * 3_600_000,
  batchSize: 200,
};

function num(v: unknown, def: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.round(Math.min(max, Math.max(min, v))) : def;
}

export function resolveMaintenanceConfig(partial: Partial<MaintenanceConfig> = {}): MaintenanceConfig {
  const d = DEFAULT_MAINTENANCE_CONFIG;
  return {
    scheduleEnabled: typeof partial.scheduleEnabled === 'boolean' ? partial.scheduleEnabled : d.scheduleEnabled,
    intervalMs: num(partial.intervalMs, d.intervalMs, 60_000, 30 * 24 * 3_600_000),
    leaseMs: num(partial.leaseMs, d.leaseMs, 60_000, 24 * 3_600_000),
    deadJobRetryWindowMs: num(partial.deadJobRetryWindowMs, d.deadJobRetryWindowMs, 0, 365 * 24 * 3_600_000),
    batchSize: num(partial.batchSize, d.batchSize, 1, 10_000),
  };
}

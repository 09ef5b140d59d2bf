import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { MaintenanceConfig } from '../config/maintenanceConfig';
import { MemoryError, userMessage } from '../errors';
import type { ProgressReporter } from '../hostContext';
import type { Logger } from '../logger';
import type { MemoryStore } from '../store/storeTypes';
import { acquireLease, lastScheduledRunMs, releaseLease } from './maintenanceLease';
import { runMaintenance } from './maintenanceRunner';
import type { MaintenanceReport, MaintenanceTask } from './maintenanceTypes';

/**
 * Manual and scheduled maintenance runs over a registry. Every run holds the store-wide lease, so
 * two windows (or a window and the CLI) never run maintenance at the same time; a scheduled run
 * happens when the last one is older than the interval (default daily).
 */
export class MaintenanceService {
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly owner: string;
  private abort: AbortController | undefined;

  constructor(private readonly deps: { store: MemoryStore; clock: Clock; logger: Logger; config: MaintenanceConfig; registry: readonly MaintenanceTask[]; owner?: string; newId?: () => string }) {
    this.owner = deps.owner ?? randomUUID();
  }

  tasks(): readonly { id: string; title: string }[] {
    return this.deps.registry.map((t) => ({ id: t.id, title: t.title }));
  }

  /** Runs the named tasks (all when none are named). Throws E_STORE_LOCKED when another window is running maintenance. */
  async run(taskIds: readonly string[] = [], options: { progress?: ProgressReporter; scheduled?: boolean } = {}): Promise<MaintenanceReport> {
    const unknown = taskIds.filter((t) => !this.deps.registry.some((r) => r.id === t));
    if (unknown.length) throw new MemoryError('E_USAGE', `Unknown maintenance task(s): ${unknown.join(', ')}. Known: ${this.deps.registry.map((r) => r.id).join(', ')}.`);
    const { store, clock, config } = this.deps;
    const got = await store.write('maintenance-lease', (db) => acquireLease(db, this.owner, clock.now(), config.leaseMs));
    if (!got) throw new MemoryError('E_STORE_LOCKED', 'Maintenance is already running in another window; try again later.');
    this.abort = new AbortController();
    try {
      const newId = this.deps.newId ?? randomUUID;
      return await runMaintenance(this.deps.registry, taskIds, { store, clock, logger: this.deps.logger, signal: this.abort.signal }, {
        runId: `${options.scheduled ? 'scheduled' : 'manual'}:${newId()}`, newId, ...(options.progress ? { progress: options.progress } : {}),
        // a long run keeps its lease alive between steps, so no other window takes over meanwhile
        afterStep: async () => { await store.write('maintenance-lease', (db) => acquireLease(db, this.owner, clock.now(), config.leaseMs)); },
      });
    } finally {
      this.abort = undefined;
      await store.write('maintenance-lease', (db) => releaseLease(db, this.owner));
    }
  }

  /** Runs everything when a scheduled run is due and no other window holds the lease; undefined otherwise. */
  async runIfDue(): Promise<MaintenanceReport | undefined> {
    const { store, clock, config } = this.deps;
    if (!config.scheduleEnabled) return undefined;
    const last = store.read((db) => lastScheduledRunMs(db));
    if (last && clock.now() - last < config.intervalMs) return undefined;
    try {
      return await this.run([], { scheduled: true });
    } catch (e) {
      if (e instanceof MemoryError && e.code === 'E_STORE_LOCKED') return undefined;
      throw e;
    }
  }

  /** Checks hourly (at most) whether a scheduled run is due. */
  startSchedule(checkEveryMs = Math.min(3_600_000, this.deps.config.intervalMs)): void {
    if (this.timer || !this.deps.config.scheduleEnabled) return;
    this.timer = setInterval(() => { void this.runIfDue().catch((e: unknown) => this.deps.logger.warn(`scheduled maintenance: ${userMessage(e)}`)); }, checkEveryMs);
    this.timer.unref?.();
  }

  /** Stops the schedule and cancels a running task between steps (its row stays resumable). */
  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.abort?.abort();
  }
}

import type { Clock } from '../clock';
import { DEFAULT_SHUTDOWN_GRACE_MS } from '../config/jobsConfig';
import type { JobsConfig } from '../config/jobsConfig';
import { userMessage } from '../errors';
import type { ProgressReporter } from '../hostContext';
import { noProgress } from '../hostContext';
import type { Logger } from '../logger';
import type { MemoryStore, SqlWriter } from '../store/storeTypes';
import { completeJob, countJobs, failJob, hasLeasableWork, leaseJobs } from './jobQueue';
import type { JobRecord } from './jobQueue';
import { localLeaseOwner } from './leaseOwner';

/** What a handler gets besides the job: the store, and a signal that fires on shutdown. */
export interface JobContext {
  readonly store: MemoryStore;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly clock: Clock;
}

export interface JobHandler {
  readonly type: string;
  /** Does the work; the resolved value is stored as the job result. Throwing schedules a retry. */
  run(job: JobRecord, ctx: JobContext): Promise<unknown>;
  /** Called in the same transaction that marks the job dead (e.g. mark the memory's extraction failed). */
  onDead?(db: SqlWriter, job: JobRecord, nowIso: string): void;
}

export interface JobWorkerOptions {
  readonly store: MemoryStore;
  readonly handlers: readonly JobHandler[];
  readonly config: JobsConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly progress?: ProgressReporter;
  /** Lease owner id; defaults to a random one per worker naming this host and pid (leaseOwner.ts). */
  readonly owner?: string;
  /** Longest stop() waits for running handlers (default DEFAULT_SHUTDOWN_GRACE_MS). */
  readonly shutdownGraceMs?: number;
}

export interface DrainStats {
  completed: number;
  retried: number;
  dead: number;
}

/**
 * Runs queued jobs with bounded concurrency. `drain()` works until no job is ready (used by the
 * CLI and tests); `start()` keeps polling; `stop()` stops leasing, aborts running handlers'
 * signal and waits for them to settle, so shutdown never leaves a half-recorded job (an
 * interrupted job's lease simply expires and another worker reclaims it).
 */
export class JobWorker {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly owner: string;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Jobs this worker completed (completed rows are pruned, so the table cannot say). */
  private done = 0;

  constructor(private readonly opts: JobWorkerOptions) {
    for (const h of opts.handlers) this.handlers.set(h.type, h);
    this.owner = opts.owner ?? localLeaseOwner('worker');
  }

  get types(): string[] { return [...this.handlers.keys()]; }

  /** Processes jobs until none of this worker's types is ready; returns what happened. */
  async drain(): Promise<DrainStats> {
    const stats: DrainStats = { completed: 0, retried: 0, dead: 0 };
    const running = new Set<Promise<void>>();
    for (;;) {
      const free = this.opts.config.concurrency - running.size;
      const jobs = !this.stopping && free > 0 ? await this.lease(free) : [];
      for (const job of jobs) {
        const p: Promise<void> = this.execute(job, stats).finally(() => { running.delete(p); this.inFlight.delete(p); });
        running.add(p);
        this.inFlight.add(p);
      }
      if (running.size === 0) return stats;
      await Promise.race(running);
    }
  }

  /** Starts the polling loop (idempotent). */
  start(): void {
    if (this.loop || this.stopping) return;
    this.loop = (async () => {
      while (!this.stopping) {
        try { await this.drain(); } catch (e) { this.opts.logger.error(`job worker: ${userMessage(e)}`); }
        if (this.stopping) break;
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.opts.config.pollMs);
          this.wake = () => { clearTimeout(t); resolve(); };
        });
        this.wake = undefined;
      }
    })();
  }

  /** Wakes an idle polling loop now (e.g. right after remember() enqueued work). */
  poke(): void { this.wake?.(); }

  /**
   * Stops leasing, signals running handlers and waits for them and the loop to finish — at most
   * the shutdown grace; a handler that ignores the signal keeps its lease until it expires.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.wake?.();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => { timer = setTimeout(resolve, this.opts.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS); });
    try {
      await Promise.race([Promise.all([this.loop, ...this.inFlight]).then(() => undefined), grace]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async lease(limit: number): Promise<JobRecord[]> {
    const types = this.types;
    // Idle polls only read: a lease transaction is journaled and replayed by every other process.
    if (!this.opts.store.read((db) => hasLeasableWork(db, types, this.opts.clock.now()))) return [];
    return this.opts.store.write('jobs.lease', (db) =>
      leaseJobs(db, { owner: this.owner, types, limit, nowMs: this.opts.clock.now(), leaseMs: this.opts.config.leaseMs }));
  }

  private async execute(job: JobRecord, stats: DrainStats): Promise<void> {
    const handler = this.handlers.get(job.type);
    const ctx: JobContext = { store: this.opts.store, signal: this.abort.signal, logger: this.opts.logger, clock: this.opts.clock };
    let result: unknown;
    let failure: unknown;
    try {
      if (!handler) throw new Error(`no handler for job type ${job.type}`);
      result = await handler.run(job, ctx);
    } catch (e) {
      failure = e;
    }
    try {
      if (failure === undefined) {
        await this.opts.store.write('jobs.complete', (db) => completeJob(db, job.id, this.owner, result ?? null, this.opts.clock.now()));
        stats.completed++;
        this.done++;
      } else {
        const message = userMessage(failure);
        const status = await this.opts.store.write('jobs.fail', (db) => {
          const s = failJob(db, job.id, this.owner, message, this.opts.clock.now(), this.opts.config);
          if (s === 'dead') handler?.onDead?.(db, job, new Date(this.opts.clock.now()).toISOString());
          return s;
        });
        if (status === 'dead') { stats.dead++; this.opts.logger.warn(`job ${job.type} ${job.id} is dead after ${job.attempts} attempts: ${message}`); }
        else { stats.retried++; this.opts.logger.debug(`job ${job.type} ${job.id} failed (attempt ${job.attempts}), will retry: ${message}`); }
      }
    } catch (e) {
      this.opts.logger.error(`job ${job.id}: could not record the outcome: ${userMessage(e)}`);
    }
    this.report();
  }

  private report(): void {
    const progress = this.opts.progress ?? noProgress;
    if (progress === noProgress) return;
    const c = this.opts.store.read((db) => countJobs(db, this.types));
    progress.report({ message: `${this.done} done, ${c.pending + c.leased} left${c.dead ? `, ${c.dead} failed` : ''}` });
  }
}

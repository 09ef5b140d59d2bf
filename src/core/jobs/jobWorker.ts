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

/**
 * What a batch handler made of one job: a write to commit together with the job's completion (its
 * return value is the job result), or the error that fails the attempt.
 */
export type JobOutcome = { readonly apply: (db: SqlWriter) => unknown } | { readonly error: unknown };

export interface JobHandler {
  readonly type: string;
  /** Does the work; the resolved value is stored as the job result. Throwing schedules a retry. */
  run(job: JobRecord, ctx: JobContext): Promise<unknown>;
  /**
   * Optional batch form (one outcome per job, in order). The worker leases up to
   * `JobsConfig.batchSize` jobs of this type in one write, calls this once (the embedder embeds
   * them in one call), and commits every outcome's write with its job's completion in one
   * transaction each, all in one lock hold and fsync (docs/store.md, "Write"). A job whose lease
   * was lost meanwhile has its write rolled back, so nothing is written twice.
   */
  runBatch?(jobs: readonly JobRecord[], ctx: JobContext): Promise<readonly JobOutcome[]>;
  /** Called in the same transaction that marks the job dead (e.g. mark the memory's extraction failed). */
  onDead?(db: SqlWriter, job: JobRecord, nowIso: string): void;
}

/** Batches of one type in flight at once (drain()). */
const BATCHES_IN_FLIGHT = 2;
/** Least time between two progress counts (report()). */
const PROGRESS_EVERY_MS = 250;

/** Thrown inside a completion write whose lease was lost, to roll back the job's own write. */
class LeaseLost extends Error {}

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
  /** When progress was last counted (performance.now()), and the last message reported. */
  private reportedAt = -Infinity;
  private reported = '';

  constructor(private readonly opts: JobWorkerOptions) {
    for (const h of opts.handlers) this.handlers.set(h.type, h);
    this.owner = opts.owner ?? localLeaseOwner('worker');
  }

  get types(): string[] { return [...this.handlers.keys()]; }

  /**
   * Processes jobs until none of this worker's types is ready; returns what happened. Each type
   * with a batch handler has up to BATCHES_IN_FLIGHT batches in flight, leased as earlier ones
   * finish whatever the other types do: the embedding (in its worker thread) and the extraction (on
   * this thread) of an ingest overlap instead of waiting for each other every round, and the embed
   * worker has its next batch while the previous one's vectors are being written.
   */
  async drain(): Promise<DrainStats> {
    const stats: DrainStats = { completed: 0, retried: 0, dead: 0 };
    const running = new Set<Promise<void>>();
    let single = 0;
    const batching = new Map<JobHandler, number>();
    const track = (p: Promise<void>, done: () => void): void => {
      const q: Promise<void> = p.finally(() => { done(); running.delete(q); this.inFlight.delete(q); });
      running.add(q);
      this.inFlight.add(q);
    };
    for (;;) {
      const free = this.opts.config.concurrency - single;
      const idleBatchTypes = this.types.filter((t) => { const h = this.handlers.get(t); return h?.runBatch !== undefined && (batching.get(h) ?? 0) < BATCHES_IN_FLIGHT; });
      const jobs = !this.stopping && (free > 0 || idleBatchTypes.length > 0) ? await this.lease(Math.max(0, free), idleBatchTypes) : [];
      const batches = new Map<JobHandler, JobRecord[]>();
      for (const job of jobs) {
        const handler = this.handlers.get(job.type);
        if (handler?.runBatch) {
          const list = batches.get(handler) ?? [];
          list.push(job);
          batches.set(handler, list);
          continue;
        }
        single++;
        track(this.execute(job, stats), () => { single--; });
      }
      for (const [handler, list] of batches) {
        batching.set(handler, (batching.get(handler) ?? 0) + 1);
        track(this.executeBatch(handler, list, stats), () => { batching.set(handler, (batching.get(handler) ?? 1) - 1); });
      }
      if (running.size === 0) { this.report(true); return stats; }
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

  /**
   * Leases up to `singleLimit` jobs of the types handled one at a time and up to the batch size of
   * each type in `batchTypes` (types with a batch handler and room for another batch), in one write.
   */
  private async lease(singleLimit: number, batchTypes: readonly string[]): Promise<JobRecord[]> {
    const singleTypes = singleLimit > 0 ? this.types.filter((t) => !this.handlers.get(t)?.runBatch) : [];
    const wanted = [...batchTypes, ...singleTypes];
    // Idle polls only read: a lease transaction is journaled and replayed by every other process.
    // (Only the types it would lease: another type's pending jobs wait for its batch in flight.)
    if (!wanted.length || !this.opts.store.read((db) => hasLeasableWork(db, wanted, this.opts.clock.now()))) return [];
    return this.opts.store.write('jobs.lease', (db) => {
      const common = { owner: this.owner, nowMs: this.opts.clock.now(), leaseMs: this.opts.config.leaseMs };
      return [
        ...batchTypes.flatMap((t) => leaseJobs(db, { ...common, types: [t], limit: this.opts.config.batchSize })),
        ...leaseJobs(db, { ...common, types: singleTypes, limit: singleLimit }),
      ];
    });
  }

  /**
   * Runs a batch handler on leased jobs, then records every outcome: each job's write and its
   * completion in one transaction, all issued together so the store commits them in one lock hold
   * and fsync; failures are recorded like a single job's.
   */
  private async executeBatch(handler: JobHandler, jobs: readonly JobRecord[], stats: DrainStats): Promise<void> {
    const ctx: JobContext = { store: this.opts.store, signal: this.abort.signal, logger: this.opts.logger, clock: this.opts.clock };
    let outcomes: readonly JobOutcome[];
    try {
      outcomes = await handler.runBatch!(jobs, ctx);
      if (outcomes.length !== jobs.length) throw new Error(`job handler ${handler.type} returned ${outcomes.length} outcomes for ${jobs.length} jobs`);
    } catch (e) {
      outcomes = jobs.map(() => ({ error: e }));
    }
    await Promise.all(jobs.map(async (job, i) => {
      const outcome = outcomes[i] as JobOutcome;
      if ('error' in outcome) { await this.recordFailure(job, handler, outcome.error, stats); return; }
      let completed: boolean;
      try {
        completed = await this.opts.store.write('jobs.complete', (db) => {
          const result = outcome.apply(db);
          // The retention prune runs once a batch, with its last job (writes commit in issue order).
          if (!completeJob(db, job.id, this.owner, result ?? null, this.opts.clock.now(), i === jobs.length - 1)) throw new LeaseLost();
          return true;
        });
      } catch (e) {
        if (e instanceof LeaseLost) { this.opts.logger.debug(`job ${job.type} ${job.id}: lease lost, its result was not written`); return; }
        await this.recordFailure(job, handler, e, stats);
        return;
      }
      if (completed) { stats.completed++; this.done++; }
    }));
    this.report();
  }

  private async recordFailure(job: JobRecord, handler: JobHandler | undefined, failure: unknown, stats: DrainStats): Promise<void> {
    const message = userMessage(failure);
    try {
      const status = await this.opts.store.write('jobs.fail', (db) => {
        const s = failJob(db, job.id, this.owner, message, this.opts.clock.now(), this.opts.config);
        if (s === 'dead') handler?.onDead?.(db, job, new Date(this.opts.clock.now()).toISOString());
        return s;
      });
      if (status === 'dead') { stats.dead++; this.opts.logger.warn(`job ${job.type} ${job.id} is dead after ${job.attempts} attempts: ${message}`); }
      else { stats.retried++; this.opts.logger.debug(`job ${job.type} ${job.id} failed (attempt ${job.attempts}), will retry: ${message}`); }
    } catch (e) {
      this.opts.logger.error(`job ${job.id}: could not record the outcome: ${userMessage(e)}`);
    }
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
        await this.recordFailure(job, handler, failure, stats);
      }
    } catch (e) {
      this.opts.logger.error(`job ${job.id}: could not record the outcome: ${userMessage(e)}`);
    }
    this.report();
  }

  /**
   * Progress: "N done, M left". Counting the queue scans the jobs table, so it runs at most every
   * PROGRESS_EVERY_MS (it was ~5 % of an ingest's main thread at 10k when run after every batch),
   * and once more when a drain ends (`final`), so the last message is always the true one.
   */
  private report(final = false): void {
    const progress = this.opts.progress ?? noProgress;
    if (progress === noProgress) return;
    const now = performance.now();
    if (!final && now - this.reportedAt < PROGRESS_EVERY_MS) return;
    this.reportedAt = now;
    const c = this.opts.store.read((db) => countJobs(db, this.types));
    const message = `${this.done} done, ${c.pending + c.leased} left${c.dead ? `, ${c.dead} failed` : ''}`;
    if (message === this.reported) return;
    this.reported = message;
    progress.report({ message });
  }
}

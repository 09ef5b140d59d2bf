import type { Clock } from '../clock';
import type { HintsConfig } from '../config/hintsConfig';
import type { JobsConfig } from '../config/jobsConfig';
import { userMessage } from '../errors';
import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import type { MemoryStore } from '../store/storeTypes';
import type { JobContext, JobHandler } from '../jobs/jobWorker';
import type { JobRecord } from '../jobs/jobQueue';
import { completeHintsJob, failHintsJob, HINTS_JOB_TYPE, leaseHintsJobs, memoryContent, writeHints } from './hintsJobs';
import { buildHintsPrompt, parseHints } from './hintsText';

/**
 * The prospective hints worker (seed 000; issue 7, item 3): polls prospective_index jobs, asks the
 * LLM for up to hints.max questions per memory, stores them. Without an LLM (or disabled) it stays
 * idle and its status says why.
 */
export interface HintsWorkerStatus {
  readonly state: 'disabled' | 'idle' | 'running';
  readonly reason: string;
  readonly processed: number;
  readonly hintsWritten: number;
  readonly failures: number;
}

export interface HintsWorkerDeps {
  readonly store: MemoryStore;
  readonly llm: LlmClient | undefined;
  readonly config: HintsConfig;
  readonly jobs: JobsConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly owner: string;
  readonly newId: () => string;
}

export class HintsWorker {
  private timer: ReturnType<typeof setInterval> | undefined;
  private busy = false;
  private processed = 0;
  private hintsWritten = 0;
  private failures = 0;

  constructor(private readonly deps: HintsWorkerDeps) {}

  status(): HintsWorkerStatus {
    const counts = { processed: this.processed, hintsWritten: this.hintsWritten, failures: this.failures };
    if (!this.deps.config.enabled) return { state: 'disabled', reason: 'Prospective hints are turned off (agentMemory.hints.enabled).', ...counts };
    if (!this.deps.llm) return { state: 'idle', reason: 'No language model is configured, so no hints are generated; jobs wait until one is.', ...counts };
    return { state: 'running', reason: `Generating up to ${this.deps.config.max} hints per memory with ${this.deps.llm.label}.`, ...counts };
  }

  /** Starts polling when enabled and an LLM exists; otherwise stays idle. Returns the status. */
  start(): HintsWorkerStatus {
    const s = this.status();
    if (s.state === 'running' && !this.timer) {
      this.timer = setInterval(() => { void this.runOnce().catch((e: unknown) => this.deps.logger.warn(`hints worker: ${userMessage(e)}`)); }, this.deps.config.pollMs);
      this.timer.unref?.();
    }
    return s;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Processes up to batchSize due jobs; returns how many it handled. Never throws for a job's failure. */
  async runOnce(): Promise<number> {
    const llm = this.deps.llm;
    if (!this.deps.config.enabled || !llm || this.busy) return 0;
    this.busy = true;
    let handled = 0;
    try {
      const { store, clock, config } = this.deps;
      const now = clock.now();
      const jobs = await store.write('hints-lease', (db) => leaseHintsJobs(db, this.deps.owner, config.batchSize, now, Math.max(this.deps.jobs.leaseMs, config.timeoutMs * 2)));
      for (const job of jobs) {
        handled++;
        const content = store.read((db) => memoryContent(db, job.memoryId));
        try {
          const hints = content === undefined ? [] : parseHints(await llm.complete(buildHintsPrompt(content, config.max), { timeoutMs: config.timeoutMs }), config.max);
          const n = await store.write('hints', (db) => completeHintsJob(db, job, this.deps.owner, hints, clock.now(), this.deps.newId));
          this.processed++;
          this.hintsWritten += n;
        } catch (e) {
          this.failures++;
          const state = await store.write('hints-fail', (db) => failHintsJob(db, job, this.deps.owner, userMessage(e), clock.now(), this.deps.jobs));
          this.deps.logger.warn(`hints: job for memory ${job.memoryId.slice(0, 8)} failed (${userMessage(e)}); ${state ?? 'lease lost'}`);
        }
      }
    } finally {
      this.busy = false;
    }
    return handled;
  }
}

/**
 * The same work as a handler for the shared JobWorker (jobs/jobWorker.ts), for hosts that run one
 * worker for every job type. Register it only when status() is 'running' (enabled and an LLM);
 * otherwise hints jobs wait in the queue.
 */
export function createHintsJobHandler(deps: { llm: LlmClient; config: HintsConfig; newId: () => string }): JobHandler {
  return {
    type: HINTS_JOB_TYPE,
    async run(job: JobRecord, ctx: JobContext): Promise<unknown> {
      if (!job.memoryId) return { hints: 0 };
      const memoryId = job.memoryId;
      const p = job.payload as { agentId?: unknown } | null;
      const agentId = p && typeof p.agentId === 'string' ? p.agentId : 'default';
      const content = ctx.store.read((db) => memoryContent(db, memoryId));
      if (content === undefined) return { hints: 0 };
      const answer = await deps.llm.complete(buildHintsPrompt(content, deps.config.max), { timeoutMs: deps.config.timeoutMs, signal: ctx.signal });
      const hints = parseHints(answer, deps.config.max);
      const written = await ctx.store.write('hints', (db) => writeHints(db, memoryId, agentId, hints, ctx.clock.now(), deps.newId));
      return { hints: written };
    },
  };
}

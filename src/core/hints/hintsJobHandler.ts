import type { HintsConfig } from '../config/hintsConfig';
import type { LlmClient } from '../hostContext';
import type { JobContext, JobHandler } from '../jobs/jobWorker';
import type { JobRecord } from '../jobs/jobQueue';
import { HINTS_JOB_TYPE, memoryContent, writeHints } from './hintsJobs';
import { buildHintsPrompt, parseHints } from './hintsText';

/**
 * Prospective hints run on the shared job queue and worker (jobs/jobWorker.ts), like embedding and
 * extraction: the worker's lease, idle poll (`JobsConfig.pollMs`), backoff and dead-lettering
 * apply to hints jobs too, so hints have no poller of their own. This module holds the handler and
 * the state the status view shows. Without an LLM (or disabled) no handler is registered and hints
 * jobs wait in the queue; the status says why.
 */
export interface HintsStatus {
  readonly state: 'disabled' | 'idle' | 'running';
  readonly reason: string;
  readonly processed: number;
  readonly hintsWritten: number;
  readonly failures: number;
}

export class HintsJobs {
  private processed = 0;
  private hintsWritten = 0;
  private failures = 0;

  constructor(private readonly deps: { readonly config: HintsConfig; readonly llm: LlmClient | undefined }) {}

  status(): HintsStatus {
    const counts = { processed: this.processed, hintsWritten: this.hintsWritten, failures: this.failures };
    if (!this.deps.config.enabled) return { state: 'disabled', reason: 'Prospective hints are turned off (agentMemory.hints.enabled).', ...counts };
    if (!this.deps.llm) return { state: 'idle', reason: 'No language model is configured, so no hints are generated; jobs wait until one is.', ...counts };
    return { state: 'running', reason: `Generating up to ${this.deps.config.max} hints per memory with ${this.deps.llm.label}.`, ...counts };
  }

  /** The handler to register on the host's JobWorker, or undefined when hints are off or there is no LLM. */
  jobHandler(): JobHandler | undefined {
    const llm = this.deps.llm;
    if (!this.deps.config.enabled || !llm) return undefined;
    const inner = createHintsJobHandler({ llm, config: this.deps.config });
    return {
      type: inner.type,
      run: async (job, ctx) => {
        try {
          const result = await inner.run(job, ctx) as { hints: number };
          this.processed++;
          this.hintsWritten += result.hints;
          return result;
        } catch (e) {
          this.failures++;
          throw e;
        }
      },
    };
  }
}

/** One hints job: asks the LLM for up to hints.max questions the memory answers and stores them. */
export function createHintsJobHandler(deps: { llm: LlmClient; config: HintsConfig }): JobHandler {
  return {
    type: HINTS_JOB_TYPE,
    async run(job: JobRecord, ctx: JobContext): Promise<{ hints: number }> {
      if (!job.memoryId) return { hints: 0 };
      const memoryId = job.memoryId;
      const p = job.payload as { agentId?: unknown } | null;
      const agentId = p && typeof p.agentId === 'string' ? p.agentId : 'default';
      const content = ctx.store.read((db) => memoryContent(db, memoryId));
      if (content === undefined) return { hints: 0 };
      const answer = await deps.llm.complete(buildHintsPrompt(content, deps.config.max), { timeoutMs: deps.config.timeoutMs, signal: ctx.signal });
      const hints = parseHints(answer, deps.config.max);
      const written = await ctx.store.write('hints', (db) => writeHints(db, memoryId, agentId, hints, ctx.clock.now()));
      return { hints: written };
    },
  };
}

/**
 * Everything that lives as long as an open store: the store itself, the embedder (worker thread,
 * loaded on first use), the job worker (embed / extract / hints), and the feedback loop (sessions,
 * maintenance). Settings changes rebuild the pipeline around the open store without a reload.
 * vscode-free: the extension's services.ts owns one of these at a time.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock';
import { userMessage } from '../../core/errors';
import { createHeuristicExtractor, createLlmExtractor } from '../../core/extraction/llmExtractor';
import type { HostPaths, LlmClient } from '../../core/hostContext';
import { countJobs } from '../../core/jobs/jobQueue';
import { JobWorker } from '../../core/jobs/jobWorker';
import { localLeaseOwner } from '../../core/jobs/leaseOwner';
import { createPipelineHandlers } from '../../core/jobs/pipelineHandlers';
import type { Logger } from '../../core/logger';
import { countMemories } from '../../core/memory/memoryRecords';
import { defaultRememberDeps } from '../../core/memory/remember';
import type { RememberDeps } from '../../core/memory/remember';
import { createEmbedder } from '../../core/models/createEmbedder';
import type { RerankerSet } from '../../core/models/rerankerSet';
import { createRecallReranker } from '../../core/recall/createRecallReranker';
import type { RecallDeps } from '../../core/recall/recallRequest';
import { createFeedbackLoop } from '../../core/sessions/feedbackLoop';
import type { FeedbackLoop } from '../../core/sessions/feedbackLoop';
import { createTranscriptCapture } from '../../core/sessions/transcriptCapture';
import { openStore } from '../../core/store/openStore';
import type { DurableMemoryStore } from '../../core/store/durableStore';
import type { MemorySettings } from '../../core/config/memorySettings';
import { TrackedEmbedder } from './trackedEmbedder';
import type { ModelState } from './trackedEmbedder';

export interface RuntimeHost {
  readonly paths: HostPaths;
  readonly logger: Logger;
  readonly clock: Clock;
}

export interface RuntimeStatus {
  readonly memories: number;
  readonly pendingJobs: number;
  readonly deadJobs: number;
  readonly model: ModelState;
  readonly llm: string | undefined;
  readonly storeDir: string;
  /** What opening (or a later repair) had to recover, with the exact loss (docs/store.md, "Recovery"). */
  readonly storeRecovery: { readonly message: string; readonly lostRecords: number; readonly lossExact: boolean } | undefined;
}

interface Pipeline {
  readonly embedder: TrackedEmbedder | undefined;
  readonly modelProblem: ModelState | undefined;
  readonly worker: JobWorker;
  readonly loop: FeedbackLoop;
  readonly llm: LlmClient | undefined;
  /** The configured head reranker (models.rerankProvider), disposed with the pipeline. */
  readonly rerankers: RerankerSet;
}

export class MemoryRuntime {
  private pipeline: Pipeline;

  private constructor(readonly store: DurableMemoryStore, private readonly host: RuntimeHost, private settings: MemorySettings, llm: LlmClient | undefined) {
    this.pipeline = this.buildPipeline(llm);
  }

  static async open(host: RuntimeHost, settings: MemorySettings, llm: LlmClient | undefined): Promise<MemoryRuntime> {
    const store = await openStore({ dir: host.paths.storeDir, logger: host.logger, clock: host.clock });
    const runtime = new MemoryRuntime(store, host, settings, llm);
    runtime.start();
    return runtime;
  }

  get loop(): FeedbackLoop { return this.pipeline.loop; }
  get embedder(): TrackedEmbedder | undefined { return this.pipeline.embedder; }
  get llm(): LlmClient | undefined { return this.pipeline.llm; }
  get currentSettings(): MemorySettings { return this.settings; }

  recallDeps(): RecallDeps {
    const { embedder, rerankers } = this.pipeline;
    const search = this.settings.graphEnabled ? this.settings.search
      : { ...this.settings.search, graphBoost: { ...this.settings.search.graphBoost, enabled: false }, traversal: { ...this.settings.search.traversal, enabled: false } };
    return { config: search, clock: this.host.clock, rerankers, ...(embedder ? { embedder } : {}) };
  }

  rememberDeps(): RememberDeps {
    const hints = this.pipeline.loop.config.hints.enabled && this.pipeline.llm !== undefined;
    return defaultRememberDeps(this.host.clock, { jobs: this.settings.jobs, enqueue: { embed: this.pipeline.embedder !== undefined, extract: this.settings.graphEnabled, hints } });
  }

  /** Wakes the job worker right after work was queued. */
  poke(): void { this.pipeline.worker.poke(); }

  status(): RuntimeStatus {
    const { memories, jobs } = this.store.read((db) => ({ memories: countMemories(db), jobs: countJobs(db) }));
    return {
      memories, pendingJobs: jobs.pending + jobs.leased, deadJobs: jobs.dead,
      model: this.pipeline.modelProblem ?? this.pipeline.embedder?.state ?? { state: 'missing', model: this.settings.models.embeddingModel, message: 'No embedding model.' },
      llm: this.pipeline.llm?.label, storeDir: this.store.dir,
      storeRecovery: this.store.recovery,
    };
  }

  /** Settings that need no rebuild (search, capture, tool confirmation). */
  updateSettings(settings: MemorySettings): void {
    this.settings = settings;
  }

  /** Applies new settings (and LLM client) by rebuilding the pipeline around the open store. */
  async reconfigure(settings: MemorySettings, llm: LlmClient | undefined): Promise<void> {
    await this.stopPipeline(this.pipeline);
    this.settings = settings;
    this.pipeline = this.buildPipeline(llm);
    this.start();
  }

  async close(): Promise<void> {
    await this.stopPipeline(this.pipeline, true);
    await this.store.close();
  }

  private start(): void {
    const { worker, loop } = this.pipeline;
    worker.start();
    loop.sessions.startIdleTimer();
    loop.maintenance.startSchedule();
    void loop.sessions.sweep().catch((e: unknown) => this.host.logger.warn(`session sweep: ${userMessage(e)}`));
  }

  private async stopPipeline(p: Pipeline, endSessions = false): Promise<void> {
    if (endSessions) await p.loop.sessions.shutdown();
    else p.loop.sessions.stopIdleTimer();
    p.loop.maintenance.dispose();
    await p.worker.stop();
    await p.embedder?.dispose();
    await p.rerankers.dispose();
  }

  private buildPipeline(llm: LlmClient | undefined): Pipeline {
    const { logger, clock, paths } = this.host;
    const s = this.settings;
    let embedder: TrackedEmbedder | undefined;
    let modelProblem: ModelState | undefined;
    try {
      embedder = new TrackedEmbedder(createEmbedder(s.models, paths));
    } catch (e) {
      modelProblem = { state: 'missing', model: s.models.embeddingModel, message: userMessage(e) };
      logger.warn(`embedding model: ${userMessage(e)} Recall runs on keywords only.`);
    }
    const extraction = s.extraction;
    const extractor = llm ? createLlmExtractor(llm, extraction, logger) : createHeuristicExtractor(extraction);
    const rememberDeps = defaultRememberDeps(clock, { jobs: s.jobs, enqueue: { embed: embedder !== undefined, extract: s.graphEnabled, hints: false } });
    const capture = createTranscriptCapture(this.store, extractor, rememberDeps);
    const loop = createFeedbackLoop({ store: this.store, clock, logger, llm, capture, newId: randomUUID, ...(embedder ? { embedder } : {}) }, { ...s.feedbackLoop, jobs: s.jobs, graph: s.graph, aliases: extraction.aliases });
    const extra = [loop.hints.jobHandler()].filter((h) => h !== undefined);
    const handlers = createPipelineHandlers({ embedder, llm, extraction, graph: s.graph, logger, extra });
    const worker = new JobWorker({ store: this.store, handlers, config: s.jobs, clock, logger, owner: localLeaseOwner('window') });
    const rerankers = createRecallReranker(s.models, { dirs: paths, llm, logger });
    return { embedder, modelProblem, worker, loop, llm, rerankers };
  }
}

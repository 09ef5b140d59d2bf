/**
 * The part of an engine rebuilt on every settings change, around the open store: the models, the
 * job worker with its handlers (embed, extract, hints) and the feedback loop (sessions,
 * maintenance). Built from settings only, so the extension and the CLI wire it identically.
 */
import { randomUUID } from 'node:crypto';
import type { HostContext, LlmClient } from '../hostContext';
import { JobWorker } from '../jobs/jobWorker';
import { localLeaseOwner } from '../jobs/leaseOwner';
import { createPipelineHandlers } from '../jobs/pipelineHandlers';
import { defaultRememberDeps } from '../memory/remember';
import type { WorkerScript } from '../models/modelWorkerClient';
import type { RerankerSet } from '../models/rerankerSet';
import { createRecallReranker } from '../recall/createRecallReranker';
import { createFeedbackLoop } from '../sessions/feedbackLoop';
import type { FeedbackLoop } from '../sessions/feedbackLoop';
import { createTranscriptCapture } from '../sessions/transcriptCapture';
import type { MemoryStore } from '../store/storeTypes';
import type { EngineSettings } from './engineConfig';
import { engineEmbedding, engineExtractor } from './engineModels';
import type { EmbedderFactory, EngineEmbedding } from './engineModels';

export interface EnginePipeline {
  readonly embedding: EngineEmbedding;
  readonly worker: JobWorker;
  readonly loop: FeedbackLoop;
  readonly llm: LlmClient | undefined;
  /** The configured head reranker (models.rerankProvider: embedding, crossEncoder, llm or none), disposed with the pipeline. */
  readonly rerankers: RerankerSet;
}

export interface PipelineInput {
  readonly store: MemoryStore;
  readonly host: HostContext;
  readonly settings: EngineSettings;
  readonly llm: LlmClient | undefined;
  readonly options: { readonly embedder?: EmbedderFactory; readonly modelWorker?: WorkerScript; readonly leaseLabel?: string; readonly newId?: () => string };
}

export function buildEnginePipeline({ store, host, settings: s, llm, options }: PipelineInput): EnginePipeline {
  const { logger, clock, paths } = host;
  const newId = options.newId ?? randomUUID;
  const embedding = engineEmbedding(s, paths, logger, options.embedder, options.modelWorker);
  const embedder = embedding.embedder;
  const extractor = engineExtractor(s, llm, logger);
  // Captured session facts queue no hints job: hints come from remember() when an LLM is present.
  const rememberDeps = defaultRememberDeps(clock, { jobs: s.jobs, enqueue: { embed: embedder !== undefined, extract: s.graphEnabled, hints: false }, newId });
  const capture = createTranscriptCapture(store, extractor, rememberDeps);
  const loop = createFeedbackLoop({ store, clock, logger, llm, capture, newId, ...(embedder ? { embedder } : {}) }, { ...s.feedbackLoop, jobs: s.jobs, graph: s.graph, aliases: s.extraction.aliases });
  const extra = [loop.hints.jobHandler()].filter((h) => h !== undefined);
  const handlers = createPipelineHandlers({ embedder, llm, extraction: s.extraction, graph: s.graph, logger, extra });
  const worker = new JobWorker({ store, handlers, config: s.jobs, clock, logger, progress: host.progress, owner: localLeaseOwner(options.leaseLabel ?? 'window') });
  const rerankers = createRecallReranker(s.models, { dirs: paths, llm, logger });
  return { embedding, worker, loop, llm, rerankers };
}

/** Background work of a long-lived host: the job worker's loop, idle-session timer, maintenance schedule, stale-session sweep. */
export function startPipeline(p: EnginePipeline, onSweepError: (e: unknown) => void): void {
  p.worker.start();
  p.loop.sessions.startIdleTimer();
  p.loop.maintenance.startSchedule();
  void p.loop.sessions.sweep().catch(onSweepError);
}

export async function stopPipeline(p: EnginePipeline, endSessions = false): Promise<void> {
  if (endSessions) await p.loop.sessions.shutdown();
  else p.loop.sessions.stopIdleTimer();
  p.loop.maintenance.dispose();
  await p.worker.stop();
  await p.embedding.embedder?.dispose();
  await p.rerankers.dispose();
}

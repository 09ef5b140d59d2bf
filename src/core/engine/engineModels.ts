/**
 * The models an engine runs on, chosen from settings in one place so every host gets the same ones:
 * the embedding model (wrapped to track its state), the extractor (LLM when a client is given, else
 * heuristic); the recall rerankers come from createRecallReranker (recall/createRecallReranker.ts). Standalone so commands that touch no store (`extract`,
 * `embed`) build exactly what the engine builds.
 */
import { userMessage } from '../errors';
import { createHeuristicExtractor, createLlmExtractor } from '../extraction/llmExtractor';
import type { Extractor } from '../extraction/llmExtractor';
import type { HostPaths, LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import { createEmbedder } from '../models/createEmbedder';
import type { Embedder } from '../models/embedder';
import type { WorkerScript } from '../models/modelWorkerClient';
import type { EngineSettings } from './engineConfig';
import { TrackedEmbedder } from './trackedEmbedder';
import type { ModelState } from './trackedEmbedder';

/** Replaces the configured embedding model (tests and benches pass a fake; undefined = none). */
export type EmbedderFactory = () => Embedder | undefined;

export interface EngineEmbedding {
  readonly embedder: TrackedEmbedder | undefined;
  /** Why there is no embedder (shown in the status); undefined when there is one. */
  readonly problem: ModelState | undefined;
}

/** The configured embedding model, or a coded error saying why there is none (the `embed` command shows it). */
export function createEngineEmbedder(settings: EngineSettings, paths: Pick<HostPaths, 'bundledModelsDir' | 'cacheDir'>, worker?: WorkerScript): Embedder {
  return createEmbedder(settings.models, paths, worker ? { worker } : {});
}

export function engineEmbedding(settings: EngineSettings, paths: Pick<HostPaths, 'bundledModelsDir' | 'cacheDir'>, logger: Logger, factory?: EmbedderFactory, worker?: WorkerScript): EngineEmbedding {
  try {
    const inner = factory ? factory() : createEngineEmbedder(settings, paths, worker);
    if (inner) return { embedder: new TrackedEmbedder(inner), problem: undefined };
    return { embedder: undefined, problem: { state: 'missing', model: settings.models.embeddingModel, message: 'No embedding model.' } };
  } catch (e) {
    logger.warn(`embedding model: ${userMessage(e)} Recall runs on keywords only.`);
    return { embedder: undefined, problem: { state: 'missing', model: settings.models.embeddingModel, message: userMessage(e) } };
  }
}

export function engineExtractor(settings: EngineSettings, llm: LlmClient | undefined, logger: Logger): Extractor {
  return llm ? createLlmExtractor(llm, settings.extraction, logger) : createHeuristicExtractor(settings.extraction);
}

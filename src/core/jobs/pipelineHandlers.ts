import type { ExtractionConfig } from '../config/extractionConfig';
import type { GraphConfig } from '../config/graphConfig';
import { createHeuristicExtractor, createLlmExtractor } from '../extraction/llmExtractor';
import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import type { Embedder } from '../models/embedder';
import { createEmbedHandler } from './embedHandler';
import { createExtractHandler } from './extractHandler';
import type { JobHandler } from './jobWorker';

/**
 * The write pipeline's handlers for a JobWorker: embed (when an embedder is configured) and
 * extract (LLM with heuristic fallback when an LLM is configured, else heuristic). Other modules'
 * handlers (hints) are passed in `extra`.
 */
export function createPipelineHandlers(deps: {
  readonly embedder: Embedder | undefined;
  readonly llm: LlmClient | undefined;
  readonly extraction: ExtractionConfig;
  readonly graph: GraphConfig;
  readonly logger: Logger;
  readonly extra?: readonly JobHandler[];
}): JobHandler[] {
  const extractor = deps.llm ? createLlmExtractor(deps.llm, deps.extraction, deps.logger) : createHeuristicExtractor(deps.extraction);
  return [
    ...(deps.embedder ? [createEmbedHandler(deps.embedder)] : []),
    createExtractHandler(extractor, { graph: deps.graph, contradiction: deps.extraction.contradiction, ...(deps.llm ? { llm: deps.llm } : {}) }),
    ...(deps.extra ?? []),
  ];
}

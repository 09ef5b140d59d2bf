/**
 * The reranker recall uses, from the model settings (`agentMemory.models.rerankProvider`,
 * rerankTopN, rerankTimeoutMs, crossEncoderModel): one RerankerSet per configuration, passed to
 * recall as `RecallDeps.rerankers`. Whoever assembles recall (the extension runtime, the CLI, an
 * engine) calls this and disposes the set when the configuration changes or the store closes.
 * With the cross-encoder the model is loaded ahead of the first query; a missing or broken model
 * is logged here, and every recall then keeps the fused order and says why in its notes.
 */
import type { ModelConfig } from '../config/modelConfig';
import { userMessage } from '../errors';
import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import type { ModelDirs } from '../models/modelPaths';
import { RerankerSet } from '../models/rerankerSet';

export interface RecallRerankerDeps {
  readonly dirs: ModelDirs;
  readonly llm?: LlmClient | undefined;
  readonly logger?: Pick<Logger, 'warn'>;
}

export function createRecallReranker(models: ModelConfig, deps: RecallRerankerDeps): RerankerSet {
  const set = new RerankerSet(models, { dirs: deps.dirs, llm: deps.llm });
  if (models.rerankProvider === 'crossEncoder') {
    set.warmUp().catch((e: unknown) => deps.logger?.warn(`cross-encoder reranker: ${userMessage(e)} Recall keeps the fused order.`));
  }
  if (models.rerankProvider === 'llm' && !deps.llm) deps.logger?.warn('LLM reranker: no language model is enabled; recall keeps the fused order.');
  return set;
}

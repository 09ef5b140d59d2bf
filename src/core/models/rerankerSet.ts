/**
 * The configured reranker, built once per host and asked for a provider per query:
 *   const rerankers = new RerankerSet(config, { dirs: host.paths, llm: host.llm });
 *   const provider = rerankers.forQuery({ queryVector, vectorFor });
 *   const { candidates } = await rerank(query, ranked, provider, rerankers.options());
 * The cross-encoder runs in a worker thread. 'none' → pass-through; 'embedding' → 0.7/0.3 blend with cached vectors (pass-through when the
 * query has no vector); 'crossEncoder' → the configured model folder, loaded once and reused
 * (a missing model makes every call keep the original order; warmUp() preloads it); 'llm' → the host's LLM client
 * scoring in the background under its own budget and blended into the next recall of the same
 * query (backgroundLlmReranker.ts; pass-through when no client is enabled).
 */
import type { ModelConfig } from '../config/modelConfig';
import type { LlmClient } from '../hostContext';
import { createBackgroundLlmReranker } from './backgroundLlmReranker';
import type { BackgroundLlmReranker } from './backgroundLlmReranker';
import { createCrossEncoderReranker } from './crossEncoderReranker';
import { createEmbeddingReranker } from './embeddingReranker';
import { resolveModelDir } from './modelPaths';
import { createWorkerPairScorer } from './workerPairScorer';
import type { WorkerPairScorer } from './workerPairScorer';
import type { ModelDirs } from './modelPaths';
import { noopReranker } from './rerank';
import type { RerankOptions, Reranker } from './rerank';

export interface RerankerDeps {
  readonly dirs: ModelDirs;
  readonly llm?: LlmClient | undefined;
}

export interface QueryVectors {
  readonly queryVector?: Float32Array | undefined;
  readonly vectorFor?: (id: string) => Float32Array | undefined;
}

export class RerankerSet {
  private crossEncoder: Reranker | undefined;
  private scorer: WorkerPairScorer | undefined;
  private llm: BackgroundLlmReranker | undefined;

  constructor(private readonly config: ModelConfig, private readonly deps: RerankerDeps) {}

  /** Head size and timeout for rerank(): the cross-encoder's own or the generic ones. */
  options(): RerankOptions {
    return this.config.rerankProvider === 'crossEncoder'
      ? { topN: this.config.crossEncoderTopN, timeoutMs: this.config.crossEncoderTimeoutMs }
      : { topN: this.config.rerankTopN, timeoutMs: this.config.rerankTimeoutMs };
  }

  /**
   * Loads the cross-encoder ahead of the first query (call when the setting is enabled or changes;
   * a first query during the load falls back to the original order). Rejects when the model is missing.
   */
  async warmUp(): Promise<void> {
    await this.forQuery().warmUp?.();
  }

  forQuery(vectors: QueryVectors = {}): Reranker {
    switch (this.config.rerankProvider) {
      case 'embedding':
        return vectors.queryVector && vectors.vectorFor
          ? createEmbeddingReranker({ queryVector: vectors.queryVector, vectorFor: vectors.vectorFor })
          : noopReranker;
      case 'crossEncoder':
        if (!this.crossEncoder) {
          const dir = this.crossEncoderDir();
          this.scorer = dir ? createWorkerPairScorer(dir, { intraOpThreads: this.config.intraOpThreads }) : undefined;
          this.crossEncoder = createCrossEncoderReranker({
            ...(this.scorer ? { scorer: this.scorer } : {}),
            topN: this.config.crossEncoderTopN,
            timeoutMs: this.config.crossEncoderTimeoutMs,
          });
        }
        return this.crossEncoder;
      case 'llm':
        if (!this.deps.llm) return noopReranker;
        this.llm ??= createBackgroundLlmReranker(this.deps.llm, { budgetMs: this.config.llmRerankBudgetMs });
        return this.llm;
      default:
        return noopReranker;
    }
  }

  /** Resolves when the LLM reranker's background scoring started so far has finished. */
  async settled(): Promise<void> {
    await this.llm?.settled();
  }

  /** Stops the cross-encoder worker and the LLM reranker's background calls (a later query starts them again). */
  async dispose(): Promise<void> {
    this.llm?.dispose();
    this.llm = undefined;
    const scorer = this.scorer;
    this.scorer = undefined;
    this.crossEncoder = undefined;
    await scorer?.dispose();
  }

  private crossEncoderDir(): string | undefined {
    if (!this.config.crossEncoderModel) return undefined;
    try {
      return resolveModelDir(this.config.crossEncoderModel, this.deps.dirs);
    } catch {
      return undefined;
    }
  }
}

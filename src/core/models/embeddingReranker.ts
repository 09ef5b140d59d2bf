/**
 * Embedding reranker: blended = 0.7 × original score + 0.3 × cosine(query, candidate)
 * using cached candidate vectors; a candidate without a cached vector keeps its score; the head is
 * sorted by blended score, descending (stable for ties). No model call, deterministic.
 */
import { DEFAULT_RERANK_COSINE_WEIGHT, DEFAULT_RERANK_ORIGINAL_WEIGHT } from '../config/modelConfig';
import { cosine } from './embedder';
import type { Reranker } from './rerank';

export interface EmbeddingRerankerOptions {
  /** The query's vector, from the same model as the cached vectors. */
  readonly queryVector: Float32Array;
  /** Cached vector of a candidate (e.g. from the embeddings table), or undefined. */
  readonly vectorFor: (id: string) => Float32Array | undefined;
  readonly originalWeight?: number;
  readonly cosineWeight?: number;
}

export function createEmbeddingReranker(options: EmbeddingRerankerOptions): Reranker {
  const wOriginal = options.originalWeight ?? DEFAULT_RERANK_ORIGINAL_WEIGHT;
  const wCosine = options.cosineWeight ?? DEFAULT_RERANK_COSINE_WEIGHT;
  return {
    id: 'embedding',
    rerank: async (_query, head) => head
      .map((c, index) => {
        const v = options.vectorFor(c.id);
        const score = v && v.length === options.queryVector.length ? wOriginal * c.score + wCosine * cosine(options.queryVector, v) : c.score;
        return { c: { ...c, score }, index };
      })
      .sort((a, b) => b.c.score - a.c.score || a.index - b.index)
      .map((x) => x.c),
  };
}

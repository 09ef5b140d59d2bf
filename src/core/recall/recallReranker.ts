/**
 * Which reranker the rerank stage uses for one query: the configured set (`deps.rerankers`, built
 * by createRecallReranker from the model settings, with its own head size and timeout), else a
 * fixed `deps.reranker`, else the embedding blend over the cached vectors when the query has a
 * vector (docs/recall-design.md "rerank").
 */
import { createEmbeddingReranker } from '../models/embeddingReranker';
import type { RerankOptions, Reranker } from '../models/rerank';
import type { RecallDeps } from './recallRequest';
import type { VectorIndex } from './vectorIndex';

export interface ChosenReranker {
  readonly reranker: Reranker | undefined;
  /** Head size and timeout of the configured set; undefined = the search config's rerank group. */
  readonly options: RerankOptions | undefined;
}

export function recallReranker(deps: RecallDeps, queryVector: Float32Array | undefined, vectors: VectorIndex | undefined): ChosenReranker {
  const vectorFor = (id: string): Float32Array | undefined => vectors?.vectors.row(id);
  if (deps.rerankers) {
    return { reranker: deps.rerankers.forQuery(queryVector && vectors ? { queryVector, vectorFor } : {}), options: deps.rerankers.options() };
  }
  const reranker = deps.reranker ?? (queryVector && vectors ? createEmbeddingReranker({ queryVector, vectorFor }) : undefined);
  return { reranker, options: undefined };
}

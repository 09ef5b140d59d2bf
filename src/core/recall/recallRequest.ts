/**
 * The recall request and its dependencies, with validation. The extension, chat participant and
 * CLI build a RecallRequest; deps carry the config and the optional models.
 */
import type { Clock } from '../clock';
import { MemoryError } from '../errors';
import type { SearchConfig } from '../config/searchConfig';
import { resolveSearchConfig } from '../config/searchConfig';
import type { RecallFilter } from './overFetch';
import type { Embedder } from '../models/embedder';
import type { RerankOptions, Reranker } from '../models/rerank';
import type { QueryVectors } from '../models/rerankerSet';
import type { VectorIndex } from './vectorIndex';

export type RecallOnly = 'lexical' | 'vector';

export interface RecallRequest {
  readonly query: string;
  /** Render width (default config.limit, 1..50). */
  readonly limit?: number;
  /** Session key: results and lexical hits are recorded in session_memories. */
  readonly session?: string;
  /** Only memories of this project. */
  readonly project?: string;
  readonly since?: string;
  readonly until?: string;
  /** One arm alone (evaluation and debugging). */
  readonly only?: RecallOnly;
  /** Retrieval width multiplier, default config.overFetch. */
  readonly overFetch?: number;
  /** Drops candidates before slicing to the render width (e.g. "already visible in this chat"). */
  readonly filter?: RecallFilter;
  /** Checkpoint entity ids for focal resolution. */
  readonly checkpointEntityIds?: readonly string[];
  /** Whether the results go into a prompt (session_memories.was_injected). */
  readonly injected?: boolean;
  /**
   * Whether the lexical arm's hits are recorded as the session's keyword hits (fts_hit_count, which
   * the feedback loop reads as "paid off"). Default true. @memory passes false: a keyword hit of the
   * recall that showed a memory is no evidence the answer used it (docs/recall-design.md, "Fifth
   * round"); its use is judged from the model's own answer text at session end.
   */
  readonly countLexicalHits?: boolean;
  /**
   * The agent recalling (default 'default'): focal entities and graph boost use only this agent's
   * entities, so another agent's entities never boost a memory or become focal.
   */
  readonly agentId?: string;
}

export const DEFAULT_RECALL_AGENT = 'default';

/** The part of the models module's Embedder recall needs (tests pass a deterministic fake). */
export type QueryEmbedder = Pick<Embedder, 'id' | 'dims' | 'embed'>;

export interface RecallDeps {
  readonly config?: SearchConfig;
  readonly clock: Clock;
  readonly embedder?: QueryEmbedder;
  /** Kept across calls so the matrix updates incrementally; created on demand otherwise. */
  readonly vectors?: VectorIndex;
  /** Head reranker; default: the embedding blend (0.7·score + 0.3·cosine) when vectors exist. */
  readonly reranker?: Reranker;
  /**
   * The configured reranker (createRecallReranker, models.rerankProvider): asked for a provider
   * per query, with its own head size and timeout. Wins over `reranker`.
   */
  readonly rerankers?: RecallRerankers;
  /**
   * Whether `trackedRecall` (src/core/sessions/recallTracking.ts) records access counts and session
   * rows (default true). Recall itself never writes.
   */
  readonly track?: boolean;
}

/** What the rerank stage needs of a RerankerSet (src/core/models/rerankerSet.ts). */
export interface RecallRerankers {
  forQuery(vectors: QueryVectors): Reranker;
  options(): RerankOptions;
}

export const MAX_QUERY_CHARS = 4000;
const ISO = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

export function validateRequest(req: RecallRequest): void {
  if (typeof req.query !== 'string' || req.query.trim().length === 0) throw new MemoryError('E_INVALID_INPUT', 'The recall query is empty.');
  if (req.query.length > MAX_QUERY_CHARS) throw new MemoryError('E_INVALID_INPUT', `The recall query is longer than ${MAX_QUERY_CHARS} characters.`);
  if (req.limit !== undefined && (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > 50)) throw new MemoryError('E_INVALID_INPUT', 'limit must be a whole number from 1 to 50.');
  if (req.agentId !== undefined && (typeof req.agentId !== 'string' || req.agentId.trim() === '')) throw new MemoryError('E_INVALID_INPUT', 'agentId must be a non-empty string.');
  if (req.only !== undefined && req.only !== 'lexical' && req.only !== 'vector') throw new MemoryError('E_INVALID_INPUT', "only must be 'lexical' or 'vector'.");
  for (const [k, v] of [['since', req.since], ['until', req.until]] as const) {
    if (v !== undefined && (!ISO.test(v) || !Number.isFinite(Date.parse(v)))) throw new MemoryError('E_INVALID_INPUT', `${k} must be an ISO date.`);
  }
}

/** The config for one request: `only` switches off every other arm and stage. */
export function effectiveConfig(base: SearchConfig | undefined, req: RecallRequest): SearchConfig {
  const cfg = base ?? resolveSearchConfig();
  if (!req.only) return cfg;
  const off = { enabled: false };
  const lexical = req.only === 'lexical';
  return {
    ...cfg,
    alpha: lexical ? 0 : 1,
    lexical: { ...cfg.lexical, enabled: lexical },
    vector: { ...cfg.vector, enabled: !lexical },
    hints: { ...cfg.hints, ...off },
    graphBoost: { ...cfg.graphBoost, ...off },
    traversal: { ...cfg.traversal, ...off, includePinned: false },
    facets: { ...cfg.facets, ...off },
    temporalPrior: { ...cfg.temporalPrior, ...off },
    recency: { ...cfg.recency, ...off },
    currentness: { ...cfg.currentness, ...off },
    dampening: { ...cfg.dampening, gravityEnabled: false, hubEnabled: false, resolutionEnabled: false },
    rerank: { ...cfg.rerank, ...off },
    neighbours: { ...cfg.neighbours, ...off },
    feedback: { ...cfg.feedback, ...off },
    pins: { ...cfg.pins, ...off },
  };
}

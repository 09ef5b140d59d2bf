/**
 * Embedding and reranking configuration: rerank topN 20, timeout 2,000 ms, embedding reranker
 * 0.7 × original + 0.3 × cosine; cross-encoder rerankTopN 6, rerankTimeoutMs 1,500, off by default
 * (docs/recall-design.md, "Rerankers"). The VS Code settings (added with the
 * extension's model commands) are meant to mirror these names under `agentMemory.models.*`.
 */

/** Id of the bundled default model (folder `<models>/use-lite`, built by scripts/buildModel.mjs). */
export const DEFAULT_EMBEDDING_MODEL = 'use-lite';
/** Texts per inference call; 32 balances padding waste against per-call overhead (bench/models.ts). */
export const DEFAULT_EMBED_BATCH_SIZE = 32;
/** USE-lite keeps only its first 128 token positions (ClipToMaxLength in the TF graph). */
export const USE_LITE_MAX_TOKENS = 128;
/** USE-lite output width. */
export const USE_LITE_DIMS = 512;
/** ONNX Runtime intra-op threads for the embedding worker (the machines have 2 cores). */
export const DEFAULT_INTRA_OP_THREADS = 2;
/**
 * Rows per ONNX run after sorting a batch by token count. The dense graph pads every row to the
 * longest one (attention grows with its square), so runs of similar length cost far less: on the
 * dev-set memories an unsorted batch of 64 took ~3× the CPU of sorted runs (bench/models.ts).
 * Smaller runs cost less still, down to about 4–8 rows: 2,048 synthetic agent notes, one thread,
 * sentences per CPU-second at batch 32 / 128: 16 rows 112–114 / 133–136, 8 rows 128–136 / 144–148,
 * 4 rows 136–137 / 138–140 (quiet machine, 2026-12-02; docs/store.md, "Ingest throughput").
 */
export const USE_LITE_RUN_ROWS = 8;

/** Rerank head size and timeout for the generic rerank(). */
export const DEFAULT_RERANK_TOP_N = 20;
export const DEFAULT_RERANK_TIMEOUT_MS = 2000;
/** Embedding reranker blend: 0.7 × original + 0.3 × cosine. */
export const DEFAULT_RERANK_ORIGINAL_WEIGHT = 0.7;
export const DEFAULT_RERANK_COSINE_WEIGHT = 0.3;
/** Cross-encoder head and timeout (~140 ms per document on CPU). */
export const DEFAULT_CROSS_ENCODER_TOP_N = 6;
export const DEFAULT_CROSS_ENCODER_TIMEOUT_MS = 1500;
/**
 * LLM reranker (backgroundLlmReranker.ts): budget of one background scoring call, and the weight
 * of the model's relevance in the blend with the fused score. The blend weight is not measured on
 * the development sets (bench/quality.ts runs without a language model).
 */
export const DEFAULT_LLM_RERANK_BUDGET_MS = 30_000;
export const DEFAULT_LLM_RERANK_BLEND = 0.5;
/** Characters of each candidate sent to the LLM reranker. */
export const DEFAULT_LLM_RERANK_SNIPPET_CHARS = 400;

/** Model hub for the opt-in download; any server with the hub's URL layout works. */
export const DEFAULT_MODEL_HUB_URL = 'https://huggingface.co';
/** Per-request timeout of the downloader (connect and each chunk). */
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 30_000;

export type RerankProviderName = 'none' | 'embedding' | 'crossEncoder' | 'llm';

export interface ModelConfig {
  /** 'use-lite', a model folder path, or a downloaded hub id ("Xenova/all-MiniLM-L6-v2"). */
  readonly embeddingModel: string;
  readonly embedBatchSize: number;
  readonly intraOpThreads: number;
  readonly rerankProvider: RerankProviderName;
  readonly rerankTopN: number;
  readonly rerankTimeoutMs: number;
  /** Cross-encoder model folder or downloaded hub id; empty = none (cross-encoder falls back). */
  readonly crossEncoderModel: string;
  readonly crossEncoderTopN: number;
  readonly crossEncoderTimeoutMs: number;
  /** Budget of the LLM reranker's background call, outside the interactive rerankTimeoutMs. */
  readonly llmRerankBudgetMs: number;
  readonly hubUrl: string;
  readonly downloadTimeoutMs: number;
}

export const DEFAULT_MODEL_CONFIG: ModelConfig = {
  embeddingModel: DEFAULT_EMBEDDING_MODEL,
  embedBatchSize: DEFAULT_EMBED_BATCH_SIZE,
  intraOpThreads: DEFAULT_INTRA_OP_THREADS,
  rerankProvider: 'embedding',
  rerankTopN: DEFAULT_RERANK_TOP_N,
  rerankTimeoutMs: DEFAULT_RERANK_TIMEOUT_MS,
  crossEncoderModel: '',
  crossEncoderTopN: DEFAULT_CROSS_ENCODER_TOP_N,
  crossEncoderTimeoutMs: DEFAULT_CROSS_ENCODER_TIMEOUT_MS,
  llmRerankBudgetMs: DEFAULT_LLM_RERANK_BUDGET_MS,
  hubUrl: DEFAULT_MODEL_HUB_URL,
  downloadTimeoutMs: DEFAULT_DOWNLOAD_TIMEOUT_MS,
};

const RERANK_PROVIDERS: readonly RerankProviderName[] = ['none', 'embedding', 'crossEncoder', 'llm'];

function clampInt(value: unknown, fallback: number, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/** Fills defaults and clamps user values into their ranges. */
export function resolveModelConfig(partial: Partial<ModelConfig> = {}): ModelConfig {
  const d = DEFAULT_MODEL_CONFIG;
  return {
    embeddingModel: text(partial.embeddingModel, d.embeddingModel),
    embedBatchSize: clampInt(partial.embedBatchSize, d.embedBatchSize, 1, 256),
    intraOpThreads: clampInt(partial.intraOpThreads, d.intraOpThreads, 1, 16),
    rerankProvider: RERANK_PROVIDERS.includes(partial.rerankProvider as RerankProviderName) ? (partial.rerankProvider as RerankProviderName) : d.rerankProvider,
    rerankTopN: clampInt(partial.rerankTopN, d.rerankTopN, 1, 200),
    rerankTimeoutMs: clampInt(partial.rerankTimeoutMs, d.rerankTimeoutMs, 50, 60_000),
    crossEncoderModel: typeof partial.crossEncoderModel === 'string' ? partial.crossEncoderModel.trim() : d.crossEncoderModel,
    crossEncoderTopN: clampInt(partial.crossEncoderTopN, d.crossEncoderTopN, 1, 50),
    crossEncoderTimeoutMs: clampInt(partial.crossEncoderTimeoutMs, d.crossEncoderTimeoutMs, 50, 60_000),
    llmRerankBudgetMs: clampInt(partial.llmRerankBudgetMs, d.llmRerankBudgetMs, 1000, 600_000),
    hubUrl: text(partial.hubUrl, d.hubUrl).replace(/\/+$/, ''),
    downloadTimeoutMs: clampInt(partial.downloadTimeoutMs, d.downloadTimeoutMs, 1000, 600_000),
  };
}

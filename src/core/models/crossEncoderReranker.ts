/**
 * Cross-encoder reranker: a sequence-classification model scores (query, candidate)
 * pairs through transformers.js. Only the head is scored (rerankTopN, default 6) within a timeout
 * (default 1,500 ms); every failure — no model, timeout, bad output, count mismatch, throw — makes
 * rerank() return the original order. Scores are mapped back by index into the head, never by the
 * order of the output.
 */
import { DEFAULT_CROSS_ENCODER_TIMEOUT_MS, DEFAULT_CROSS_ENCODER_TOP_N } from '../config/modelConfig';
import { MemoryError } from '../errors';
import type { RerankCandidate, Reranker } from './rerank';
import { loadTransformers, readHfModelConfig } from './transformersRuntime';

/** Scores pairs; one finite number per document, in document order. */
export interface PairScorer {
  score(query: string, documents: readonly string[]): Promise<ArrayLike<number>>;
  /** Loads the model now. */
  warmUp?(): Promise<void>;
}

type Tokenize = (texts: string[], options: { text_pair: string[]; padding: boolean; truncation: boolean }) => unknown;
type Classify = (inputs: unknown) => Promise<{ logits?: { data: unknown; dims: number[] } }>;

/** Relevance from logits: sigmoid for one label, else the softmax probability of the last label. */
export function relevanceFromLogits(data: ArrayLike<number>, rows: number, labels: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < rows; r++) {
    const row = Array.from({ length: labels }, (_, k) => data[r * labels + k] as number);
    if (labels === 1) out.push(1 / (1 + Math.exp(-(row[0] as number))));
    else {
      const max = Math.max(...row);
      const exps = row.map((x) => Math.exp(x - max));
      out.push((exps[labels - 1] as number) / exps.reduce((a, b) => a + b, 0));
    }
  }
  return out;
}

/** A scorer over a Hugging Face sequence-classification folder, loaded on first use. */
export function createTransformersPairScorer(modelDir: string): PairScorer {
  let loaded: Promise<{ tokenize: Tokenize; classify: Classify }> | undefined;
  const load = () => {
    loaded ??= (async () => {
      readHfModelConfig(modelDir);
      const t = await loadTransformers();
      const [tokenize, classify] = await Promise.all([
        t.AutoTokenizer.from_pretrained(modelDir),
        t.AutoModelForSequenceClassification.from_pretrained(modelDir, { dtype: 'fp32' }),
      ]);
      return { tokenize: tokenize as Tokenize, classify: classify as Classify };
    })();
    loaded.catch(() => { loaded = undefined; });
    return loaded;
  };
  return {
    async warmUp() {
      await load();
    },
    async score(query, documents) {
      const { tokenize, classify } = await load();
      const inputs = tokenize(documents.map(() => query), { text_pair: [...documents], padding: true, truncation: true });
      const logits = (await classify(inputs)).logits;
      if (!logits || !(logits.data instanceof Float32Array) || logits.dims.length !== 2) throw new MemoryError('E_MODEL_LOAD', 'The cross-encoder returned no logits.');
      if (logits.dims[0] !== documents.length) throw new MemoryError('E_MODEL_LOAD', 'The cross-encoder returned a different number of scores.');
      return relevanceFromLogits(logits.data, documents.length, logits.dims[1] as number);
    },
  };
}

export interface CrossEncoderRerankerOptions {
  /** Model folder; undefined when none is configured (every call then keeps the original order). */
  readonly modelDir?: string;
  /**
   * The scorer (RerankerSet passes a worker-thread one); defaults to transformers.js over modelDir
   * in this thread, which blocks it while scoring (fine inside a worker or a test).
   */
  readonly scorer?: PairScorer;
  readonly topN?: number;
  readonly timeoutMs?: number;
}

export function createCrossEncoderReranker(options: CrossEncoderRerankerOptions): Reranker {
  const scorer = options.scorer ?? (options.modelDir ? createTransformersPairScorer(options.modelDir) : undefined);
  return {
    id: 'crossEncoder',
    defaults: { topN: options.topN ?? DEFAULT_CROSS_ENCODER_TOP_N, timeoutMs: options.timeoutMs ?? DEFAULT_CROSS_ENCODER_TIMEOUT_MS },
    async warmUp() {
      if (!scorer) throw new MemoryError('E_MODEL_MISSING', 'No cross-encoder model is configured.');
      await scorer.warmUp?.();
    },
    async rerank(query, head) {
      if (!scorer) throw new MemoryError('E_MODEL_MISSING', 'No cross-encoder model is configured.');
      const scores = await scorer.score(query, head.map((c) => c.content));
      if (!scores || scores.length !== head.length) throw new MemoryError('E_MODEL_LOAD', 'The cross-encoder returned a different number of scores.');
      const scored = head.map((c, index): { c: RerankCandidate; index: number } => {
        const score = scores[index];
        if (typeof score !== 'number' || !Number.isFinite(score)) throw new MemoryError('E_MODEL_LOAD', 'The cross-encoder returned a non-numeric score.');
        return { c: { ...c, score }, index };
      });
      return scored.sort((a, b) => b.c.score - a.c.score || a.index - b.index).map((x) => x.c);
    },
  };
}

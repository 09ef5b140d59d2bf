/**
 * The default model run directly on ONNX Runtime (no worker): the tokenizer plus the converted
 * USE-lite graph. The embed worker hosts one of these; the bench compares it with the worker.
 *
 * Empty input: a text that normalises to nothing has no tokens, and the graph maps an all-padding
 * row to l2norm(tanh(pooler bias)) — the same vector TF.js gives an empty string in the middle of a
 * batch. The product keeps that (every input gets a vector, batches keep their length); callers
 * that want to skip empty memories do so before embedding.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import type * as Ort from 'onnxruntime-node';
import { USE_LITE_DIMS, USE_LITE_MAX_TOKENS } from '../config/modelConfig';
import { MemoryError } from '../errors';
import { splitRows } from './embedder';
import { loadUseLiteTokenizer, truncateIds } from './useLiteTokenizer';
import type { UseLiteTokenizer } from './useLiteTokenizer';

export const USE_LITE_PADDING_ID = -1n;
export const USE_LITE_INPUT = 'input_ids';
export const USE_LITE_OUTPUT = 'sentence_embedding';

/** Padded int64 ids [rows × seq] with -1 padding; seq is at least 1. */
export function encodeUseLiteBatch(tokenizer: UseLiteTokenizer, texts: readonly string[], maxTokens = USE_LITE_MAX_TOKENS): { ids: BigInt64Array; seq: number } {
  const encoded = texts.map((t) => truncateIds(tokenizer.encode(t), maxTokens));
  const seq = Math.max(1, ...encoded.map((e) => e.length));
  const ids = new BigInt64Array(texts.length * seq).fill(USE_LITE_PADDING_ID);
  encoded.forEach((row, r) => row.forEach((id, c) => { ids[r * seq + c] = BigInt(id); }));
  return { ids, seq };
}

export class UseLiteOnnxModel {
  readonly dims = USE_LITE_DIMS;

  private constructor(
    readonly tokenizer: UseLiteTokenizer,
    private readonly session: InferenceSession,
    private readonly ort: typeof Ort,
  ) {}

  static async load(modelDir: string, options: { intraOpThreads: number }): Promise<UseLiteOnnxModel> {
    const modelPath = join(modelDir, 'onnx', 'model.onnx');
    const tokenizerPath = join(modelDir, 'tokenizer.json');
    if (!existsSync(modelPath) || !existsSync(tokenizerPath)) {
      throw new MemoryError('E_MODEL_MISSING', `The embedding model is missing at ${modelDir} (run the build: npm run build).`, { modelDir });
    }
    const tokenizer = loadUseLiteTokenizer(tokenizerPath);
    try {
      const ort = await import('onnxruntime-node');
      const session = await ort.InferenceSession.create(modelPath, {
        intraOpNumThreads: options.intraOpThreads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      });
      return new UseLiteOnnxModel(tokenizer, session, ort);
    } catch (e) {
      throw new MemoryError('E_MODEL_LOAD', `Could not load the embedding model at ${modelDir}.`, { modelDir }, { cause: e });
    }
  }

  /** Embeds one batch: a [rows × 512] buffer of l2-normalised rows. */
  async embedFlat(texts: readonly string[]): Promise<Float32Array> {
    if (texts.length === 0) return new Float32Array(0);
    const { ids, seq } = encodeUseLiteBatch(this.tokenizer, texts);
    const input = new this.ort.Tensor('int64', ids, [texts.length, seq]);
    const out = await this.session.run({ [USE_LITE_INPUT]: input });
    const tensor = out[USE_LITE_OUTPUT];
    if (!tensor || !(tensor.data instanceof Float32Array) || tensor.data.length !== texts.length * this.dims) {
      throw new MemoryError('E_MODEL_LOAD', 'The embedding model returned an unexpected output.');
    }
    return tensor.data;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return splitRows(await this.embedFlat(texts), texts.length, this.dims);
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

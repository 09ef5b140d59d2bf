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
import { USE_LITE_DIMS, USE_LITE_MAX_TOKENS, USE_LITE_RUN_ROWS } from '../config/modelConfig';
import { MemoryError } from '../errors';
import { splitRows } from './embedder';
import { loadUseLiteTokenizer, truncateIds } from './useLiteTokenizer';
import type { UseLiteTokenizer } from './useLiteTokenizer';
import { optOutOfOnnxTelemetry } from './onnxTelemetry';

export const USE_LITE_PADDING_ID = -1n;
export const USE_LITE_INPUT = 'input_ids';
export const USE_LITE_OUTPUT = 'sentence_embedding';

/** Padded int64 ids [rows × seq] with -1 padding; seq is at least 1. */
export function encodeUseLiteBatch(tokenizer: UseLiteTokenizer, texts: readonly string[], maxTokens = USE_LITE_MAX_TOKENS): { ids: BigInt64Array; seq: number } {
  return padIds(texts.map((t) => truncateIds(tokenizer.encode(t), maxTokens)));
}

function padIds(encoded: readonly (readonly number[])[]): { ids: BigInt64Array; seq: number } {
  const seq = Math.max(1, ...encoded.map((e) => e.length));
  const ids = new BigInt64Array(encoded.length * seq).fill(USE_LITE_PADDING_ID);
  encoded.forEach((row, r) => row.forEach((id, c) => { ids[r * seq + c] = BigInt(id); }));
  return { ids, seq };
}

/** Row indices sorted by token count, cut into runs of at most `rows` (little padding per run). */
export function lengthRuns(encoded: readonly (readonly number[])[], rows = USE_LITE_RUN_ROWS): number[][] {
  const order = encoded.map((e, i) => ({ i, n: e.length })).sort((a, b) => a.n - b.n || a.i - b.i).map((x) => x.i);
  const runs: number[][] = [];
  for (let k = 0; k < order.length; k += rows) runs.push(order.slice(k, k + rows));
  return runs;
}

/** ONNX Runtime session options of the USE-lite graph: `intraOpThreads` is agentMemory.models.intraOpThreads. */
export function useLiteSessionOptions(intraOpThreads: number): InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: intraOpThreads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // No busy-waiting between ops: the extension host shares the CPU with the editor.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
}

export class UseLiteOnnxModel {
  readonly dims = USE_LITE_DIMS;

  private constructor(
    readonly tokenizer: UseLiteTokenizer,
    private readonly session: InferenceSession,
    private readonly ort: typeof Ort,
  ) {}

  /** `loadRuntime` replaces onnxruntime-node (tests observe the session options it is given). */
  static async load(modelDir: string, options: { intraOpThreads: number }, loadRuntime: () => Promise<typeof Ort> = () => import('onnxruntime-node')): Promise<UseLiteOnnxModel> {
    const modelPath = join(modelDir, 'onnx', 'model.onnx');
    const tokenizerPath = join(modelDir, 'tokenizer.json');
    if (!existsSync(modelPath) || !existsSync(tokenizerPath)) {
      throw new MemoryError('E_MODEL_MISSING', `The embedding model is missing at ${modelDir} (run the build: npm run build).`, { modelDir });
    }
    const tokenizer = loadUseLiteTokenizer(tokenizerPath);
    try {
      optOutOfOnnxTelemetry();
      const ort = await loadRuntime();
      const session = await ort.InferenceSession.create(modelPath, useLiteSessionOptions(options.intraOpThreads));
      return new UseLiteOnnxModel(tokenizer, session, ort);
    } catch (e) {
      throw new MemoryError('E_MODEL_LOAD', `Could not load the embedding model at ${modelDir}.`, { modelDir }, { cause: e });
    }
  }

  /** Embeds one batch: a [rows × 512] buffer of l2-normalised rows, in input order. */
  async embedFlat(texts: readonly string[]): Promise<Float32Array> {
    const out = new Float32Array(texts.length * this.dims);
    const encoded = texts.map((t) => truncateIds(this.tokenizer.encode(t), USE_LITE_MAX_TOKENS));
    for (const run of lengthRuns(encoded)) {
      const { ids, seq } = padIds(run.map((i) => encoded[i] as number[]));
      const result = await this.session.run({ [USE_LITE_INPUT]: new this.ort.Tensor('int64', ids, [run.length, seq]) });
      const data = result[USE_LITE_OUTPUT]?.data;
      if (!(data instanceof Float32Array) || data.length !== run.length * this.dims) {
        throw new MemoryError('E_MODEL_LOAD', 'The embedding model returned an unexpected output.');
      }
      run.forEach((row, k) => out.set(data.subarray(k * this.dims, (k + 1) * this.dims), row * this.dims));
    }
    return out;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return splitRows(await this.embedFlat(texts), texts.length, this.dims);
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

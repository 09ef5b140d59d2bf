/**
 * An embedder for any Hugging Face-format model folder (all-MiniLM-L6-v2, bge-small, gte-small,
 * ...) through transformers.js: mean pooling over the attention mask, then l2 normalisation, batched
 * and cancellable between batches. Inference runs in ONNX Runtime's native threads; tokenisation
 * runs on the calling thread.
 */
import { DEFAULT_EMBED_BATCH_SIZE } from '../config/modelConfig';
import { MemoryError } from '../errors';
import { assertTexts, batches, l2Normalize, splitRows, throwIfAborted } from './embedder';
import type { EmbedOptions, Embedder } from './embedder';
import { loadTransformers, readHfModelConfig } from './transformersRuntime';

type FeatureExtractor = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<{ data: unknown; dims: number[] }>;

export interface TransformersEmbedderOptions {
  /** Absolute model folder (Hugging Face layout with onnx/model.onnx). */
  readonly modelDir: string;
  /** Model id stored with vectors (hub id or folder name). */
  readonly id: string;
  readonly batchSize?: number;
}

/** Vector width from config.json (hidden_size, dim or d_model). */
export function hfModelDims(config: Record<string, unknown>): number {
  const dims = [config.hidden_size, config.dim, config.d_model, config.embedding_size].find((v) => typeof v === 'number' && v > 0);
  if (typeof dims !== 'number') throw new MemoryError('E_MODEL_LOAD', 'The model config does not give its vector width (hidden_size).');
  return dims;
}

export class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly dims: number;
  private extractor: Promise<FeatureExtractor> | undefined;

  constructor(private readonly options: TransformersEmbedderOptions) {
    this.id = options.id;
    this.dims = hfModelDims(readHfModelConfig(options.modelDir));
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    assertTexts(texts);
    throwIfAborted(options.signal);
    if (texts.length === 0) return [];
    const extract = await this.load();
    const out: Float32Array[] = [];
    for (const batch of batches(texts, this.options.batchSize ?? DEFAULT_EMBED_BATCH_SIZE)) {
      throwIfAborted(options.signal);
      const tensor = await extract(batch, { pooling: 'mean', normalize: true });
      if (!(tensor.data instanceof Float32Array) || tensor.data.length !== batch.length * this.dims) {
        throw new MemoryError('E_MODEL_LOAD', `The model ${this.id} returned vectors of an unexpected size.`);
      }
      out.push(...splitRows(tensor.data, batch.length, this.dims).map(l2Normalize));
    }
    throwIfAborted(options.signal);
    return out;
  }

  async dispose(): Promise<void> {
    const pending = this.extractor;
    this.extractor = undefined;
    const extractor = await pending?.catch(() => undefined);
    await (extractor as { dispose?: () => Promise<void> } | undefined)?.dispose?.();
  }

  private load(): Promise<FeatureExtractor> {
    if (!this.extractor) {
      this.extractor = loadTransformers()
        .then((t) => t.pipeline('feature-extraction', this.options.modelDir, { dtype: 'fp32' }) as unknown as Promise<FeatureExtractor>)
        .catch((e: unknown) => {
          this.extractor = undefined;
          throw e instanceof MemoryError ? e : new MemoryError('E_MODEL_LOAD', `Could not load the model ${this.id}.`, { modelDir: this.options.modelDir }, { cause: e });
        });
    }
    return this.extractor;
  }
}

/**
 * The embedder used by the product: the model runs in a worker thread (ModelWorkerClient), started
 * lazily on the first embed(). The default is USE-lite on ONNX Runtime; any Hugging Face folder
 * runs there through transformers.js (kind 'transformers-embedding'). Batches go to the worker one
 * at a time, so cancellation takes effect at the next batch boundary; the main thread does no
 * tokenisation or inference, it only copies vectors.
 */
import { DEFAULT_EMBED_BATCH_SIZE, USE_LITE_DIMS } from '../config/modelConfig';
import { MemoryError } from '../errors';
import { assertTexts, batches, splitRows, throwIfAborted } from './embedder';
import type { EmbedOptions, Embedder } from './embedder';
import { ModelWorkerClient } from './modelWorkerClient';
import type { WorkerScript } from './modelWorkerClient';

export interface WorkerEmbedderOptions {
  readonly modelDir: string;
  /** 'use-lite' (default) or 'transformers-embedding' for any Hugging Face folder. */
  readonly kind?: 'use-lite' | 'transformers-embedding';
  readonly id?: string;
  /** Vector width (512 for USE-lite; from config.json for other models). */
  readonly dims?: number;
  readonly batchSize?: number;
  readonly intraOpThreads?: number;
  /** Injectable worker script (tests, packaging). */
  readonly worker?: WorkerScript;
}

export class WorkerEmbedder implements Embedder {
  readonly id: string;
  readonly dims: number;
  private readonly client: ModelWorkerClient;

  constructor(private readonly options: WorkerEmbedderOptions) {
    this.id = options.id ?? 'use-lite';
    this.dims = options.dims ?? USE_LITE_DIMS;
    this.client = new ModelWorkerClient({
      kind: options.kind ?? 'use-lite',
      modelDir: options.modelDir,
      ...(options.intraOpThreads !== undefined ? { intraOpThreads: options.intraOpThreads } : {}),
      ...(options.worker ? { worker: options.worker } : {}),
    });
  }

  /** Milliseconds the last model load took inside the worker (for the bench and logs). */
  get loadMs(): number | undefined {
    return this.client.loadMs;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    assertTexts(texts);
    throwIfAborted(options.signal);
    if (texts.length === 0) return [];
    // No await before the first request: the client posts it in this synchronous turn once the
    // model is loaded (ModelWorkerClient.request), and starts the worker first otherwise.
    // Batch texts of similar length together (less padding: attention cost grows with the longest
    // text of a batch), then put the vectors back in input order.
    const order = texts.map((t, i) => ({ i, n: t.length })).sort((a, b) => a.n - b.n || a.i - b.i).map((x) => x.i);
    const out: Float32Array[] = new Array(texts.length);
    for (const batch of batches(order, this.options.batchSize ?? DEFAULT_EMBED_BATCH_SIZE)) {
      throwIfAborted(options.signal);
      const response = await this.client.request({ type: 'embed', texts: batch.map((i) => texts[i] as string) });
      if (response.type !== 'result' || response.data.length !== response.rows * this.dims) {
        throw new MemoryError('E_MODEL_LOAD', `The model ${this.id} returned vectors of an unexpected size.`);
      }
      splitRows(response.data, response.rows, this.dims).forEach((v, k) => { out[batch[k] as number] = v; });
    }
    throwIfAborted(options.signal);
    return out;
  }

  dispose(): Promise<void> {
    return this.client.dispose();
  }
}

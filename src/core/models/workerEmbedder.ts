/**
 * The default embedder: USE-lite on ONNX Runtime inside a worker thread, started lazily on the
 * first embed(). Batches go to the worker one at a time, so cancellation takes effect at the next
 * batch boundary; the main thread does no tokenisation or inference, it only copies vectors.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_EMBED_BATCH_SIZE, DEFAULT_INTRA_OP_THREADS, USE_LITE_DIMS } from '../config/modelConfig';
import { MemoryError } from '../errors';
import { assertTexts, batches, splitRows, throwIfAborted } from './embedder';
import type { EmbedOptions, Embedder } from './embedder';
import type { EmbedWorkerRequest, EmbedWorkerResponse } from './embedWorkerProtocol';

export interface WorkerScript {
  readonly path: string;
  readonly execArgv: readonly string[];
}

/**
 * Where the worker script is: dist/embedWorker.js next to a bundle (extension, CLI), else the
 * TypeScript source run through tsx (unit tests, scripts run from source).
 */
export function resolveEmbedWorkerScript(baseDir: string = __dirname): WorkerScript {
  const bundled = join(baseDir, 'embedWorker.js');
  if (existsSync(bundled)) return { path: bundled, execArgv: [] };
  const source = join(baseDir, '..', 'workers', 'embedWorker.ts');
  if (existsSync(source)) return { path: source, execArgv: ['--require', 'tsx/cjs'] };
  throw new MemoryError('E_MODEL_LOAD', `The embedding worker script was not found near ${baseDir}.`);
}

export interface WorkerEmbedderOptions {
  readonly modelDir: string;
  readonly id?: string;
  readonly batchSize?: number;
  readonly intraOpThreads?: number;
  /** Injectable worker script (tests, packaging). */
  readonly worker?: WorkerScript;
}

interface Pending {
  resolve(value: EmbedWorkerResponse): void;
  reject(error: Error): void;
}

export class WorkerEmbedder implements Embedder {
  readonly id: string;
  readonly dims = USE_LITE_DIMS;
  /** Milliseconds the last model load took inside the worker (for the bench and logs). */
  loadMs: number | undefined;
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private readonly pending = new Map<number | 'load', Pending>();
  private nextId = 1;

  constructor(private readonly options: WorkerEmbedderOptions) {
    this.id = options.id ?? 'use-lite';
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    assertTexts(texts);
    throwIfAborted(options.signal);
    if (texts.length === 0) return [];
    await this.start();
    // Batch texts of similar length together (less padding: attention cost grows with the longest
    // text of a batch), then put the vectors back in input order.
    const order = texts.map((t, i) => ({ i, n: t.length })).sort((a, b) => a.n - b.n || a.i - b.i).map((x) => x.i);
    const out: Float32Array[] = new Array(texts.length);
    for (const batch of batches(order, this.options.batchSize ?? DEFAULT_EMBED_BATCH_SIZE)) {
      throwIfAborted(options.signal);
      const id = this.nextId++;
      const response = await this.request(id, { type: 'embed', id, texts: batch.map((i) => texts[i] as string) });
      if (response.type !== 'result') throw new MemoryError('E_INTERNAL', 'Unexpected reply from the embedding worker.');
      splitRows(response.data, response.rows, this.dims).forEach((v, k) => { out[batch[k] as number] = v; });
    }
    throwIfAborted(options.signal);
    return out;
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.reset(new MemoryError('E_CANCELLED', 'The embedding model was unloaded.'));
    if (worker) await worker.terminate();
  }

  private start(): Promise<void> {
    if (!this.ready) {
      const script = this.options.worker ?? resolveEmbedWorkerScript();
      const worker = new Worker(script.path, { execArgv: [...script.execArgv] });
      worker.unref();
      this.worker = worker;
      worker.on('message', (m: EmbedWorkerResponse) => this.onMessage(m));
      worker.on('error', (e) => {
        if (this.worker === worker) this.reset(new MemoryError('E_MODEL_LOAD', `The embedding worker failed: ${e.message}`, undefined, { cause: e }));
      });
      worker.on('exit', (code) => {
        if (this.worker === worker) this.reset(new MemoryError('E_MODEL_LOAD', `The embedding worker exited (code ${code}).`));
      });
      const message: EmbedWorkerRequest = {
        type: 'load', modelDir: this.options.modelDir, intraOpThreads: this.options.intraOpThreads ?? DEFAULT_INTRA_OP_THREADS,
      };
      this.ready = this.request('load', message).then((r) => { if (r.type === 'loaded') this.loadMs = r.ms; });
      // A failed load must not stick: the next embed() starts a fresh worker.
      this.ready.catch(() => { void this.dispose(); });
    }
    return this.ready;
  }

  private request(key: number | 'load', message: EmbedWorkerRequest): Promise<EmbedWorkerResponse> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new MemoryError('E_MODEL_LOAD', 'The embedding worker is not running.'));
    return new Promise((resolve, reject) => {
      this.pending.set(key, { resolve, reject });
      worker.ref();
      worker.postMessage(message);
    });
  }

  private onMessage(m: EmbedWorkerResponse): void {
    const key = m.type === 'loaded' ? 'load' : (m.id ?? 'load');
    const waiter = this.pending.get(key);
    if (!waiter) return;
    this.pending.delete(key);
    if (this.pending.size === 0) this.worker?.unref();
    if (m.type === 'error') waiter.reject(new MemoryError(m.code, m.message));
    else waiter.resolve(m);
  }

  private reset(error: Error): void {
    this.worker = undefined;
    this.ready = undefined;
    const waiters = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiters) w.reject(error);
  }
}

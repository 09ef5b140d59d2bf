/**
 * One worker thread hosting one model (src/core/workers/embedWorker.ts), started lazily on the
 * first request, so inference never blocks the caller's event loop (onnxruntime-node runs a
 * session synchronously on the thread that calls it). A crashed or failed worker is dropped and
 * the next request starts a fresh one; dispose() terminates it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_INTRA_OP_THREADS } from '../config/modelConfig';
import { MemoryError } from '../errors';
import type { EmbedWorkerRequest, EmbedWorkerResponse, ModelWorkerKind } from './embedWorkerProtocol';
import { optOutOfOnnxTelemetry } from './onnxTelemetry';

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
  throw new MemoryError('E_MODEL_LOAD', `The model worker script was not found near ${baseDir}.`);
}

export interface ModelWorkerOptions {
  readonly kind: ModelWorkerKind;
  readonly modelDir: string;
  readonly intraOpThreads?: number;
  /** Injectable worker script (tests, packaging). */
  readonly worker?: WorkerScript;
}

/** A request without its id: the client numbers requests. */
export type WorkRequest =
  | { readonly type: 'embed'; readonly texts: readonly string[] }
  | { readonly type: 'score'; readonly query: string; readonly documents: readonly string[] };

interface Pending {
  resolve(value: EmbedWorkerResponse): void;
  reject(error: Error): void;
}

export class ModelWorkerClient {
  /** Milliseconds the last model load took inside the worker. */
  loadMs: number | undefined;
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  /** The model answered its load: requests go out at once (see request()). */
  private loaded = false;
  private readonly pending = new Map<number | 'load', Pending>();
  private readonly inFlight = new Set<Promise<EmbedWorkerResponse>>();
  private nextId = 1;

  constructor(private readonly options: ModelWorkerOptions) {}

  get started(): boolean {
    return this.worker !== undefined;
  }

  /** Starts the worker and loads the model (idempotent). */
  start(): Promise<void> {
    if (!this.ready) {
      const script = this.options.worker ?? resolveEmbedWorkerScript();
      // Before the worker loads ONNX Runtime: its telemetry opt-out must be in the process's own
      // environment, which only this (the main) thread can set (onnxTelemetry.ts).
      optOutOfOnnxTelemetry();
      const worker = new Worker(script.path, { execArgv: [...script.execArgv] });
      worker.unref();
      this.worker = worker;
      worker.on('message', (m: EmbedWorkerResponse) => this.onMessage(m));
      worker.on('error', (e) => {
        if (this.worker === worker) this.reset(new MemoryError('E_MODEL_LOAD', `The model worker failed: ${e.message}`, undefined, { cause: e }));
      });
      worker.on('exit', (code) => {
        if (this.worker === worker) this.reset(new MemoryError('E_MODEL_LOAD', `The model worker exited (code ${code}).`));
      });
      const message: EmbedWorkerRequest = {
        type: 'load', kind: this.options.kind, modelDir: this.options.modelDir, intraOpThreads: this.options.intraOpThreads ?? DEFAULT_INTRA_OP_THREADS,
      };
      this.ready = this.send('load', message).then((r) => {
        if (r.type === 'loaded') this.loadMs = r.ms;
        if (this.worker === worker) this.loaded = true;
      });
      // A failed load must not stick: the next request starts a fresh worker.
      this.ready.catch(() => { void this.dispose(); });
    }
    return this.ready;
  }

  /**
   * Once the model is loaded, the request is posted in the caller's own synchronous turn, so the
   * worker computes while the caller goes on: recall runs its lexical arm on the main thread while
   * the worker embeds the query. Awaiting anything first (even a settled promise) posted it only
   * after the caller's synchronous work had finished, and the two ran one after the other
   * (docs/store.md, "Recall latency, fourth round").
   */
  request(work: WorkRequest): Promise<EmbedWorkerResponse> {
    if (this.loaded && this.worker) return this.post(work);
    return this.start().then(() => this.post(work));
  }

  private post(work: WorkRequest): Promise<EmbedWorkerResponse> {
    const id = this.nextId++;
    return this.send(id, { ...work, id });
  }

  /**
   * Stops the worker. A load or run in flight is given up to DISPOSE_GRACE_MS to finish first:
   * terminating a worker while ONNX Runtime's native code is creating a session or running it
   * aborts the whole process (an uncaught native exception), and in VS Code that process is the
   * extension host. New requests start a fresh worker meanwhile.
   */
  async dispose(): Promise<void> {
    const worker = this.worker;
    const busy = [...this.inFlight];
    this.worker = undefined;
    this.ready = undefined;
    this.loaded = false;
    if (worker && busy.length > 0) await settledWithin(busy, DISPOSE_GRACE_MS);
    this.reset(new MemoryError('E_CANCELLED', 'The model was unloaded.'));
    if (worker) await worker.terminate();
  }

  private send(key: number | 'load', message: EmbedWorkerRequest): Promise<EmbedWorkerResponse> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new MemoryError('E_MODEL_LOAD', 'The model worker is not running.'));
    const sent = new Promise<EmbedWorkerResponse>((resolve, reject) => {
      this.pending.set(key, { resolve, reject });
      worker.ref();
      worker.postMessage(message);
    });
    this.inFlight.add(sent);
    const done = (): void => { this.inFlight.delete(sent); };
    sent.then(done, done);
    return sent;
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
    this.loaded = false;
    const waiters = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiters) w.reject(error);
  }
}

/** How long dispose() lets a model load or run in flight finish before terminating the worker. */
const DISPOSE_GRACE_MS = 30_000;

/** Resolves when every promise has settled, or after `ms`, whichever comes first (never rejects). */
function settledWithin(promises: readonly Promise<unknown>[], ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    void Promise.allSettled(promises).then(() => { clearTimeout(timer); resolve(); });
  });
}

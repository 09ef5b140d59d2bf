/**
 * Worker thread hosting the default embedding model (ONNX Runtime), so inference never blocks the
 * extension host's event loop. Built to dist/embedWorker.js; runnable from source through tsx.
 * Protocol: src/core/models/embedWorkerProtocol.ts. Requests are handled one at a time.
 */
import { parentPort } from 'node:worker_threads';
import { MemoryError } from '../errors';
import type { EmbedWorkerRequest, EmbedWorkerResponse } from '../models/embedWorkerProtocol';
import { UseLiteOnnxModel } from '../models/useLiteOnnx';

let model: UseLiteOnnxModel | undefined;
let queue: Promise<void> = Promise.resolve();

function send(message: EmbedWorkerResponse, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

function fail(id: number | null, e: unknown): void {
  const code = e instanceof MemoryError ? e.code : 'E_MODEL_LOAD';
  const message = e instanceof Error ? e.message : String(e);
  send({ type: 'error', id, code, message });
}

async function handle(request: EmbedWorkerRequest): Promise<void> {
  if (request.type === 'load') {
    const started = performance.now();
    try {
      model = await UseLiteOnnxModel.load(request.modelDir, { intraOpThreads: request.intraOpThreads });
      send({ type: 'loaded', ms: performance.now() - started, dims: model.dims });
    } catch (e) {
      fail(null, e);
    }
    return;
  }
  try {
    if (!model) throw new MemoryError('E_MODEL_LOAD', 'The embedding model is not loaded.');
    const data = await model.embedFlat(request.texts);
    send({ type: 'result', id: request.id, data, rows: request.texts.length }, [data.buffer as ArrayBuffer]);
  } catch (e) {
    fail(request.id, e);
  }
}

parentPort?.on('message', (request: EmbedWorkerRequest) => {
  queue = queue.then(() => handle(request));
});

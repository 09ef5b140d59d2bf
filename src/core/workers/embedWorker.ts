/**
 * Worker thread hosting one model, so inference never blocks the extension host's event loop
 * (onnxruntime-node runs a session synchronously on its calling thread). Built to
 * dist/embedWorker.js; runnable from source through tsx. Protocol:
 * src/core/models/embedWorkerProtocol.ts. Requests are handled one at a time.
 */
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { MemoryError } from '../errors';
import { createTransformersPairScorer } from '../models/crossEncoderReranker';
import type { PairScorer } from '../models/crossEncoderReranker';
import type { EmbedWorkerRequest, EmbedWorkerResponse } from '../models/embedWorkerProtocol';
import { TransformersEmbedder } from '../models/transformersEmbedder';
import { PACKED_MANIFEST, unpackAssets } from '../models/packedAssets';
import { UseLiteOnnxModel } from '../models/useLiteOnnx';

interface Hosted {
  readonly dims: number;
  embedFlat?(texts: readonly string[]): Promise<Float32Array>;
  scorer?: PairScorer;
}

let hosted: Hosted | undefined;
let queue: Promise<void> = Promise.resolve();

function send(message: EmbedWorkerResponse, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

function fail(id: number | null, e: unknown): void {
  const code = e instanceof MemoryError ? e.code : 'E_MODEL_LOAD';
  const message = e instanceof Error ? e.message : String(e);
  send({ type: 'error', id, code, message });
}

async function load(request: Extract<EmbedWorkerRequest, { type: 'load' }>): Promise<Hosted> {
  // A platform VSIX ships the model and ONNX Runtime packed beside this bundle (dist/packed.json):
  // unpack them here, off the extension host's thread, before anything loads them.
  await unpackAssets(join(__dirname, PACKED_MANIFEST));
  if (request.kind === 'use-lite') {
    const model = await UseLiteOnnxModel.load(request.modelDir, { intraOpThreads: request.intraOpThreads });
    return { dims: model.dims, embedFlat: (texts) => model.embedFlat(texts) };
  }
  if (request.kind === 'transformers-embedding') {
    const model = new TransformersEmbedder({ modelDir: request.modelDir, id: request.modelDir, batchSize: Number.MAX_SAFE_INTEGER });
    await model.embed(['warm up']);
    return {
      dims: model.dims,
      embedFlat: async (texts) => {
        const rows = await model.embed(texts);
        const flat = new Float32Array(rows.length * model.dims);
        rows.forEach((row, r) => flat.set(row, r * model.dims));
        return flat;
      },
    };
  }
  const scorer = createTransformersPairScorer(request.modelDir);
  await scorer.warmUp?.();
  return { dims: 0, scorer };
}

async function handle(request: EmbedWorkerRequest): Promise<void> {
  if (request.type === 'load') {
    const started = performance.now();
    try {
      hosted = await load(request);
      send({ type: 'loaded', ms: performance.now() - started, dims: hosted.dims });
    } catch (e) {
      fail(null, e);
    }
    return;
  }
  try {
    if (!hosted) throw new MemoryError('E_MODEL_LOAD', 'The model is not loaded.');
    if (request.type === 'embed') {
      if (!hosted.embedFlat) throw new MemoryError('E_MODEL_LOAD', 'This model does not embed text.');
      const data = await hosted.embedFlat(request.texts);
      send({ type: 'result', id: request.id, data, rows: request.texts.length }, [data.buffer as ArrayBuffer]);
    } else {
      if (!hosted.scorer) throw new MemoryError('E_MODEL_LOAD', 'This model does not score pairs.');
      const scores = Array.from(await hosted.scorer.score(request.query, request.documents));
      send({ type: 'scores', id: request.id, scores });
    }
  } catch (e) {
    fail(request.id, e);
  }
}

parentPort?.on('message', (request: EmbedWorkerRequest) => {
  queue = queue.then(() => handle(request));
});

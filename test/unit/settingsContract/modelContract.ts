/**
 * Embedding-model loading and download settings, through the engine's own embedder (the worker
 * protocol observed by a counting model worker, test/fixtures/models/countingModelWorker.mjs), the
 * ONNX session the worker creates (onnxruntime replaced to observe its options), and the download
 * options the extension's Download Embedding Model command uses, against a hub on 127.0.0.1.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { ManualClock } from '../../../src/core/clock';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { MemoryEngine } from '../../../src/core/engine/memoryEngine';
import { noProgress } from '../../../src/core/hostContext';
import { silentLogger } from '../../../src/core/logger';
import { downloadOptionsFor, planModelDownload } from '../../../src/core/models/modelDownload';
import { UseLiteOnnxModel } from '../../../src/core/models/useLiteOnnx';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { makeTempDir } from '../helpers/tempDir';
import { settingContract } from './contractRegistry';

const COUNTING_WORKER = { path: join(__dirname, '..', '..', 'fixtures', 'models', 'countingModelWorker.mjs'), execArgv: [] };

/** A folder that looks like the bundled USE-lite model (the counting worker never reads the graph). */
function fakeUseLiteFolder(dir: string): string {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'use-lite' }));
  writeFileSync(join(dir, 'onnx', 'model.onnx'), 'not a graph');
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({ model: { type: 'Unigram', vocab: [...['<pad>', '<unk>', '<s>', '</s>', '<r4>', '<r5>'].map((p) => [p, 0]), ['▁', -1], ['a', -2]] } }));
  return dir;
}

/** What the engine's embedder asks its model worker when it embeds `texts` on the settings `values`. */
async function workerLog(values: Record<string, unknown>, texts: readonly string[]): Promise<string[]> {
  const temp = makeTempDir('am-contract-models-');
  try {
    const modelDir = fakeUseLiteFolder(join(temp.dir, 'model'));
    const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
    const settings = readMemorySettings((k) => (k === 'models.embeddingModel' ? modelDir : values[k]));
    const host = { paths: { storeDir: join(temp.dir, 'store'), bundledModelsDir: temp.dir, cacheDir: temp.dir }, logger: silentLogger, clock, llm: undefined, progress: noProgress };
    const engine = MemoryEngine.onStore(await openMemoryStore({ clock }), host, settings, { mode: 'onDemand', modelWorker: COUNTING_WORKER });
    try {
      const vectors = await (engine.embedder as NonNullable<typeof engine.embedder>).embed(texts);
      assert.equal(vectors.length, texts.length);
    } finally {
      await engine.close();
    }
    return readFileSync(join(modelDir, 'worker.log'), 'utf8').trim().split('\n');
  } finally {
    temp.cleanup();
  }
}

/** A local model hub answering the listing of any repo after `delayMs`; `requests` records each path. */
async function fakeHub(delayMs = 0): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const listing = { siblings: ['config.json', 'tokenizer.json', 'onnx/model.onnx'].map((rfilename, i) => ({ rfilename, size: 10 + i, blobId: 'a'.repeat(40) })) };
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    setTimeout(() => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(listing)); }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}
const stop = (server: Server): Promise<void> => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });

describe('settings contract: embedding model loading and download', function () {
  this.timeout(30_000);
  const FIVE = ['one', 'two two', 'three three three', 'four', 'five five'];

  settingContract('models.embedBatchSize', 'the engine embeds in batches of at most that many texts', async () => {
    assert.deepEqual((await workerLog({}, FIVE)).filter((l) => l.startsWith('embed')), ['embed 5']);
    assert.deepEqual((await workerLog({ 'models.embedBatchSize': 2 }, FIVE)).filter((l) => l.startsWith('embed')), ['embed 2', 'embed 2', 'embed 1']);
  });

  settingContract('models.intraOpThreads', 'reaches the model worker and the ONNX Runtime session options', async () => {
    assert.deepEqual((await workerLog({}, ['x']))[0], 'load 2');
    const load = (await workerLog({ 'models.intraOpThreads': 3 }, ['x']))[0];
    assert.equal(load, 'load 3');
    // The worker hands that number to UseLiteOnnxModel.load (src/core/workers/embedWorker.ts): the session gets it.
    const temp = makeTempDir('am-contract-ort-');
    try {
      const seen: Ort.InferenceSession.SessionOptions[] = [];
      const fakeOrt = { InferenceSession: { create: async (_path: string, options: Ort.InferenceSession.SessionOptions) => { seen.push(options); return {}; } } } as unknown as typeof Ort;
      await UseLiteOnnxModel.load(fakeUseLiteFolder(temp.dir), { intraOpThreads: Number(load?.split(' ')[1]) }, async () => fakeOrt);
      assert.equal(seen[0]?.intraOpNumThreads, 3);
    } finally {
      temp.cleanup();
    }
  });

  settingContract('models.hubUrl', 'is the host the model download lists and fetches from', async () => {
    const a = await fakeHub();
    const b = await fakeHub();
    try {
      const plan = await planModelDownload('org/model', downloadOptionsFor(readMemorySettings((k) => (k === 'models.hubUrl' ? a.url : undefined)).models));
      assert.equal(plan.baseUrl, a.url);
      await planModelDownload('org/model', downloadOptionsFor(readMemorySettings((k) => (k === 'models.hubUrl' ? `${b.url}/` : undefined)).models));
      assert.deepEqual([a.requests, b.requests], [['/api/models/org/model?blobs=true'], ['/api/models/org/model?blobs=true']]);
      assert.equal(downloadOptionsFor(readMemorySettings(() => undefined).models).baseUrl, 'https://huggingface.co');
    } finally {
      await stop(a.server);
      await stop(b.server);
    }
  });

  settingContract('models.downloadTimeoutSeconds', 'a hub slower than it fails the download as offline', async () => {
    const hub = await fakeHub(1_500);
    try {
      const options = (seconds: number) => downloadOptionsFor(readMemorySettings((k) => (k === 'models.hubUrl' ? hub.url : k === 'models.downloadTimeoutSeconds' ? seconds : undefined)).models);
      assert.equal((await planModelDownload('org/model', options(10))).files.length, 3);
      await assert.rejects(planModelDownload('org/model', options(1)), (e: { code?: string }) => e.code === 'E_OFFLINE');
    } finally {
      await stop(hub.server);
    }
  });
});

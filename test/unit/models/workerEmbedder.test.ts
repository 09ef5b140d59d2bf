import { strict as assert } from 'node:assert';
import { Worker } from 'node:worker_threads';
import { MemoryError } from '../../../src/core/errors';
import { cosine } from '../../../src/core/models/embedder';
import { resolveEmbedWorkerScript } from '../../../src/core/models/modelWorkerClient';
import { WorkerEmbedder } from '../../../src/core/models/workerEmbedder';
import { ensureUseLiteModel } from './modelFixture';

const isCode = (code: string) => (e: unknown) => e instanceof MemoryError && e.code === code;

describe('WorkerEmbedder (USE-lite in a worker thread)', function () {
  this.timeout(60_000);
  let embedder: WorkerEmbedder;
  before(() => { embedder = new WorkerEmbedder({ modelDir: ensureUseLiteModel(), batchSize: 4 }); });
  after(async () => { await embedder.dispose(); });

  it('runs the TypeScript worker through tsx when no bundle is next to it', () => {
    const script = resolveEmbedWorkerScript();
    assert.match(script.path, /embedWorker\.ts$/);
    assert.deepEqual(script.execArgv, ['--require', 'tsx/cjs']);
  });

  it('does not start the worker before the first embed (lazy load)', () => {
    assert.equal(embedder.loadMs, undefined);
  });

  it('returns one normalised 512-d vector per text, in order, across batches', async () => {
    const texts = ['the database migration', 'a cat sat on the mat', 'deploy on Tuesday', 'use pnpm', 'node worker threads', 'the database migration'];
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, texts.length);
    for (const v of vectors) {
      assert.equal(v.length, 512);
      assert.ok(Math.abs(Math.hypot(...Array.from(v)) - 1) < 1e-5);
    }
    assert.ok(cosine(vectors[0] as Float32Array, vectors[5] as Float32Array) > 0.99999);
    assert.ok(cosine(vectors[0] as Float32Array, vectors[1] as Float32Array) < 0.9);
    assert.ok((embedder.loadMs ?? 0) > 0);
  });

  it('once the model is loaded, posts an embed to the worker before returning, so the worker runs while the caller goes on', async () => {
    await embedder.embed(['load the model first']);
    const post = Worker.prototype.postMessage;
    let posted = 0;
    Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) { posted++; return post.apply(this, args); };
    let pending: Promise<Float32Array[]>;
    try {
      pending = embedder.embed(['recall runs its lexical arm meanwhile']);
      // Still in the caller's synchronous turn: awaiting anything first would post it only after
      // the caller's own work (recall's lexical arm) had finished.
      assert.equal(posted, 1);
    } finally {
      Worker.prototype.postMessage = post;
    }
    assert.equal((await pending)[0]?.length, 512);
  });

  it('keeps input order when it batches texts by length', async () => {
    const texts = ['a much longer text about the database migration and the deploy port', 'short', 'medium length text here', 'x'];
    const together = await embedder.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await embedder.embed([texts[i] as string]);
      assert.ok(cosine(together[i] as Float32Array, alone as Float32Array) > 0.99999, `text ${i}`);
    }
  });

  it('returns an empty list for no texts and rejects non-strings with E_INVALID_INPUT', async () => {
    assert.deepEqual(await embedder.embed([]), []);
    await assert.rejects(embedder.embed([42 as unknown as string]), isCode('E_INVALID_INPUT'));
  });

  it('stops at the next batch boundary when the signal aborts', async () => {
    const controller = new AbortController();
    const texts = Array.from({ length: 40 }, (_, i) => `memory ${i}`);
    const pending = embedder.embed(texts, { signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, isCode('E_CANCELLED'));
    // The worker stays usable afterwards.
    assert.equal((await embedder.embed(['still works'])).length, 1);
  });

  it('reloads after dispose', async () => {
    await embedder.dispose();
    assert.equal((await embedder.embed(['again'])).length, 1);
  });

  it('fails with E_MODEL_MISSING for a folder without the model, and recovers on the next call', async () => {
    const missing = new WorkerEmbedder({ modelDir: '/nonexistent/model' });
    await assert.rejects(missing.embed(['x']), isCode('E_MODEL_MISSING'));
    await assert.rejects(missing.embed(['x']), isCode('E_MODEL_MISSING'));
    await missing.dispose();
  });
});

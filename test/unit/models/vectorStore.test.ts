import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { MemoryError } from '../../../src/core/errors';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import type { Embedder } from '../../../src/core/models/embedder';
import { reembedStale } from '../../../src/core/models/reembed';
import {
  blobToVector, countStaleVectors, decodeVector, deleteVectorsOfOtherModels, listStaleVectors, memoryVectors, upsertMemoryVector, vectorToBlob,
} from '../../../src/core/models/vectorStore';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

/** A deterministic fake embedder: vector = [length, id-tag, 1], normalised. */
function fakeEmbedder(id: string, calls: string[][] = []): Embedder {
  return {
    id,
    dims: 3,
    embed: async (texts, options) => {
      if (options?.signal?.aborted) throw new MemoryError('E_CANCELLED', 'cancelled');
      calls.push([...texts]);
      return texts.map((t) => {
        const v = Float32Array.from([t.length, id.length, 1]);
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      });
    },
    dispose: async () => undefined,
  };
}

describe('vector storage and re-embedding', () => {
  let store: MemoryStore;
  const clock = new ManualClock();
  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await store.write('seed', (w) => {
      for (let i = 0; i < 7; i++) insertMemory(w, { id: `m${i}`, content: `memory number ${i} ${'x'.repeat(i)}`, createdAt: '2026-01-01T00:00:00.000Z' });
    });
  });
  afterEach(async () => { await store.close(); });

  it('stores int8 (scale + one byte a component) within half a step of each component, and zero vectors as zero', () => {
    const v = Float32Array.from([0.5, -1.25, 3e-8, 0.031, -0.77]);
    const blob = vectorToBlob(v);
    assert.equal(blob.byteLength, 4 + 5);
    const back = blobToVector(blob, 5);
    const step = 1.25 / 127;
    v.forEach((x, i) => assert.ok(Math.abs((back[i] as number) - x) <= step / 2 + 1e-7, `${i}: ${back[i]} vs ${x}`));
    assert.equal(back[1], -1.25, 'the largest component is exact');
    const unaligned = new Uint8Array(10).subarray(1);
    unaligned.set(blob);
    assert.deepEqual(blobToVector(unaligned, 5), back);
    assert.deepEqual(blobToVector(vectorToBlob(new Float32Array(4)), 4), new Float32Array(4));
  });

  it('reads float32 rows written before int8 storage', () => {
    const v = Float32Array.from([0.5, -1.25, 3e-8]);
    const blob = vectorToBlob(v, 'float32');
    assert.equal(blob.byteLength, 12);
    assert.deepEqual(blobToVector(blob, 3), v);
    const unaligned = new Uint8Array(13).subarray(1);
    unaligned.set(blob);
    assert.deepEqual(blobToVector(unaligned), v);
  });

  it('rejects a BLOB whose length does not match with E_STORE_CORRUPT', () => {
    assert.throws(() => blobToVector(new Uint8Array(5)), (e: unknown) => e instanceof MemoryError && e.code === 'E_STORE_CORRUPT');
    assert.throws(() => blobToVector(new Uint8Array(8), 3), (e: unknown) => e instanceof MemoryError && e.code === 'E_STORE_CORRUPT');
    assert.equal(decodeVector(new Uint8Array(9), 3), undefined);
  });

  it('lists every live memory as stale for a model with no vectors, and none once embedded', async () => {
    assert.equal(store.read((db) => countStaleVectors(db, 'model-a')), 7);
    const result = await reembedStale(store, fakeEmbedder('model-a'), { clock, batchSize: 3 });
    assert.deepEqual(result, { embedded: 7, remaining: 0, cancelled: false });
    assert.deepEqual(store.read((db) => listStaleVectors(db, 'model-a')), []);
    const rows = store.read((db) => db.all<{ model_id: string; source_id: string; dimensions: number }>('SELECT model_id, source_id, dimensions FROM embeddings ORDER BY source_id'));
    assert.equal(rows.length, 7);
    assert.ok(rows.every((r) => r.model_id === 'model-a' && r.dimensions === 3));
  });

  it('marks vectors stale when the model changes and re-embeds in batches with progress', async () => {
    await reembedStale(store, fakeEmbedder('model-a'), { clock });
    const calls: string[][] = [];
    const progress: number[] = [];
    const result = await reembedStale(store, fakeEmbedder('model-b', calls), { clock, batchSize: 3, onProgress: (p) => progress.push(p.done) });
    assert.equal(result.embedded, 7);
    assert.deepEqual(calls.map((c) => c.length), [3, 3, 1]);
    assert.deepEqual(progress, [0, 3, 6, 7]);
    assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memories WHERE embedding_model = 'model-b'"))?.n, 7);
    // The old model's rows stay until deleted explicitly (nothing lost while re-embedding).
    assert.equal(await store.write('purge', (w) => deleteVectorsOfOtherModels(w, 'model-b')), 7);
  });

  it('stops between batches when cancelled, keeping what was written', async () => {
    const controller = new AbortController();
    const embedder = fakeEmbedder('model-a');
    const result = await reembedStale(store, embedder, {
      clock, batchSize: 2, signal: controller.signal, onProgress: (p) => { if (p.done >= 2) controller.abort(); },
    });
    assert.equal(result.cancelled, true);
    assert.equal(result.embedded, 2);
    assert.equal(result.remaining, 5);
  });

  it('treats an edited memory as stale again and replaces its old vector', async () => {
    await reembedStale(store, fakeEmbedder('model-a'), { clock });
    await store.write('edit', (w) => w.run("UPDATE memories SET content = 'changed text', content_hash = 'new-hash' WHERE id = 'm1'"));
    assert.deepEqual(store.read((db) => listStaleVectors(db, 'model-a')).map((m) => m.id), ['m1']);
    await reembedStale(store, fakeEmbedder('model-a'), { clock });
    const rows = store.read((db) => db.all<{ content_hash: string }>("SELECT content_hash FROM embeddings WHERE source_id = 'm1'"));
    assert.deepEqual(rows.map((r) => r.content_hash), ['new-hash']);
  });

  it('reads cached vectors by memory id for the embedding reranker', async () => {
    await store.write('v', (w) => upsertMemoryVector(w, 'model-a', {
      memoryId: 'm2', contentHash: w.get<{ h: string }>("SELECT content_hash AS h FROM memories WHERE id = 'm2'")?.h as string, vector: Float32Array.from([1, 0, 0]),
    }, '2026-01-02T00:00:00.000Z'));
    const vectors = store.read((db) => memoryVectors(db, 'model-a', ['m1', 'm2']));
    assert.deepEqual([...vectors.keys()], ['m2']);
    assert.deepEqual(vectors.get('m2'), Float32Array.from([1, 0, 0]));
  });
});

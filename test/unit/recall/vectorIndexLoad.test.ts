/**
 * The vector index's first load (docs/store.md, "recall --stdin at 100k"): it reads the table in
 * batches and decodes through one scratch vector, and must end up row for row where one read of
 * every row ends up; recall brings the index up to date while the query is still being embedded.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import type { Embedder } from '../../../src/core/models/embedder';
import { decodeVector, vectorToBlob } from '../../../src/core/models/vectorStore';
import { recallDetailed } from '../../../src/core/recall/recallService';
import { VectorIndex } from '../../../src/core/recall/vectorIndex';
import { VectorMatrix } from '../../../src/core/recall/vectorMatrix';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlReader } from '../../../src/core/store/storeTypes';
import { insertMemory, seed } from './recallDb';

const DIMS = 8;
let state = 7;
const rnd = (): number => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return state / 2 ** 32 - 0.5; };
const randomVector = (): Float32Array => Float32Array.from({ length: DIMS }, rnd);

describe('vector index: first load', () => {
  let store: MemoryStore;
  beforeEach(async () => { store = await openMemoryStore({ clock: new ManualClock() }); });
  afterEach(async () => { await store.close(); });

  it('loads more rows than one batch holds in batches, row for row as one read of every row', async () => {
    const n = 5000;
    await seed(store, (w) => {
      for (let i = 0; i < n; i++) {
        insertMemory(w, { id: `m${i}`, content: `note ${i}` });
        // int8 rows, float32 rows written before int8 storage, another model's rows and rows of
        // the wrong width (skipped), interleaved so batch boundaries fall between all of them.
        const blob = vectorToBlob(randomVector(), i % 7 === 0 ? 'float32' : 'int8');
        const model = i % 11 === 0 ? 'other-model' : 'test-model';
        w.run('INSERT INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [`h-${i}`, model, blob, i % 13 === 0 ? DIMS + 1 : DIMS, 'memory', `m${i}`, '2026-01-01T00:00:00.000Z']);
      }
    });
    const statements: string[] = [];
    const counting = (db: SqlReader): SqlReader => ({ all: (sql, p) => { statements.push(sql); return db.all(sql, p); }, get: (sql, p) => db.get(sql, p), hasTable: (t) => db.hasTable(t) });
    const idx = new VectorIndex('test-model', DIMS);
    store.read((db) => idx.sync(counting(db)));

    // What reading every row at once and decoding each into its own vector gives.
    const expected = new VectorMatrix(DIMS);
    let skipped = 0;
    store.read((db) => {
      for (const r of db.all<{ source_id: string; vector: Uint8Array; dimensions: number }>("SELECT source_id, vector, dimensions FROM embeddings WHERE model_id = 'test-model' ORDER BY rowid")) {
        const v = r.dimensions === DIMS ? decodeVector(r.vector, DIMS) : undefined;
        if (v) expected.upsert(r.source_id, v); else skipped++;
      }
    });
    assert.ok(statements.length >= 2, `read in batches (${statements.length} statement(s))`);
    assert.equal(idx.size, expected.size);
    assert.equal(idx.skipped, skipped);
    for (let i = 0; i < n; i++) assert.deepEqual(idx.vectors.row(`m${i}`), expected.row(`m${i}`), `m${i}`);
    const q = expected.row('m1') as Float32Array;
    assert.deepEqual(idx.vectors.topK(q, 50), expected.topK(q, 50));

    // A later sync adds only the new row.
    await seed(store, (w) => {
      insertMemory(w, { id: 'late', content: 'late note' });
      w.run('INSERT INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ['h-late', 'test-model', vectorToBlob(randomVector()), DIMS, 'memory', 'late', '2026-01-01T00:00:00.000Z']);
    });
    store.read((db) => idx.sync(db));
    assert.equal(idx.size, expected.size + 1);
  });

  it('recall loads the index while the query is still being embedded', async () => {
    await seed(store, (w) => {
      for (let i = 0; i < 3; i++) {
        insertMemory(w, { id: `m${i}`, content: `deploy note ${i}` });
        w.run('INSERT INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [`h-${i}`, 'held-model', vectorToBlob(randomVector()), DIMS, 'memory', `m${i}`, '2026-01-01T00:00:00.000Z']);
      }
    });
    let release: (() => void) | undefined;
    let embedding: (() => void) | undefined;
    const asked = new Promise<void>((resolve) => { embedding = resolve; });
    const held: Embedder = {
      id: 'held-model', dims: DIMS,
      embed: (texts) => { embedding?.(); return new Promise((resolve) => { release = () => resolve(texts.map(() => randomVector())); }); },
      dispose: async () => undefined,
    };
    const vectors = new VectorIndex('held-model', DIMS);
    const out = recallDetailed(store, { query: 'deploy note' }, { clock: new ManualClock(), embedder: held, vectors });
    await asked;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(vectors.size, 3, 'the index was loaded before the query vector arrived');
    (release as () => void)();
    const result = await out;
    assert.equal(result.items.length, 3);
  });
});

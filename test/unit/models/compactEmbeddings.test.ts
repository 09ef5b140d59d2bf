import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { memoryVectors, upsertMemoryVector } from '../../../src/core/models/vectorStore';
import { MIGRATIONS, runMigrations } from '../../../src/core/store/migrations';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { COMPACT_EMBEDDINGS_MIGRATION_VERSION } from '../../../src/core/store/schema/compactEmbeddingsSchema';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

const T0 = '2026-01-01T00:00:00.000Z';
const vec = (seed: number): Float32Array => Float32Array.from({ length: 8 }, (_, i) => Math.sin(seed * 7 + i));
const columns = (s: MemoryStore): string[] => s.read((db) => db.all<{ name: string }>('PRAGMA table_info(embeddings)').map((c) => c.name));
const indexes = (s: MemoryStore): string[] => s.read((db) => db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'embeddings' AND name NOT LIKE 'sqlite_%' ORDER BY name").map((r) => r.name));
const rows = (s: MemoryStore): unknown[] => s.read((db) => db.all('SELECT rowid, content_hash, model_id, vector, dimensions, source_type, source_id, created_at FROM embeddings ORDER BY rowid'));

describe('migration 26: compact embeddings table', () => {
  it('drops the id column and the model index of a store written before it, keeping every vector and its rowid', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const older = await openMemoryStore({ clock, migrations: MIGRATIONS.filter((m) => m.version < COMPACT_EMBEDDINGS_MIGRATION_VERSION) });
    try {
      assert.ok(columns(older).includes('id'), 'the old layout has the id column');
      await older.write('seed', (w) => {
        for (let i = 0; i < 5; i++) {
          insertMemory(w, { id: `m${i}`, content: `memory ${i}`, createdAt: T0 });
          const hash = w.get<{ h: string }>('SELECT content_hash AS h FROM memories WHERE id = ?', [`m${i}`])?.h as string;
          w.run("INSERT INTO embeddings (id, content_hash, model_id, vector, dimensions, source_type, source_id, created_at) VALUES (?, ?, 'model-a', ?, 8, 'memory', ?, ?)",
            [`uuid-${i}`, hash, new Uint8Array(vec(i).buffer), `m${i}`, T0]);
        }
        w.run('DELETE FROM embeddings WHERE source_id = ?', ['m1']);
      });
      const before = rows(older);
      const migrated = await older.write('migrate', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }));
      assert.ok(migrated.applied.includes(COMPACT_EMBEDDINGS_MIGRATION_VERSION));
      assert.deepEqual(rows(older), before, 'same rows, same rowids (with the gap)');
      assert.ok(!columns(older).includes('id'));
      assert.deepEqual(indexes(older), ['idx_embeddings_source']);
      const got = older.read((db) => memoryVectors(db, 'model-a', ['m3']));
      assert.deepEqual([...(got.get('m3') ?? [])].map((x) => x.toFixed(5)), [...vec(3)].map((x) => x.toFixed(5)));
      await older.write('upsert', (w) => upsertMemoryVector(w, 'model-a', { memoryId: 'm1', contentHash: 'h-new', vector: vec(9) }, T0));
      await older.write('upsert again', (w) => upsertMemoryVector(w, 'model-a', { memoryId: 'm1', contentHash: 'h-new', vector: vec(10) }, T0));
      assert.equal(older.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM embeddings WHERE content_hash = 'h-new'")?.n), 1, 'the unique (content_hash, model_id) key still holds');
      assert.deepEqual((await older.write('again', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }))).applied, []);
    } finally {
      await older.close();
    }
  });

  it('a new store gets the compact layout', async () => {
    const store = await openMemoryStore({ clock: new ManualClock() });
    try {
      assert.deepEqual(columns(store), ['content_hash', 'model_id', 'vector', 'dimensions', 'source_type', 'source_id', 'chunk_text', 'created_at']);
      assert.deepEqual(indexes(store), ['idx_embeddings_source']);
    } finally {
      await store.close();
    }
  });
});

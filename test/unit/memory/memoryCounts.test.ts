import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { countDeletedMemories, countMemories, insertMemory } from '../../../src/core/memory/memoryRecords';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { storeRowCounts } from '../../../src/core/store/storeCounts';

const T0 = '2026-01-01T00:00:00.000Z';

describe('memory counts (migration 27: partial index of deleted memories)', () => {
  it('counts live and deleted memories from indexes, not a scan of the table', async () => {
    const store = await openMemoryStore({ clock: new ManualClock() });
    try {
      await store.write('seed', (w) => {
        for (let i = 0; i < 20; i++) insertMemory(w, { id: `m${i}`, content: `note ${i}`, createdAt: T0, ...(i % 2 ? { project: 'p' } : {}) });
        w.run("UPDATE memories SET is_deleted = 1, deleted_at = ? WHERE id IN ('m1', 'm2', 'm3')", [T0]);
      });
      store.read((db) => {
        assert.equal(countMemories(db), 17);
        assert.equal(countDeletedMemories(db), 3);
        assert.equal(storeRowCounts(db).deletedMemories, 3);
        assert.equal(countMemories(db, { project: 'p' }), 8);
        const plan = (sql: string): string => db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).map((r) => r.detail).join('; ');
        assert.match(plan('SELECT COUNT(*) AS n FROM memories WHERE is_deleted = 1'), /idx_memories_deleted/);
        assert.doesNotMatch(plan('SELECT COUNT(*) AS n FROM memories'), /SCAN memories$/, 'the total reads an index');
      });
    } finally {
      await store.close();
    }
  });
});

import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { ScanWordCounts } from '../../../src/core/extraction/memorySupersessionScan';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { openMemoryStore } from '../../../src/core/store/memoryStore';

const T0 = '2026-01-01T00:00:00.000Z';

describe('supersession scan word counts (memorySupersessionScan.ts ScanWordCounts)', () => {
  it('keeps a word\'s document count while the store stays within 2 % of its size, and reads it again past that', async () => {
    const store = await openMemoryStore({ clock: new ManualClock() });
    try {
      let n = 0;
      const add = (k: number): Promise<void> => store.write('seed', (w) => { for (let i = 0; i < k; i++, n++) insertMemory(w, { id: `m${n}`, content: `the retry queue holds job ${n}`, createdAt: T0 }); });
      await add(3);
      const counts = new ScanWordCounts();
      const count = (total: number): number => store.read((db) => counts.docCount(db, 'queue', total));
      assert.equal(count(10_000), 3);
      await add(2);
      assert.equal(count(10_000), 3, 'kept: the store did not change size');
      assert.equal(count(10_150), 3, 'kept: within 2 % of 10,000');
      assert.equal(count(9_850), 3, 'kept: within 2 % below');
      assert.equal(count(10_201), 5, 'read again past 2 %');
      await add(1);
      assert.equal(count(10_201 + 64), 5, 'at least 64 memories of slack');
      assert.equal(count(10_201 + 300), 6);
      assert.equal(store.read((db) => new ScanWordCounts().docCount(db, 'queue', 10)), 6, 'a new keeper reads afresh');
    } finally {
      await store.close();
    }
  });
});

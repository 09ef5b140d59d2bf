import { strict as assert } from 'node:assert';
import { porterStem } from '../../../src/core/recall/porterStemmer';
import { termStatsFor, uncachedTermStats } from '../../../src/core/recall/termStats';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { SqlReader } from '../../../src/core/store/storeTypes';
import { insertMemory } from './recallDb';

/** A reader that counts the statements it runs. */
function counting(db: SqlReader): { db: SqlReader; calls: () => number } {
  let n = 0;
  const wrapped: SqlReader = { ...db, get: (sql, params) => { n++; return db.get(sql, params); }, all: (sql, params) => { n++; return db.all(sql, params); } };
  return { db: wrapped, calls: () => n };
}

describe('term statistics kept between writes (termStats.ts)', () => {
  it('answers like fresh reads, reads each figure once, and reads again after any write', async () => {
    const store = await openMemoryStore();
    try {
      await store.write('t', (w) => {
        insertMemory(w, { id: 'a', content: 'deploys run through the release pipeline' });
        insertMemory(w, { id: 'b', content: 'the release train leaves on thursdays' });
      });
      const stats = termStatsFor(store);
      assert.equal(termStatsFor(store), stats, 'one per store');
      const term = porterStem('release');
      store.read((raw) => {
        const { db, calls } = counting(raw);
        assert.equal(stats.memoryCount(db), uncachedTermStats.memoryCount(raw));
        assert.equal(stats.docCount(db, term), 2);
        assert.equal(stats.docCount(db, term), uncachedTermStats.docCount(raw, term));
        assert.equal(stats.memoryCount(db), 2);
        // Each answer checks the connection's change count; the figures themselves are read once.
        assert.equal(calls(), 4 + 2, 'the count and the term were read once each');
      });
      await store.write('t', (w) => insertMemory(w, { id: 'c', content: 'a release checklist lives in the wiki' }));
      // Right after the write (its change event has not arrived yet).
      store.read((db) => {
        assert.equal(stats.memoryCount(db), 3, 'a write drops the kept figures');
        assert.equal(stats.docCount(db, term), 3);
      });
    } finally {
      await store.close();
    }
  });
});

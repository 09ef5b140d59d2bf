import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { VectorIndex } from '../../../src/core/recall/vectorIndex';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlReader } from '../../../src/core/store/storeTypes';
import { insertMemory, insertVector, seed } from './recallDb';

const unit = (i: number): Float32Array => Float32Array.from({ length: 4 }, (_, k) => (k === i % 4 ? 1 : 0));

/** A reader that counts the statements it runs, to see which change checks a sync made. */
function counting(db: SqlReader, seen: string[]): SqlReader {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (prop === 'get' || prop === 'all') seen.push(String(args[0]));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('vector index watching its store', () => {
  let store: MemoryStore;
  beforeEach(async () => {
    store = await openMemoryStore({ clock: new ManualClock() });
    await seed(store, (w) => {
      for (let i = 0; i < 3; i++) { insertMemory(w, { id: `m${i}`, content: `note ${i}` }); insertVector(w, `m${i}`, unit(i), 'test-model'); }
    });
  });
  afterEach(async () => { await store.close(); });

  const changeEvent = (): Promise<void> => new Promise((resolve) => { const d = store.onDidChange(() => { d.dispose(); resolve(); }); });

  it('skips the row count while nothing changed, and still sees new vectors and deletions', async () => {
    const idx = new VectorIndex('test-model', 4);
    idx.watch(store);
    const seen: string[] = [];
    store.read((db) => idx.sync(counting(db, seen)));
    assert.equal(idx.size, 3);
    assert.ok(seen.some((s) => s.includes('COUNT(*)')), 'the first sync counts');
    seen.length = 0;
    store.read((db) => idx.sync(counting(db, seen)));
    assert.ok(!seen.some((s) => s.includes('COUNT(*)')), 'an unchanged store is not counted again');

    let changed = changeEvent();
    await seed(store, (w) => { insertMemory(w, { id: 'm3', content: 'note 3' }); insertVector(w, 'm3', unit(3), 'test-model'); });
    await changed;
    store.read((db) => idx.sync(db));
    assert.equal(idx.size, 4, 'a new vector is picked up');

    changed = changeEvent();
    await seed(store, (w) => w.run("DELETE FROM embeddings WHERE source_id = 'm0'"));
    await changed;
    store.read((db) => idx.sync(db));
    assert.equal(idx.size, 3, 'a deletion is seen after the change event');
  });

  it('without watch() every sync counts, as before', () => {
    const idx = new VectorIndex('test-model', 4);
    const seen: string[] = [];
    store.read((db) => idx.sync(db));
    store.read((db) => idx.sync(counting(db, seen)));
    assert.ok(seen.some((s) => s.includes('COUNT(*)')));
  });
});

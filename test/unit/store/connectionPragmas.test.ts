import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { PAGE_CACHE_KIB } from '../../../src/core/store/memoryStore';
import { openStore } from '../../../src/core/store/openStore';
import type { DurableMemoryStore } from '../../../src/core/store/durableStore';
import { makeTempDir } from '../helpers/tempDir';

describe('store connection settings', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let store: DurableMemoryStore | undefined;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(async () => { await store?.close(); store = undefined; temp.cleanup(); });

  const pragma = (s: DurableMemoryStore, name: string): number => s.read((db) => Number(Object.values(db.get<Record<string, number>>(`PRAGMA ${name}`) ?? {})[0]));

  it('keeps a 16 MiB page cache and secure delete on open and after a snapshot (the engine reopens its database to export it)', async () => {
    store = await openStore({ dir: temp.dir, clock: new ManualClock() });
    assert.equal(PAGE_CACHE_KIB, 16_384);
    assert.equal(pragma(store, 'cache_size'), -PAGE_CACHE_KIB);
    await store.write('fill', (w) => { insertMemory(w, { content: 'the billing service uses PostgreSQL', createdAt: '2026-12-01T00:00:00.000Z' }); });
    await store.snapshot();
    assert.equal(pragma(store, 'cache_size'), -PAGE_CACHE_KIB);
    assert.equal(pragma(store, 'secure_delete'), 1);
  });
});

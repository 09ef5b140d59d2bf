import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { isMemoryError } from '../../../src/core/errors';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { openStore } from '../../../src/core/store/openStore';
import { currentEngineGeneration, engineReady, loadSqlEngine } from '../../../src/core/store/sqlEngine';
import type { DurableMemoryStore } from '../../../src/core/store/durableStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { makeTempDir } from '../helpers/tempDir';

const AT = '2026-12-01T00:00:00.000Z';

// The engine copies a statement's text onto its 5 MiB WebAssembly stack, so a statement of two
// million characters overflows it: a real trap ("memory access out of bounds") that leaves the
// instance's memory unusable, as the exec stack leak did (docs/store.md, "Engine traps").
const TRAPPING_SQL = `SELECT 1 /* ${'x'.repeat(2_000_000)} */`;

const storeCorrupt = (e: unknown): boolean => isMemoryError(e) && e.code === 'E_STORE_CORRUPT' && !/RuntimeError|memory access/.test(e.message);

const contents = (store: MemoryStore): string[] => store.read((db) => db.all<{ content: string }>('SELECT content FROM memories ORDER BY content').map((r) => r.content));

describe('engine trap recovery', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let store: DurableMemoryStore | undefined;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(async () => {
    try { await store?.close(); } finally { store = undefined; temp.cleanup(); }
    await loadSqlEngine();
  });

  it('after a trap the durable store rebuilds itself from disk in a new engine instance and loses nothing', async () => {
    store = await openStore({ dir: temp.dir, clock: new ManualClock() });
    await store.write('a', (w) => { insertMemory(w, { content: 'the billing service uses PostgreSQL', createdAt: AT }); });
    await store.write('b', (w) => { insertMemory(w, { content: 'the queue runs on RabbitMQ', createdAt: AT }); });
    const scratch = await openMemoryStore({ clock: new ManualClock() });
    const generation = currentEngineGeneration();

    assert.throws(() => store?.read((db) => db.get(TRAPPING_SQL)), storeCorrupt);
    assert.equal(currentEngineGeneration(), generation + 1, 'the instance that trapped is abandoned');
    // Another database of the same instance shares its memory: it refuses rather than read it.
    assert.throws(() => scratch.read((db) => db.get('SELECT 1 AS one')), storeCorrupt);
    await scratch.close();

    await loadSqlEngine();
    assert.equal(engineReady(), true);
    assert.deepEqual(contents(store), ['the billing service uses PostgreSQL', 'the queue runs on RabbitMQ']);
    await store.write('c', (w) => { insertMemory(w, { content: 'deploys go out on Tuesdays', createdAt: AT }); });
    await store.snapshot();
    await store.close();
    store = await openStore({ dir: temp.dir, clock: new ManualClock() });
    assert.deepEqual(contents(store), ['deploys go out on Tuesdays', 'the billing service uses PostgreSQL', 'the queue runs on RabbitMQ']);
  });

  it('a write right after a trap waits for the new instance and lands', async () => {
    store = await openStore({ dir: temp.dir, clock: new ManualClock() });
    await store.write('a', (w) => { insertMemory(w, { content: 'the billing service uses PostgreSQL', createdAt: AT }); });
    assert.throws(() => store?.read((db) => db.get(TRAPPING_SQL)), storeCorrupt);
    await store.write('b', (w) => { insertMemory(w, { content: 'the queue runs on RabbitMQ', createdAt: AT }); });
    assert.deepEqual(contents(store), ['the billing service uses PostgreSQL', 'the queue runs on RabbitMQ']);
  });

  it('stores opened after a trap work, and a second trap is recovered from too', async () => {
    store = await openStore({ dir: temp.dir, clock: new ManualClock() });
    await store.write('a', (w) => { insertMemory(w, { content: 'first', createdAt: AT }); });
    for (let round = 0; round < 2; round++) {
      assert.throws(() => store?.read((db) => db.get(TRAPPING_SQL)), storeCorrupt);
      const fresh = await openMemoryStore({ clock: new ManualClock() });
      await fresh.write('x', (w) => { insertMemory(w, { content: 'scratch', createdAt: AT }); });
      assert.deepEqual(contents(fresh), ['scratch']);
      await fresh.close();
      assert.deepEqual(contents(store), ['first']);
    }
  });
});

import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { countMemories, insertMemory } from '../../../src/core/memory/memoryRecords';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { openStore } from '../../../src/core/store/openStore';
import type { DurableMemoryStore } from '../../../src/core/store/durableStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { makeTempDir } from '../helpers/tempDir';

const AT = '2026-03-01T12:00:00.000Z';
const touch = (store: MemoryStore, content: string): Promise<unknown> =>
  store.writeLater('bump', (w) => insertMemory(w, { content, createdAt: AT }));
const seqOf = (s: DurableMemoryStore): number => s.stats().appliedSeq;

describe('deferred writes (writeLater)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  const open: DurableMemoryStore[] = [];
  const openIn = async (config = {}): Promise<DurableMemoryStore> => {
    const s = await openStore({ dir: temp.dir, clock: new ManualClock(), config });
    open.push(s);
    return s;
  };
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    temp.cleanup();
  });

  it('appends nothing until the delay, then commits in request order', async () => {
    const a = await openIn({ deferredWriteMs: 40 });
    const before = seqOf(a);
    const p1 = touch(a, 'first deferred note');
    const p2 = touch(a, 'second deferred note');
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(seqOf(a), before, 'no journal record yet');
    assert.equal(a.read((db) => countMemories(db)), 0);
    await Promise.all([p1, p2]);
    assert.equal(seqOf(a), before + 2);
    assert.deepEqual(a.read((db) => db.all<{ content: string }>('SELECT content FROM memories ORDER BY rowid').map((r) => r.content)), ['first deferred note', 'second deferred note']);
  });

  it('rides with the next write, before it, and is visible to it', async () => {
    const a = await openIn({ deferredWriteMs: 60_000 });
    const deferred = touch(a, 'deferred bookkeeping');
    const seen = await a.write('end', (w) => w.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n);
    assert.equal(seen, 1, 'the write saw the deferred row');
    await deferred;
  });

  it('is committed by flushDeferred and by close, and survives a reopen', async () => {
    const a = await openIn({ deferredWriteMs: 60_000 });
    void touch(a, 'flushed explicitly');
    await a.flushDeferred();
    assert.equal(a.read((db) => countMemories(db)), 1);
    void touch(a, 'flushed by close');
    await a.close();
    const b = await openIn();
    assert.equal(b.read((db) => countMemories(db)), 2);
  });

  it('rejects after close and a failing function rejects only its own promise', async () => {
    const a = await openIn({ deferredWriteMs: 60_000 });
    const bad = a.writeLater('bad', (w) => { w.run('INSERT INTO no_such_table VALUES (1)'); });
    const good = touch(a, 'still written');
    await a.flushDeferred();
    await assert.rejects(bad);
    await good;
    await a.close();
    await assert.rejects(touch(a, 'too late'), /closed/);
  });

  it('works the same on the in-memory store', async () => {
    const s = await openMemoryStore({ deferredWriteMs: 60_000 });
    const p = touch(s, 'in memory deferred');
    assert.equal(s.read((db) => countMemories(db)), 0);
    assert.equal(await s.write('next', (w) => w.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n), 1);
    await p;
    void touch(s, 'flushed on close');
    await s.close();
  });
});

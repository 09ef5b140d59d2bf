import { strict as assert } from 'node:assert';
import { statSync } from 'node:fs';
import { MemoryError } from '../../../src/core/errors';
import type { DurableMemoryStore } from '../../../src/core/store/durableStore';
import { journalPath } from '../../../src/core/store/journalTail';
import { openStore } from '../../../src/core/store/openStore';
import { HeldSyncFs } from '../helpers/heldSyncFs';
import { makeTempDir } from '../helpers/tempDir';

/** The current journal generation's size in bytes. */
function journalBytes(dir: string, store: DurableMemoryStore): number {
  return statSync(journalPath(dir, store.stats().journalGeneration)).size;
}

describe('journal fdatasync off the thread', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let store: DurableMemoryStore | undefined;
  let fs: HeldSyncFs;
  beforeEach(async () => {
    temp = makeTempDir();
    fs = new HeldSyncFs();
    store = await openStore({ dir: temp.dir, fs });
    await store.write('t', (w) => w.run("CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER)"));
  });
  afterEach(async () => { fs.hold = false; fs.release(); await store?.close(); store = undefined; temp.cleanup(); });

  it('reads are answered while a write syncs; the write resolves only once its record is durable', async () => {
    const s = store as DurableMemoryStore;
    const seq = s.stats().appliedSeq;
    fs.hold = true;
    let resolved = false;
    const write = s.write('t', (w) => w.run("INSERT INTO kv VALUES ('a', 1)")).then(() => { resolved = true; });
    await fs.entered();
    // The thread is free: a read runs (it sees this process's batch, whose transaction is open).
    assert.equal(s.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM kv')?.n), 1);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(resolved, false, 'not acknowledged before its fdatasync finished');
    assert.equal(s.stats().appliedSeq, seq, 'not counted as applied yet');
    fs.release();
    await write;
    assert.equal(s.stats().appliedSeq, seq + 1);
    // A second process replays it from disk.
    const other = await openStore({ dir: temp.dir });
    try { assert.equal(other.read((db) => db.get<{ v: number }>("SELECT v FROM kv WHERE k = 'a'")?.v), 1); } finally { await other.close(); }
  });

  it('a failed sync rolls the batch back, cuts its bytes off the journal and rejects with E_STORE_IO', async () => {
    const s = store as DurableMemoryStore;
    const before = journalBytes(temp.dir, s);
    fs.hold = true;
    fs.failNext = 'EIO';
    const write = s.write('t', (w) => w.run("INSERT INTO kv VALUES ('b', 2)"));
    await fs.entered();
    fs.release();
    await assert.rejects(write, (e: unknown) => e instanceof MemoryError && e.code === 'E_STORE_IO');
    fs.hold = false;
    assert.equal(s.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM kv')?.n), 0, 'rolled back');
    assert.equal(journalBytes(temp.dir, s), before, 'the unsynced record was cut off');
    await s.write('t', (w) => w.run("INSERT INTO kv VALUES ('c', 3)"));
    const other = await openStore({ dir: temp.dir });
    try { assert.deepEqual(other.read((db) => db.all('SELECT k FROM kv')), [{ k: 'c' }]); } finally { await other.close(); }
  });
});

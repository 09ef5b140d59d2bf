import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { openStore } from '../../../src/core/store/openStore';
import { createEngineDatabase, engineStackPointer } from '../../../src/core/store/sqlEngine';
import { SqlDatabase } from '../../../src/core/store/sqlDatabase';
import { makeTempDir } from '../helpers/tempDir';

// The engine's Database.exec keeps 16 bytes of its WebAssembly stack per call; without
// SqlDatabase giving them back, a long-lived process trapped after ~330,000 calls
// (docs/store.md, "Engine traps").
describe('engine stack', () => {
  it('exec leaves the engine stack pointer where it was, also when the statement fails', async () => {
    const db = new SqlDatabase(await createEngineDatabase());
    try {
      db.exec('CREATE TABLE t(a)');
      const before = engineStackPointer();
      assert.equal(typeof before, 'number');
      for (let i = 0; i < 1_000; i++) {
        db.exec('BEGIN');
        db.exec('INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)');
        db.exec('COMMIT');
      }
      assert.throws(() => db.exec('RELEASE no_such_savepoint'), /store query failed/);
      assert.equal(engineStackPointer(), before);
    } finally {
      db.close();
    }
  });

  it('runs 200,000 transactions in one process without exhausting the engine stack', async function () {
    this.timeout(60_000);
    const db = new SqlDatabase(await createEngineDatabase());
    try {
      db.exec('CREATE TABLE t(a)');
      // 400,000 exec calls: past the ~330,000 at which the stack used to overflow.
      for (let i = 0; i < 200_000; i++) {
        db.exec('BEGIN');
        db.exec('COMMIT');
      }
      assert.equal(db.get<{ n: number }>('SELECT count(*) AS n FROM t')?.n, 0);
      assert.equal(db.isBroken, false);
    } finally {
      db.close();
    }
  });

  it('a durable store keeps the stack pointer across writes and snapshots', async () => {
    const temp = makeTempDir();
    const store = await openStore({ dir: temp.dir, clock: new ManualClock() });
    try {
      await store.write('warm', (w) => { insertMemory(w, { content: 'warm-up', createdAt: '2026-12-01T00:00:00.000Z' }); });
      const before = engineStackPointer();
      for (let i = 0; i < 50; i++) {
        await store.write(`fill ${i}`, (w) => { insertMemory(w, { content: `the billing service note ${i}`, createdAt: '2026-12-01T00:00:00.000Z' }); });
        if (i % 10 === 9) await store.snapshot();
      }
      assert.equal(engineStackPointer(), before);
    } finally {
      try { await store.close(); } finally { temp.cleanup(); }
    }
  });
});

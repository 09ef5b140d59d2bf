/**
 * Open reads the snapshot once into one buffer and hands that buffer to the engine, which works in
 * it (sqlEngine.ts, ImageOwnership): no second full-image copy on open (196 MB at 100k memories,
 * docs/store.md "Open"). An image a caller keeps (the migrated template) is copied instead.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { openStore } from '../../../src/core/store/openStore';
import { SNAPSHOT_FILE, SNAPSHOT_HEADER_BYTES } from '../../../src/core/store/snapshotFile';
import { SqlDatabase } from '../../../src/core/store/sqlDatabase';
import { createEngineDatabase } from '../../../src/core/store/sqlEngine';
import { nodeStoreFs } from '../../../src/core/store/storeFs';
import type { StoreFs } from '../../../src/core/store/storeFs';
import { makeTempDir } from '../helpers/tempDir';

async function smallImage(): Promise<Uint8Array> {
  const db = new SqlDatabase(await createEngineDatabase());
  try {
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    db.run('INSERT INTO t (v) VALUES (?)', ['before']);
    return db.export();
  } finally {
    db.close();
  }
}

describe('opening a store: the snapshot image', () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(() => { temp.cleanup(); });

  it('the engine copies an image it is lent and works in an image it is given', async () => {
    const image = await smallImage();
    for (const ownership of ['copy', 'take'] as const) {
      const bytes = Buffer.from(image);
      const untouched = Buffer.from(bytes);
      const db = new SqlDatabase(await createEngineDatabase(bytes, ownership));
      try {
        db.run('UPDATE t SET v = ?', ['after, and longer than before']);
        assert.equal(db.get<{ v: string }>('SELECT v FROM t')?.v, 'after, and longer than before');
        // A taken image is the engine's file: its page writes land in these very bytes.
        if (ownership === 'copy') assert.ok(bytes.equals(untouched), 'a lent image is left as it was');
        else assert.ok(!bytes.equals(untouched), 'a taken image is written in place, so it was not copied');
      } finally {
        db.close();
      }
    }
  });

  it('openStore gives the engine the buffer it read the snapshot into, and still checks it', async () => {
    const first = await openStore({ dir: temp.dir });
    await first.write('seed', (w) => { insertMemory(w, { content: 'a note that the snapshot holds', createdAt: '2026-01-01T00:00:00.000Z' }); });
    await first.snapshot();
    await first.close();

    const reads: Buffer[] = [];
    const fs: StoreFs = { ...nodeStoreFs, readFileSync: (p) => { const b = nodeStoreFs.readFileSync(p); if (p === join(temp.dir, SNAPSHOT_FILE)) reads.push(b); return b; } };
    const store = await openStore({ dir: temp.dir, fs });
    try {
      assert.equal(reads.length, 1, 'the snapshot is read once');
      const read = reads[0] as Buffer;
      const image = Buffer.from(read.subarray(SNAPSHOT_HEADER_BYTES));
      // A write changes the database pages; with the engine working in the buffer open read, the
      // change shows there (a copy would leave it equal to the file's image).
      await store.write('edit', (w) => { w.run("UPDATE memories SET content = 'an edited note, longer than the first one was'"); });
      assert.ok(!read.subarray(SNAPSHOT_HEADER_BYTES).equals(image), 'the engine works in the buffer the snapshot was read into');
    } finally {
      await store.close();
    }

    // The checksum is still checked on that buffer: a flipped image byte is found at open.
    const path = join(temp.dir, SNAPSHOT_FILE);
    const bytes = readFileSync(path);
    bytes[SNAPSHOT_HEADER_BYTES + 100] = (bytes[SNAPSHOT_HEADER_BYTES + 100] as number) ^ 0xff;
    writeFileSync(path, bytes);
    const reopened = await openStore({ dir: temp.dir });
    try {
      assert.match(reopened.recovery?.message ?? '', /damaged \(image checksum mismatch\)/);
      assert.equal(reopened.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n), 1);
    } finally {
      await reopened.close();
    }
  });
});

import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { upsertMemoryVector, vectorToBlob } from '../../../src/core/models/vectorStore';
import { openStore } from '../../../src/core/store/openStore';
import { makeTempDir } from '../helpers/tempDir';

/**
 * Forget means gone (docs/store.md): after `agent-memory forget`, the forgotten text, its
 * normalised form and its vector bytes are in no file of the store folder. The test greps the raw
 * bytes of every file (journal generations, both snapshots, tip), so FTS shadow tables and freed
 * pages inside the snapshots are covered too.
 */
const AT = '2026-03-01T12:00:00.000Z';
const SECRET = 'Quokka-7f3a9c zebrafinch 31415 forgettable-passphrase';
const SECRET_WORD = 'zebrafinch';
const VECTOR = Float32Array.from({ length: 16 }, (_v, i) => 1234.5678 + i * 0.0137);

/** Every place a file of the folder contains `needle` (raw bytes). */
function hits(dir: string, needle: Buffer): string[] {
  const found: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (!statSync(p).isFile()) continue;
    if (readFileSync(p).includes(needle)) found.push(f);
  }
  return found;
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; } });
  return { code, out, err };
}

describe('forget means gone', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(() => temp.cleanup());

  it('leaves the forgotten text and vector in no store file, while other memories stay', async () => {
    const store = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' } });
    let id = '';
    try {
      for (let i = 0; i < 20; i++) await store.write('remember', (w) => insertMemory(w, { content: `ordinary memory ${i} about builds`, createdAt: AT }));
      await store.snapshot();
      id = (await store.write('remember', (w) => insertMemory(w, { content: SECRET, createdAt: AT }))).id;
      await store.write('embed', (w) => {
        const hash = w.get<{ content_hash: string }>('SELECT content_hash FROM memories WHERE id = ?', [id])?.content_hash as string;
        upsertMemoryVector(w, 'test-model', { memoryId: id, contentHash: hash, vector: VECTOR }, AT);
      });
      for (let i = 20; i < 30; i++) await store.write('remember', (w) => insertMemory(w, { content: `ordinary memory ${i} about builds`, createdAt: AT }));
      // The newest and the previous snapshot both hold it before the forget.
      await store.snapshot();
      await store.write('remember', (w) => insertMemory(w, { content: 'one more after the snapshot', createdAt: AT }));
    } finally {
      await store.close();
    }
    // The vector as the store keeps it (int8 with its scale: models/vectorStore.ts).
    const vectorBytes = Buffer.from(vectorToBlob(VECTOR));
    // No lowercased copy of the text is stored since migration 28 (memories.normalized_content is
    // gone), so that one is only checked after the forget.
    const needles = [Buffer.from(SECRET), Buffer.from(SECRET_WORD), vectorBytes, Buffer.from(vectorBytes.toString('base64'))];
    // The test can fail: before the forget every needle is somewhere in the folder.
    for (const n of needles) assert.ok(hits(temp.dir, n).length > 0, `before: ${n.toString('latin1').slice(0, 20)} is stored`);
    assert.ok(hits(temp.dir, Buffer.from(SECRET)).includes('snapshot.amsnap'));

    const r = await cli(['--store', temp.dir, 'forget', id]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Forgot .*1 vector\(s\)/);
    assert.match(r.out, /store files were rewritten without it/);
    for (const n of [...needles, Buffer.from(SECRET.toLowerCase())]) assert.deepEqual(hits(temp.dir, n), [], `after: ${n.toString('latin1').slice(0, 20)} is gone from every file`);

    const again = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' } });
    try {
      assert.equal(again.recovery, undefined, again.recovery?.message);
      assert.equal(again.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memories WHERE content LIKE 'ordinary memory %'")?.n), 30);
      assert.equal(again.read((db) => db.all("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'builds'").length), 30, 'the FTS index still finds the others');
      assert.equal(again.read((db) => db.all(`SELECT rowid FROM memories_fts WHERE memories_fts MATCH '${SECRET_WORD}'`).length), 0);
      // The store keeps working after the purge, and a later snapshot does not bring anything back.
      await again.write('remember', (w) => insertMemory(w, { content: 'written after the purge', createdAt: AT }));
      await again.snapshot();
    } finally {
      await again.close();
    }
    for (const n of needles) assert.deepEqual(hits(temp.dir, n), []);
  });

  it('another open process follows a purge without treating the deleted journal as damage', async () => {
    const a = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' } });
    const b = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' } });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await a.write('remember', (w) => insertMemory(w, { content: `shared ${i}`, createdAt: AT }))).id);
      const secret = (await a.write('remember', (w) => insertMemory(w, { content: SECRET, createdAt: AT }))).id;
      b.refresh();
      await a.write('forget', (w) => { w.run('DELETE FROM memories WHERE id = ?', [secret]); });
      ids.push((await a.write('remember', (w) => insertMemory(w, { content: 'just before the purge', createdAt: AT }))).id);
      await a.purgeDeleted();
      // b still reads the deleted generation; its next write must follow, not repair.
      const fromB = (await b.write('remember', (w) => insertMemory(w, { content: 'from b after the purge', createdAt: AT }))).id;
      assert.equal(b.recovery, undefined, b.recovery?.message);
      assert.equal(b.read((db) => ids.filter((id) => !db.get('SELECT 1 AS x FROM memories WHERE id = ?', [id])).length), 0);
      a.refresh();
      assert.ok(a.read((db) => db.get('SELECT 1 AS x FROM memories WHERE id = ?', [fromB])));
    } finally {
      await a.close();
      await b.close();
    }
    const again = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' } });
    try {
      assert.equal(again.recovery, undefined, again.recovery?.message);
    } finally {
      await again.close();
    }
    assert.deepEqual(hits(temp.dir, Buffer.from(SECRET_WORD)), []);
  });

  it('after the first purge, a forget removes index entries in place: gone without merging the indexes, the previous snapshot a link to the newest', async () => {
    const store = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' } });
    try {
      for (let i = 0; i < 20; i++) await store.write('remember', (w) => insertMemory(w, { content: `ordinary memory ${i} about builds`, createdAt: AT }));
      const first = (await store.write('remember', (w) => insertMemory(w, { content: 'a first thing to forget', createdAt: AT }))).id;
      await store.write('forget', (w) => { w.run('DELETE FROM memories WHERE id = ?', [first]); });
      assert.equal((await store.purgeDeleted()).ftsOptimized, true, 'the first purge of a store merges the indexes once');
      // The secret is written (and snapshotted, and its entry moved by later index writes) only now.
      const id = (await store.write('remember', (w) => insertMemory(w, { content: SECRET, createdAt: AT }))).id;
      for (let i = 20; i < 40; i++) await store.write('remember', (w) => insertMemory(w, { content: `ordinary memory ${i} about builds ${SECRET_WORD.slice(0, 4)}`, createdAt: AT }));
      await store.snapshot();
      await store.write('remember', (w) => insertMemory(w, { content: 'one more after the snapshot', createdAt: AT }));
      for (const n of [SECRET, SECRET_WORD]) assert.ok(hits(temp.dir, Buffer.from(n)).length > 0, `before: ${n} is stored`);
      await store.write('forget', (w) => { w.run('DELETE FROM memories WHERE id = ?', [id]); });
      const purge = await store.purgeDeleted();
      assert.equal(purge.ftsOptimized, false, 'nothing left to merge');
      for (const n of [SECRET, SECRET_WORD, SECRET.toLowerCase()]) assert.deepEqual(hits(temp.dir, Buffer.from(n)), [], `after: ${n} is gone from every file`);
      const current = statSync(join(temp.dir, 'snapshot.amsnap'));
      const previous = statSync(join(temp.dir, 'snapshot.prev.amsnap'));
      assert.equal(previous.ino, current.ino, 'one snapshot written, under both names');
      assert.equal(store.read((db) => db.all("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'builds'").length), 40);
      // A later snapshot installs normally over the linked pair.
      await store.write('remember', (w) => insertMemory(w, { content: 'written after the purge', createdAt: AT }));
      await store.snapshot();
      assert.notEqual(statSync(join(temp.dir, 'snapshot.amsnap')).ino, statSync(join(temp.dir, 'snapshot.prev.amsnap')).ino);
    } finally {
      await store.close();
    }
    const again = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' } });
    try {
      assert.equal(again.recovery, undefined, again.recovery?.message);
      assert.equal(again.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n), 42);
      assert.equal(again.read((db) => db.all(`SELECT rowid FROM memories_fts WHERE memories_fts MATCH '${SECRET_WORD}'`).length), 0);
    } finally {
      await again.close();
    }
    for (const n of [SECRET, SECRET_WORD]) assert.deepEqual(hits(temp.dir, Buffer.from(n)), []);
  });
});

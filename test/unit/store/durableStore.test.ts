import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { isMemoryError } from '../../../src/core/errors';
import { countMemories, getMemory, insertMemory } from '../../../src/core/memory/memoryRecords';
import { reclaimableShare } from '../../../src/core/store/imagePages';
import { openStore } from '../../../src/core/store/openStore';
import { SNAPSHOT_HEADER_BYTES } from '../../../src/core/store/snapshotFile';
import { COMPACT_RECLAIMABLE_FRACTION, VACUUM_MIN_FREE_PAGES } from '../../../src/core/store/snapshotVacuum';
import type { DurableMemoryStore } from '../../../src/core/store/durableStore';
import type { StoreChange } from '../../../src/core/store/storeTypes';
import { makeTempDir } from '../helpers/tempDir';

const AT = '2026-03-01T12:00:00.000Z';

function remember(store: DurableMemoryStore, content: string): Promise<string> {
  return store.write('remember', (w) => insertMemory(w, { content, createdAt: AT })).then((o) => o.id);
}

function dump(store: DurableMemoryStore): unknown {
  return store.read((db) => ({
    memories: db.all('SELECT rowid, * FROM memories ORDER BY rowid'),
    fts: db.all("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'memory' ORDER BY rowid"),
    meta: db.all('SELECT * FROM meta ORDER BY key'),
  }));
}

describe('durable store', () => {
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

  it('keeps writes across close and reopen, with the same store id', async () => {
    const a = await openIn();
    const id = await remember(a, 'the build uses esbuild');
    const storeId = a.storeId;
    await a.close();
    const b = await openIn();
    assert.equal(b.storeId, storeId);
    assert.equal(b.read((db) => getMemory(db, id))?.content, 'the build uses esbuild');
    assert.equal(b.recovery, undefined);
  });

  it('shows one window the writes of another and fires an external change', async () => {
    const a = await openIn({ pollIntervalMs: 10 });
    const b = await openIn({ pollIntervalMs: 10 });
    const changes: StoreChange[] = [];
    b.onDidChange((c) => changes.push(c));
    const id = await remember(a, 'window A remembered this');
    assert.equal(b.read((db) => getMemory(db, id))?.content, 'window A remembered this');
    await new Promise((r) => setTimeout(r, 30));
    assert.ok(changes.some((c) => c.external && c.labels.includes('remember')));
  });

  it('replays to exactly the same rows, rowids and FTS index in every process', async () => {
    const a = await openIn();
    const b = await openIn();
    for (let i = 0; i < 20; i++) await remember(i % 2 ? a : b, `memory number ${i}`);
    await a.write('touch', (w) => w.run('UPDATE memories SET access_count = access_count + 1 WHERE content LIKE ?', ['%1%']));
    b.refresh();
    assert.deepEqual(dump(b), dump(a));
  });

  it('dedups against memories another process wrote', async () => {
    const a = await openIn();
    const b = await openIn();
    const first = await remember(a, 'shared fact');
    const second = await b.write('remember', (w) => insertMemory(w, { content: 'Shared fact.', createdAt: AT }));
    assert.deepEqual(second, { id: first, duplicate: true });
  });

  it('commits writes queued together as separate transactions and rejects only the failing one', async () => {
    const a = await openIn();
    const results = await Promise.allSettled([
      remember(a, 'one'),
      a.write('bad', () => { throw new Error('nope'); }),
      remember(a, 'two'),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    await a.close();
    const b = await openIn();
    assert.equal(b.read((db) => countMemories(db)), 2);
  });

  it('running the migrations again on reopen writes nothing to the journal', async () => {
    const a = await openIn();
    await remember(a, 'x');
    const seq = a.stats().appliedSeq;
    await a.close();
    const b = await openIn();
    assert.equal(b.stats().appliedSeq, seq);
  });

  it('rotates journal generations, snapshots, and deletes generations the previous snapshot covers', async () => {
    const config = { journalRotateBytes: 4096, snapshotEveryBytes: 4096, snapshotEveryRecords: 1_000_000, snapshotDelayMs: 0 };
    const a = await openIn(config);
    const lagging = await openIn(config);
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      ids.push(await remember(a, `rotating memory ${i} ${'x'.repeat(100)}`));
      if (i % 40 === 39) await a.snapshot();
    }
    await a.snapshot();
    const last = a.stats().lastSnapshot;
    assert.ok(last && last.seq === a.stats().appliedSeq && last.bytes > 0 && last.captureMs <= last.totalMs);
    const files = readdirSync(temp.dir);
    const generations = files.filter((f) => f.startsWith('journal.'));
    assert.ok(a.stats().journalGeneration > 5, 'expected several rotations');
    assert.ok(generations.length < a.stats().journalGeneration, `old generations kept: ${generations.join(',')}`);
    assert.ok(files.includes('snapshot.amsnap') && files.includes('snapshot.prev.amsnap'));
    // A process that was open all along follows the rotations (its open file survives deletion).
    assert.equal(lagging.read((db) => countMemories(db)), 120);
    await a.close();
    const b = await openIn(config);
    assert.equal(b.read((db) => ids.filter((id) => !getMemory(db, id)).length), 0);
  });

  it('removes temp files that dead processes left behind when it compacts', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const leftovers = [`snapshot.amsnap.${dead}.0badc0de.tmp`, `journal.00000009.${dead}.new`];
    for (const f of leftovers) writeFileSync(join(temp.dir, f), 'partial');
    const a = await openIn();
    await remember(a, 'something to snapshot');
    await a.snapshot();
    const files = readdirSync(temp.dir);
    for (const f of leftovers) assert.ok(!files.includes(f), `${f} was kept`);
  });

  it('snapshots on close only when due under the ifDue policy', async () => {
    const a = await openIn({ snapshotOnClose: 'ifDue' });
    await remember(a, 'small');
    await a.close();
    assert.ok(!readdirSync(temp.dir).includes('snapshot.amsnap'));
    const b = await openIn({ snapshotOnClose: 'always' });
    await remember(b, 'another');
    await b.close();
    assert.ok(readdirSync(temp.dir).includes('snapshot.amsnap'));
    const c = await openIn();
    assert.equal(c.read((db) => countMemories(db)), 2);
  });

  it('rebuilds from disk after a WASM engine trap, losing nothing acknowledged', async () => {
    const a = await openIn();
    const first = await remember(a, 'before the trap');
    const engine = (a as unknown as { replica: { db: { db: { exec: (sql: string) => unknown } } } }).replica.db.db;
    const exec = engine.exec.bind(engine);
    let armed = true;
    engine.exec = (sql) => {
      if (armed) { armed = false; throw Object.assign(new Error('memory access out of bounds'), { name: 'RuntimeError' }); }
      return exec(sql);
    };
    await assert.rejects(remember(a, 'during the trap'), (e) => isMemoryError(e, 'E_STORE_CORRUPT'));
    const second = await remember(a, 'after the trap');
    assert.ok(a.read((db) => getMemory(db, first) && getMemory(db, second)));
    assert.equal(a.read((db) => countMemories(db)), 2);
  });

  it('refuses writes whose function is async', async () => {
    const a = await openIn();
    await assert.rejects(a.write('async', (async () => 1) as never), /synchronous/);
  });

  it('vacuums a snapshot that would carry many free pages; rowids, rows and FTS matches are unchanged for a process opening it', async () => {
    const a = await openIn({ snapshotEveryRecords: 1_000_000, snapshotEveryBytes: 1 << 30 });
    await a.write('fill', (w) => { for (let i = 0; i < 1500; i++) insertMemory(w, { content: `memory number ${i} about the ${i % 7 === 0 ? 'deploy' : 'build'} pipeline and its ${'step '.repeat(i % 20)}`, createdAt: AT }); });
    await a.snapshot();
    const full = statSync(join(temp.dir, 'snapshot.amsnap')).size;
    await a.write('prune', (w) => w.run("DELETE FROM memories WHERE rowid % 10 <> 3"));
    const pragma = (name: string): number => a.read((db) => Number(Object.values(db.get<Record<string, number>>(`PRAGMA ${name}`) ?? {})[0] ?? 0));
    const [pages, freeBefore, pageSize] = [pragma('page_count'), pragma('freelist_count'), pragma('page_size')];
    assert.ok(freeBefore > 64 && freeBefore / pages > 0.1, `the delete left free pages (${freeBefore} of ${pages})`);
    await a.snapshot();
    const pruned = statSync(join(temp.dir, 'snapshot.amsnap')).size;
    assert.ok(pruned <= 64 + (pages - freeBefore) * pageSize && pruned < full, `snapshot ${pruned} bytes: no free pages carried (${pages} pages, ${freeBefore} free, full ${full})`);
    assert.equal(a.read((db) => db.get<{ freelist_count: number }>('PRAGMA freelist_count')?.freelist_count), 0);
    const b = await openIn();
    assert.deepEqual(dump(b), dump(a));
    assert.deepEqual(b.read((db) => db.all<{ rowid: number }>('SELECT rowid FROM memories ORDER BY rowid').slice(0, 3).map((r) => r.rowid)), [3, 13, 23], 'rowids kept');
    await remember(b, 'a memory written after the vacuum');
    a.refresh();
    assert.deepEqual(dump(a), dump(b), 'a replica that vacuumed and one that opened the vacuumed image replay to the same rows');
  });

  it('a compaction vacuums an image whose half-empty pages add up to a tenth of it, even at the same position; a compact image is left alone', async () => {
    const a = await openIn({ snapshotEveryRecords: 1_000_000, snapshotEveryBytes: 1 << 30 });
    for (let n = 0; n < 4; n++) {
      await a.write('fill', (w) => { for (let i = 0; i < 400; i++) insertMemory(w, { content: `memory ${n}-${i} about the ${i % 7 === 0 ? 'deploy' : 'build'} pipeline`, createdAt: new Date(Date.parse(AT) + (n * 400 + i) * 1000).toISOString() }); });
    }
    const file = join(temp.dir, 'snapshot.amsnap');
    const imageOf = (): { image: Uint8Array; reclaimable: number } => {
      const bytes = readFileSync(file).subarray(SNAPSHOT_HEADER_BYTES);
      const roots = a.read((db) => db.all<{ rootpage: number }>('SELECT rootpage FROM sqlite_schema WHERE rootpage > 0').map((r) => r.rootpage));
      return { image: bytes, reclaimable: reclaimableShare(bytes, roots) };
    };
    assert.equal(await a.snapshot(), true);
    const plain = imageOf();
    assert.ok((a.read((db) => db.get<{ n: number }>('SELECT freelist_count AS n FROM pragma_freelist_count')?.n) ?? 0) < VACUUM_MIN_FREE_PAGES, 'too few free pages for a plain snapshot to vacuum');
    assert.ok(plain.reclaimable >= COMPACT_RECLAIMABLE_FRACTION, `the indexes filled in key order are half empty (${plain.reclaimable.toFixed(3)} reclaimable)`);
    assert.equal(await a.snapshot(), false, 'nothing new: a plain snapshot is not taken');
    assert.equal(await a.snapshot({ compact: true }), true, 'the compaction replaces the snapshot of the same position');
    const compacted = imageOf();
    assert.ok(compacted.image.length < plain.image.length && compacted.reclaimable < COMPACT_RECLAIMABLE_FRACTION, `${plain.image.length} → ${compacted.image.length} bytes, ${compacted.reclaimable.toFixed(3)} reclaimable`);
    assert.equal(await a.snapshot({ compact: true }), false, 'a compact image at the same position is not rewritten');
    const b = await openIn();
    assert.deepEqual(dump(b), dump(a));
    await remember(b, 'a memory written after the compaction');
    a.refresh();
    assert.deepEqual(dump(a), dump(b), 'the vacuumed image and the replica that vacuumed replay to the same rows');
  });
});

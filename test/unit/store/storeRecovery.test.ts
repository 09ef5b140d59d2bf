import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, existsSync, utimesSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isMemoryError } from '../../../src/core/errors';
import { createRecordingLogger } from '../../../src/core/logger';
import { countMemories, getMemory, insertMemory } from '../../../src/core/memory/memoryRecords';
import { MIGRATIONS } from '../../../src/core/store/migrations';
import { openStore } from '../../../src/core/store/openStore';
import type { OpenStoreOptions } from '../../../src/core/store/openStore';
import type { DurableMemoryStore } from '../../../src/core/store/durableStore';
import { encodeRecord } from '../../../src/core/store/journalCodec';
import { FaultyFs } from '../helpers/faultyFs';
import { makeTempDir } from '../helpers/tempDir';

const AT = '2026-03-01T12:00:00.000Z';
const JOURNAL = 'journal.00000001';

function remember(store: DurableMemoryStore, content: string): Promise<string> {
  return store.write('remember', (w) => insertMemory(w, { content, createdAt: AT })).then((o) => o.id);
}

/** Every file of the folder with a hash of its bytes (to prove a refused store was left untouched). */
function folderState(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) out[f] = createHash('sha256').update(readFileSync(join(dir, f))).digest('hex');
  return out;
}

describe('store recovery and failure modes', () => {
  let temp: ReturnType<typeof makeTempDir>;
  const opened: DurableMemoryStore[] = [];
  const openIn = async (extra: Partial<OpenStoreOptions> = {}): Promise<DurableMemoryStore> => {
    const s = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' }, ...extra });
    opened.push(s);
    return s;
  };
  const seed = async (n: number, snapshots = 0): Promise<string[]> => {
    const s = await openIn();
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push(await remember(s, `seeded memory ${i}`));
      if (snapshots > 0 && i === Math.floor(n / 2)) for (let k = 0; k < snapshots; k++) { await remember(s, `snap ${k}`); await s.snapshot(); }
    }
    await s.close();
    return ids;
  };
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    temp.cleanup();
  });

  it('recovers from a truncated snapshot using the journal, losing nothing', async () => {
    const ids = await seed(30, 1);
    const snap = join(temp.dir, 'snapshot.amsnap');
    truncateSync(snap, Math.floor(statSync(snap).size / 2));
    const logger = createRecordingLogger();
    const s = await openIn({ logger });
    assert.ok(s.recovery, 'expected a recovery report');
    assert.equal(s.recovery.lostRecords, 0);
    assert.equal(s.recovery.openedFrom, 'journal only');
    assert.match(s.recovery.message, /snapshot\.amsnap is damaged \(truncated/);
    assert.match(s.recovery.message, /No acknowledged write was lost/);
    assert.equal(s.read((db) => ids.filter((id) => !getMemory(db, id)).length), 0);
    assert.ok(s.recovery.damagedFiles.some((f) => /snapshot\.amsnap\.damaged-\d{4}-/.test(f) && existsSync(f)));
    assert.ok(!existsSync(snap));
    assert.ok(logger.lines.some((l) => l.level === 'warn' && l.message.startsWith('Memory store recovered')));
  });

  it('falls back to the previous snapshot when the newest one is damaged', async () => {
    const ids = await seed(30, 2);
    const snap = join(temp.dir, 'snapshot.amsnap');
    const bytes = readFileSync(snap);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] as number) ^ 0xff;
    writeFileSync(snap, bytes);
    const s = await openIn();
    assert.equal(s.recovery?.openedFrom, 'previous snapshot');
    assert.match(s.recovery?.message ?? '', /image checksum mismatch/);
    assert.equal(s.recovery?.lostRecords, 0);
    assert.equal(s.read((db) => countMemories(db)), 32);
    assert.equal(s.read((db) => ids.filter((id) => !getMemory(db, id)).length), 0);
  });

  it('cuts a journal tail with flipped bytes, keeps it aside and reports the loss', async () => {
    const ids = await seed(10);
    const path = join(temp.dir, JOURNAL);
    const bytes = readFileSync(path);
    bytes[bytes.length - 20] = (bytes[bytes.length - 20] as number) ^ 0x5a;
    writeFileSync(path, bytes);
    const s = await openIn();
    assert.ok(s.recovery);
    assert.equal(s.recovery.lostRecords, 1);
    assert.match(s.recovery.message, /tip records 11 as the last acknowledged record.*1 acknowledged transaction\(s\) were lost/);
    const aside = s.recovery.damagedFiles[0] as string;
    assert.match(aside, /journal\.00000001\.damaged-/);
    assert.ok(readFileSync(aside).length > 0);
    assert.equal(s.read((db) => ids.slice(0, 9).filter((id) => !getMemory(db, id)).length), 0);
    assert.equal(s.read((db) => getMemory(db, ids[9] as string)), undefined);
    // The store keeps working and the next open is clean.
    const more = await remember(s, 'after the repair');
    await s.close();
    const again = await openIn();
    assert.equal(again.recovery, undefined);
    assert.ok(again.read((db) => getMemory(db, more)));
  });

  it('cuts the torn tail of an interrupted append without reporting a loss', async () => {
    await seed(5);
    const path = join(temp.dir, JOURNAL);
    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.from([200, 0, 0, 0, 1, 2, 3])]));
    const s = await openIn();
    assert.equal(s.recovery?.lostRecords, 0);
    assert.match(s.recovery?.message ?? '', /interrupted before it was acknowledged/);
    assert.equal(s.read((db) => countMemories(db)), 5);
  });

  it('repairs a journal cut while the store is open from the open copy, and never appends past the end', async () => {
    const s = await openIn();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await remember(s, `open while cut ${i}`));
    const path = join(temp.dir, JOURNAL);
    truncateSync(path, Math.floor(statSync(path).size / 2));
    const after = await remember(s, 'written after the cut');
    assert.ok(s.recovery, 'the repair is reported');
    assert.equal(s.recovery.openedFrom, 'running replica');
    assert.equal(s.recovery.lostRecords, 0, s.recovery.message);
    assert.match(s.recovery.message, /shrank/);
    await s.close();
    const again = await openIn();
    assert.equal(again.recovery, undefined, again.recovery?.message);
    assert.equal(again.read((db) => [...ids, after].filter((id) => !getMemory(db, id)).length), 0, 'this process re-persisted what the disk lost');
  });

  it('reports a journal deleted while another process reads it, and the reader follows the repair', async () => {
    const writer = await openIn();
    const reader = await openIn();
    for (let i = 0; i < 5; i++) await remember(writer, `before ${i}`);
    reader.refresh();
    rmSync(join(temp.dir, JOURNAL));
    const id = await remember(writer, 'after the deletion');
    assert.match(writer.recovery?.message ?? '', /is missing/);
    reader.refresh();
    const late = await remember(reader, 'from the reader');
    assert.ok(reader.read((db) => getMemory(db, id)), 'the reader sees the writer\'s write in the new generation');
    assert.ok(writer.read((db) => getMemory(db, late)));
  });

  it('skips a journal record that cannot be replayed and keeps the records around it', async () => {
    const s0 = await openIn();
    await remember(s0, 'before');
    const seq = s0.stats().appliedSeq;
    await s0.close();
    const insert = 'INSERT INTO memories (id, content, created_at, updated_at) VALUES (?, ?, ?, ?)';
    appendFileSync(join(temp.dir, JOURNAL), Buffer.concat([
      encodeRecord(seq + 1, { k: 'tx', l: 'good', s: [{ sql: insert, params: ['g1', 'good one', AT, AT] }] }),
      encodeRecord(seq + 2, { k: 'tx', l: 'bad', s: [{ sql: insert, params: ['b1', null, AT, AT] }] }),
      encodeRecord(seq + 3, { k: 'tx', l: 'good', s: [{ sql: insert, params: ['g2', 'good two', AT, AT] }] }),
    ]));
    const logger = createRecordingLogger();
    const s = await openIn({ logger });
    assert.deepEqual(s.read((db) => db.all<{ id: string }>("SELECT id FROM memories WHERE id IN ('g1', 'b1', 'g2') ORDER BY id").map((r) => r.id)), ['g1', 'g2']);
    assert.equal(s.stats().appliedSeq, seq + 3);
    assert.ok(logger.lines.some((l) => l.level === 'error' && /record \d+ \(bad\) could not be replayed/.test(l.message)));
  });

  it('refuses a store written by a newer schema and leaves it untouched', async () => {
    await seed(3);
    const before = folderState(temp.dir);
    await assert.rejects(openStore({ dir: temp.dir, migrations: MIGRATIONS.slice(0, 1) }), (e) => isMemoryError(e, 'E_STORE_NEWER_SCHEMA') && /newer version/.test(e.message));
    assert.deepEqual(folderState(temp.dir), before);
  });

  it('refuses a newer snapshot from its header alone', async () => {
    const s = await openIn({ config: { snapshotOnClose: 'always' } });
    await remember(s, 'x');
    await s.close();
    const before = folderState(temp.dir);
    await assert.rejects(openStore({ dir: temp.dir, migrations: MIGRATIONS.slice(0, 2) }), (e) => isMemoryError(e, 'E_STORE_NEWER_SCHEMA'));
    assert.deepEqual(folderState(temp.dir), before);
  });

  it('upgrades a store from an older schema in place', async () => {
    const old = await openIn({ migrations: MIGRATIONS.slice(0, 1), config: { snapshotOnClose: 'always' } });
    const id = await remember(old, 'from the old days');
    assert.ok(!old.read((db) => db.hasTable('entities')));
    await old.close();
    const s = await openIn();
    assert.ok(s.read((db) => db.hasTable('entities') && db.hasTable('session_memories')));
    assert.equal(s.read((db) => getMemory(db, id))?.content, 'from the old days');
    const versions = s.read((db) => db.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version').map((r) => r.version));
    assert.deepEqual(versions, MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    const seq = s.stats().appliedSeq;
    await s.close();
    const again = await openIn();
    assert.equal(again.stats().appliedSeq, seq, 'a second open migrates nothing');
  });

  it('recovers a write lock left by a dead process', async () => {
    const s = await openIn();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(temp.dir, 'write.lock'), JSON.stringify({ pid: Number(dead), host: hostname(), token: 'dead', at: Date.now() }));
    await remember(s, 'written despite the stale lock');
    assert.ok(!existsSync(join(temp.dir, 'write.lock')));
  });

  it('recovers an empty lock file left by a process that died while creating it', async () => {
    const s = await openIn({ config: { emptyLockGraceMs: 10, snapshotOnClose: 'never' } });
    const lock = join(temp.dir, 'write.lock');
    writeFileSync(lock, '');
    const past = new Date(Date.now() - 60_000);
    utimesSync(lock, past, past);
    await remember(s, 'ok');
    assert.ok(!existsSync(lock));
  });

  it('times out with E_STORE_LOCKED while a live process holds the lock', async () => {
    const s = await openIn({ config: { lockTimeoutMs: 100, snapshotOnClose: 'never' } });
    writeFileSync(join(temp.dir, 'write.lock'), JSON.stringify({ pid: process.pid, host: hostname(), token: 'other', at: Date.now() }));
    await assert.rejects(remember(s, 'blocked'), (e) => isMemoryError(e, 'E_STORE_LOCKED') && /busy/.test(e.message));
    assert.equal(s.read((db) => countMemories(db)), 0);
  });

  it('reports a read-only folder clearly', async () => {
    const fs = new FaultyFs();
    fs.failAccess = 'EROFS';
    await assert.rejects(openStore({ dir: temp.dir, fs }), (e) => isMemoryError(e, 'E_STORE_READONLY') && e.message.includes(temp.dir));
  });

  it('reports a full disk and loses no acknowledged write', async () => {
    const fs = new FaultyFs();
    const s = await openIn({ fs });
    const kept = await remember(s, 'acknowledged before the disk filled up');
    fs.failWrites = 'ENOSPC';
    await assert.rejects(remember(s, 'does not fit'), (e) => isMemoryError(e, 'E_DISK_FULL') && /full/.test(e.message));
    assert.equal(s.read((db) => countMemories(db)), 1, 'the failed write is rolled back in memory too');
    fs.failWrites = undefined;
    const after = await remember(s, 'space was freed');
    await s.close();
    const again = await openIn();
    assert.equal(again.recovery, undefined, 'the partial record was removed, nothing to repair');
    assert.ok(again.read((db) => getMemory(db, kept) && getMemory(db, after)));
    assert.equal(again.read((db) => countMemories(db)), 2);
  });
});

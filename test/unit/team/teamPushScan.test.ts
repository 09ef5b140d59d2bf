import { strict as assert } from 'node:assert';
import { ManualClock, isoFromMs } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { DEFAULT_REDACTION_CONFIG } from '../../../src/core/config/redactionConfig';
import type { RedactionConfig } from '../../../src/core/config/redactionConfig';
import { forgetMemory, softDeleteMemory } from '../../../src/core/memory/forget';
import { contentHash, insertMemory } from '../../../src/core/memory/memoryRecords';
import { upsertMemoryVector } from '../../../src/core/models/vectorStore';
import { MIGRATIONS, runMigrations } from '../../../src/core/store/migrations';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { openStore } from '../../../src/core/store/openStore';
import { makeTempDir } from '../helpers/tempDir';
import type { MemoryStore, SqlParams, SqlReader, SqlWriter } from '../../../src/core/store/storeTypes';
import { applyPulled } from '../../../src/core/team/teamApply';
import type { IncomingRow } from '../../../src/core/team/teamApply';
import { FULL_SCAN_INTERVAL_MS, ackPushed, applyScan, planScan, pushAck, readOutbox, scanForPush, scanMode, shareMemory } from '../../../src/core/team/teamOutbox';
import type { ScanPlan } from '../../../src/core/team/teamOutbox';
import { TEAM_SCAN_MIGRATION, TEAM_SCAN_MIGRATION_VERSION, TEAM_SCAN_TRIGGERS } from '../../../src/core/team/teamScanMigration';
import { saveConnection, setProjectShared } from '../../../src/core/team/teamState';

const T0 = Date.UTC(2026, 11, 1);
const sorted = (p: ScanPlan) => ({ fresh: p.fresh.map((f) => f.id).sort(), changed: [...p.changed].sort(), gone: [...p.gone].sort() });
const dirtyRows = (s: MemoryStore): string[] => s.read((db) => db.all<{ memory_id: string }>('SELECT memory_id FROM team_dirty ORDER BY memory_id').map((r) => r.memory_id));

/** The server acknowledging every outbox entry as read now (same hash, with its vector when it had one). */
function ackAll(w: SqlWriter, nowIso: string): void {
  const items = readOutbox(w, 10_000, DEFAULT_REDACTION_CONFIG);
  ackPushed(w, items.map((i) => pushAck(i)), nowIso);
}

/**
 * The oracle: the marked-only plan equals the full plan (nothing missed, nothing extra), and is
 * what the next push queues; afterwards a full plan finds nothing left and nothing is marked.
 */
async function pushScanMatchesFull(store: MemoryStore, clock: ManualClock, expected: Partial<ReturnType<typeof sorted>>): Promise<void> {
  const projects = store.read((db) => JSON.parse(db.get<{ value: string }>("SELECT value FROM team_state WHERE key = 'shared_projects'")?.value ?? '[]') as string[]);
  assert.equal(store.read((db) => scanMode(db, projects, clock.now())), 'dirty');
  const full = store.read((db) => sorted(planScan(db, projects, 'full')));
  const dirty = store.read((db) => sorted(planScan(db, projects, 'dirty')));
  assert.deepEqual(dirty, full, 'the marked rows give the plan the full pass gives');
  assert.deepEqual({ ...full, ...expected }, full, 'the expected change is in the plan');
  const queued = await scanForPush(store, clock.now());
  assert.equal(queued, full.fresh.length + full.changed.length + full.gone.length);
  assert.deepEqual(store.read((db) => sorted(planScan(db, projects, 'full'))), { fresh: [], changed: [], gone: [] }, 'nothing left to queue');
  assert.deepEqual(dirtyRows(store), [], 'the scan emptied team_dirty in its write');
  await store.write('ack', (w) => ackAll(w, isoFromMs(clock.now())));
  await scanForPush(store, clock.now());
}

function pulled(id: string, seq: number, content: string, project = 'web'): IncomingRow {
  return { id, seq, author: 'alice', content, project, type: 'fact', content_hash: contentHash(content), tags: null, importance: 0.5, confidence: 1, created_at: isoFromMs(T0), deleted: false, model_id: null, dimensions: null, vector: null };
}

describe('team push scan (migration 29): only the memories changed since the last push', () => {
  let clock: ManualClock;
  let store: MemoryStore;
  const now = (): string => isoFromMs(clock.now());

  beforeEach(async () => {
    clock = new ManualClock(T0);
    store = await openMemoryStore({ clock });
    await store.write('seed', (w) => {
      saveConnection(w, 'postgresql://bob@db.example.com:5432/team', 'db.example.com:5432/team', 'bob');
      setProjectShared(w, 'web', true);
      for (let i = 0; i < 50; i++) insertMemory(w, { id: `m${i}`, content: `Web fact number ${i} about the deploy.`, project: 'web', createdAt: now() });
      for (let i = 0; i < 5; i++) insertMemory(w, { id: `p${i}`, content: `Personal note ${i}.`, project: 'scratch', createdAt: now() });
    });
    assert.equal(store.read((db) => scanMode(db, ['web'], clock.now())), 'full', 'no full pass recorded yet');
    assert.equal(await scanForPush(store, clock.now()), 50);
    await store.write('ack', (w) => ackAll(w, now()));
    await scanForPush(store, clock.now()); // the acknowledgements marked their rows
    assert.deepEqual(dirtyRows(store), []);
  });
  afterEach(async () => { await store.close(); });

  it('a memory whose text push-time redaction changes is sent once, without its vector, not again on every push', async () => {
    // Rules grown since the memory was remembered: the write path kept the text, the push redacts it.
    const grown: RedactionConfig = { enabled: true, rules: [...DEFAULT_REDACTION_CONFIG.rules, { name: 'ticket', pattern: 'TICKET-\\d+', flags: 'g', replacement: '[ticket]' }] };
    const content = 'Deploy notes for TICKET-4711 in web.';
    await store.write('remember', (w) => insertMemory(w, { id: 'r1', content, project: 'web', createdAt: now() }));
    await store.write('embed', (w) => upsertMemoryVector(w, 'test-model', { memoryId: 'r1', contentHash: contentHash(content), vector: new Float32Array([0.6, 0.8]) }, now()));
    assert.equal(await scanForPush(store, clock.now()), 1);
    const items = store.read((db) => readOutbox(db, 10, grown));
    assert.equal(items.length, 1);
    assert.equal(items[0]?.row.content, 'Deploy notes for [ticket] in web.');
    assert.equal(items[0]?.row.vector, null, 'the vector of the unredacted text stays here');
    await store.write('team.ack', (w) => ackPushed(w, items.map((i) => pushAck(i)), now()));
    await scanForPush(store, clock.now()); // the acknowledgement marked its row
    for (let sync = 0; sync < 3; sync++) assert.equal(await scanForPush(store, clock.now()), 0, `sync ${sync} queues nothing`);
    assert.deepEqual(store.read((db) => sorted(planScan(db, ['web'], 'full'))), { fresh: [], changed: [], gone: [] }, 'the full pass agrees: nothing changed');
    // An edit after that is still pushed.
    await store.write('edit', (w) => w.run('UPDATE memories SET content = ?, content_hash = ? WHERE id = ?', ['Deploy notes for TICKET-4712 in web.', contentHash('Deploy notes for TICKET-4712 in web.'), 'r1']));
    assert.equal(await scanForPush(store, clock.now()), 1);
  });

  it('an idle push queues nothing and writes nothing', async () => {
    let writes = 0;
    const sub = store.onDidChange(() => { writes++; });
    assert.equal(await scanForPush(store, clock.now()), 0);
    // A personal project's memory is not marked either.
    await store.write('personal', (w) => insertMemory(w, { content: 'Another personal note.', project: 'scratch', createdAt: now() }));
    assert.deepEqual(dirtyRows(store), []);
    writes = 0;
    assert.equal(await scanForPush(store, clock.now()), 0);
    sub.dispose();
    assert.equal(writes, 0, 'no write transaction');
  });

  it('the marked-only statements start from team_dirty and look everything else up by key', () => {
    const statements: { sql: string; params: SqlParams | undefined }[] = [];
    const spy = (db: SqlReader): SqlReader => ({
      all: (sql, params) => { statements.push({ sql, params }); return db.all(sql, params); },
      get: (sql, params) => db.get(sql, params),
      hasTable: (n) => db.hasTable(n),
    });
    store.read((db) => planScan(spy(db), ['web'], 'dirty'));
    assert.equal(statements.length, 3);
    for (const s of statements) {
      const plan = store.read((db) => db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${s.sql}`, s.params).map((r) => r.detail));
      const scans = plan.filter((d) => /^SCAN /.test(d));
      assert.ok(scans.length > 0 && scans.every((d) => /^SCAN d\b/.test(d)), `only team_dirty is scanned: ${plan.join(' | ')}`);
      assert.ok(!plan.some((d) => /idx_memories_project|idx_team_shares_state/.test(d)), `no walk of a project index: ${plan.join(' | ')}`);
    }
  });

  it('remembered, edited, re-embedded, soft-deleted and forgotten memories are queued', async () => {
    await store.write('remember', (w) => insertMemory(w, { id: 'new1', content: 'A new web fact.', project: 'web', createdAt: now() }));
    await pushScanMatchesFull(store, clock, { fresh: ['new1'] });

    const edited = 'Web fact number 3 about the deploy, corrected.';
    await store.write('edit', (w) => w.run('UPDATE memories SET content = ?, content_hash = ?, updated_at = ? WHERE id = ?', [edited, contentHash(edited), now(), 'm3']));
    await pushScanMatchesFull(store, clock, { changed: ['m3'] });

    const hash = store.read((db) => db.get<{ h: string }>("SELECT content_hash AS h FROM memories WHERE id = 'm4'")?.h ?? '');
    await store.write('embed', (w) => upsertMemoryVector(w, 'test-model', { memoryId: 'm4', contentHash: hash, vector: new Float32Array([0.6, 0.8]) }, now()));
    await pushScanMatchesFull(store, clock, { changed: ['m4'] });

    await softDeleteMemory(store, 'm5', clock);
    await pushScanMatchesFull(store, clock, { gone: ['m5'] });

    await forgetMemory(store, 'm6', clock);
    await pushScanMatchesFull(store, clock, { gone: ['m6'] });
  });

  it('a replica merged into a local memory is tombstoned when that memory is forgotten', async () => {
    await store.write('seed', (w) => insertMemory(w, { id: 'mine', content: 'The cache is Redis 7.', project: 'web', createdAt: now() }));
    await pushScanMatchesFull(store, clock, { fresh: ['mine'] });
    // Carol shared the same text: it merges into a copy this store holds (team_shares.local_id).
    await store.write('team.pull', (w) => applyPulled(w, [pulled('carol1', 1, 'Web fact number 7 about the deploy.')], { clock, jobs: DEFAULT_JOBS_CONFIG, embeddingModelId: undefined, extract: false }));
    const share = store.read((db) => db.get<{ local_id: string | null }>("SELECT local_id FROM team_shares WHERE memory_id = 'carol1'"));
    assert.equal(share?.local_id, 'm7');
    await pushScanMatchesFull(store, clock, {});
    await forgetMemory(store, 'm7', clock);
    await pushScanMatchesFull(store, clock, { gone: ['carol1', 'm7'] });
  });

  it('an acknowledgement racing a newer edit leaves the memory to be queued again', async () => {
    const edited = 'Web fact number 8, first edit.';
    await store.write('edit', (w) => w.run('UPDATE memories SET content = ?, content_hash = ? WHERE id = ?', [edited, contentHash(edited), 'm8']));
    await scanForPush(store, clock.now());
    const inFlight = store.read((db) => readOutbox(db, 10, DEFAULT_REDACTION_CONFIG));
    assert.deepEqual(inFlight.map((i) => i.memoryId), ['m8']);
    // The memory changes while the batch is at the server; no scan runs before the ack.
    const newer = 'Web fact number 8, second edit.';
    await store.write('edit', (w) => w.run('UPDATE memories SET content = ?, content_hash = ? WHERE id = ?', [newer, contentHash(newer), 'm8']));
    await store.write('team.ack', (w) => ackPushed(w, inFlight.map((i) => ({ ...pushAck(i), vectorPushed: false })), now()));
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM team_outbox')?.n), 0);
    await pushScanMatchesFull(store, clock, { changed: ['m8'] });
    assert.equal(store.read((db) => readOutbox(db, 10, DEFAULT_REDACTION_CONFIG)).length, 0, 'acknowledged by pushScanMatchesFull');
  });

  it('Share with Team again and a moved memory are queued', async () => {
    await store.write('unshare', (w) => { w.run("UPDATE team_shares SET state = 'personal' WHERE memory_id = 'm9'"); });
    await pushScanMatchesFull(store, clock, {});
    await store.write('share', (w) => shareMemory(w, 'm9', now()));
    assert.deepEqual(store.read((db) => sorted(planScan(db, ['web'], 'dirty'))), { fresh: [], changed: [], gone: [] }, 'shareMemory queued it itself');
    // A personal memory moved into the shared project.
    await store.write('move', (w) => w.run("UPDATE memories SET project = 'web' WHERE id = 'p1'"));
    await pushScanMatchesFull(store, clock, { fresh: ['p1'] });
  });

  it('a newly shared project, a day without a full pass, and --full run the full pass', async () => {
    await store.write('share project', (w) => setProjectShared(w, 'scratch', true));
    assert.equal(store.read((db) => scanMode(db, ['scratch', 'web'], clock.now())), 'full', 'the project list changed');
    assert.deepEqual(dirtyRows(store), [], 'its old memories were never marked');
    assert.equal(await scanForPush(store, clock.now()), 5, 'the full pass found them');
    await store.write('ack', (w) => ackAll(w, now()));
    await scanForPush(store, clock.now());
    assert.equal(store.read((db) => scanMode(db, ['scratch', 'web'], clock.now())), 'dirty');

    // A change no trigger saw (written with the triggers off) is found by the daily pass and by --full.
    const hidden = async (id: string): Promise<void> => store.write('hidden', (w) => {
      w.run('DROP TRIGGER team_dirty_memories_ai');
      insertMemory(w, { id, content: `Unmarked ${id}.`, project: 'web', createdAt: now() });
      for (const t of TEAM_SCAN_TRIGGERS) w.run(t);
    });
    await hidden('u1');
    assert.equal(await scanForPush(store, clock.now()), 0, 'the marked-only pass cannot see it');
    assert.equal(await scanForPush(store, clock.now(), true), 1, 'team sync --full finds it');
    await hidden('u2');
    clock.advance(FULL_SCAN_INTERVAL_MS);
    assert.equal(store.read((db) => scanMode(db, ['scratch', 'web'], clock.now())), 'full');
    assert.equal(await scanForPush(store, clock.now()), 1, 'the daily pass finds it');
  });
});

describe('migration 29: team_dirty', () => {
  it('converts a store written before it: the first push is a full pass, then only marked rows', async () => {
    const clock = new ManualClock(T0);
    const store = await openMemoryStore({ clock, migrations: MIGRATIONS.filter((m) => m.version < TEAM_SCAN_MIGRATION_VERSION) });
    try {
      await store.write('seed', (w) => {
        saveConnection(w, 'postgresql://bob@db.example.com:5432/team', 'db.example.com:5432/team', 'bob');
        setProjectShared(w, 'web', true);
        for (let i = 0; i < 4; i++) insertMemory(w, { id: `m${i}`, content: `Fact ${i}.`, project: 'web', createdAt: isoFromMs(T0) });
      });
      // The version before: a full pass queued and the server acknowledged two; two came later.
      await store.write('old push', (w) => {
        for (const id of ['m0', 'm1']) w.run("INSERT INTO team_shares (memory_id, origin, project, state, pushed_hash, vector_pushed, updated_at) SELECT id, 'local', 'web', 'shared', content_hash, 0, ? FROM memories WHERE id = ?", [isoFromMs(T0), id]);
      });
      assert.equal(store.read((db) => db.hasTable('team_dirty')), false);
      const migrated = await store.write('migrate', (w) => runMigrations(w, { nowIso: isoFromMs(T0), newStoreId: () => 'x' }));
      assert.deepEqual(migrated.applied.filter((v) => v <= TEAM_SCAN_MIGRATION_VERSION), [TEAM_SCAN_MIGRATION_VERSION], 'later migrations apply after it');
      assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'team_dirty_%'")?.n), 9);
      assert.deepEqual(dirtyRows(store), [], 'the migration copies nothing');
      assert.equal(store.read((db) => scanMode(db, ['web'], clock.now())), 'full');
      assert.equal(await scanForPush(store, clock.now()), 2, 'the full pass queues the two the old version had not');
      assert.equal(store.read((db) => scanMode(db, ['web'], clock.now())), 'dirty');
      await store.write('remember', (w) => insertMemory(w, { id: 'm9', content: 'Fact 9.', project: 'web', createdAt: isoFromMs(T0) }));
      assert.deepEqual(dirtyRows(store), ['m9']);
      assert.equal(await scanForPush(store, clock.now()), 1);
      // Running it again changes nothing (IF NOT EXISTS everywhere).
      await store.write('again', (w) => { TEAM_SCAN_MIGRATION.up({ all: (q, p) => w.all(q, p), get: (q, p) => w.get(q, p), hasTable: (n) => w.hasTable(n), run: (q, p) => w.run(q, p), addColumnIfMissing: () => false, nowIso: isoFromMs(T0) }); applyScan(w, ['web'], isoFromMs(T0), 'dirty'); });
      assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'team_dirty_%'")?.n), 9);
    } finally {
      await store.close();
    }
  });
});

describe('team_dirty in the durable store', () => {
  it('replays to the same marks in another process, and a push there empties them for both', async () => {
    const temp = makeTempDir();
    const clock = new ManualClock(T0);
    const a = await openStore({ dir: temp.dir, clock });
    const b = await openStore({ dir: temp.dir, clock });
    try {
      await a.write('seed', (w) => {
        saveConnection(w, 'postgresql://bob@db.example.com:5432/team', 'db.example.com:5432/team', 'bob');
        setProjectShared(w, 'web', true);
        for (let i = 0; i < 3; i++) insertMemory(w, { id: `m${i}`, content: `Durable fact ${i}.`, project: 'web', createdAt: isoFromMs(T0) });
        insertMemory(w, { id: 'p0', content: 'Personal.', project: 'scratch', createdAt: isoFromMs(T0) });
      });
      b.refresh();
      assert.deepEqual(dirtyRows(b), ['m0', 'm1', 'm2']);
      assert.deepEqual(dirtyRows(b), dirtyRows(a));
      assert.equal(await scanForPush(b, clock.now()), 3);
      await b.write('edit', (w) => w.run("UPDATE memories SET content = 'Durable fact 1, edited.', content_hash = ? WHERE id = 'm1'", [contentHash('Durable fact 1, edited.')]));
      a.refresh();
      assert.deepEqual(dirtyRows(a), ['m1']);
      assert.deepEqual(a.read((db) => db.all('SELECT memory_id, version FROM team_outbox ORDER BY seq')), b.read((db) => db.all('SELECT memory_id, version FROM team_outbox ORDER BY seq')));
    } finally {
      await a.close();
      await b.close();
      temp.cleanup();
    }
  });
});

import * as assert from 'node:assert/strict';
import { Client } from 'pg';
import { isMemoryError } from '../../../src/core/errors';
import { forgetMemory } from '../../../src/core/memory/forget';
import { countMemories, insertMemory } from '../../../src/core/memory/memoryRecords';
import { remember, defaultRememberDeps } from '../../../src/core/memory/remember';
import { blobToVector, upsertMemoryVector, vectorToBlob } from '../../../src/core/models/vectorStore';
import { recall } from '../../../src/core/recall/recallService';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, StoreChange } from '../../../src/core/store/storeTypes';
import { connectStore, shareMemoryWithTeam, stopSharingMemory } from '../../../src/core/team/teamAdmin';
import { initTeamServer } from '../../../src/core/team/teamConnection';
import { memoryTeamInfo } from '../../../src/core/team/teamApply';
import { outboxSize } from '../../../src/core/team/teamOutbox';
import { SEARCH_MIGRATION_VERSION, VECTOR_MIGRATION_VERSION } from '../../../src/core/team/serverSchema';
import { NO_PGVECTOR_NOTE } from '../../../src/core/team/serverSearch';
import { searchWithStore } from '../../../src/core/team/teamSearch';
import { DEFAULT_SEARCH_CONFIG } from '../../../src/core/config/searchConfig';
import { fakeEmbedder } from '../recall/fakeEmbedder';
import { ADMIN_ROLE } from '../helpers/postgresServer';
import { eventually, startTeamFixture } from '../helpers/teamFixture';
import type { TeamClient, TeamFixture } from '../helpers/teamFixture';

const ROLES = ['alice', 'bob', 'carol', 'dave'];
let projectCounter = 0;
const newProject = (): string => `team-project-${++projectCounter}`;

async function rememberIn(c: TeamClient, project: string, content: string): Promise<string> {
  const r = await remember(c.store, { content, project }, defaultRememberDeps(c.clock, { enqueue: { embed: false, extract: false, hints: false } }));
  return r.id;
}

const projectCount = (store: MemoryStore, project: string): number => store.read((db) => countMemories(db, { project }));

async function recallTexts(c: TeamClient, query: string, project: string): Promise<string[]> {
  const results = await recall(c.store, { query, project }, { clock: c.clock, track: false });
  return results.map((r) => r.content);
}

describe('team memory through a real PostgreSQL server', function () {
  this.timeout(120_000);
  let fx: TeamFixture;

  before(async () => { fx = await startTeamFixture(ROLES); });
  after(async () => { await fx?.close(); });

  it('init is idempotent and refused to a member role', async () => {
    const again = await initTeamServer({ connectionString: fx.pg.url(ADMIN_ROLE), password: fx.pg.adminPassword });
    assert.deepEqual(again.applied, []);
    // Debian's PostgreSQL here has no pgvector: the vector migration is skipped with the reason, every time.
    assert.equal(again.version, SEARCH_MIGRATION_VERSION);
    assert.deepEqual(again.skipped.map((m) => m.version), [VECTOR_MIGRATION_VERSION]);
    assert.match(again.skipped[0]?.reason ?? '', /no "vector" extension installed/);
    await assert.rejects(initTeamServer({ connectionString: fx.pg.url('alice'), password: fx.passwords.get('alice') }), (e: unknown) => isMemoryError(e, 'E_TEAM_REFUSED'));
  });

  it('server-side search on a server without pgvector: lexical only with the clean note, and sync still works', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project]);
    await rememberIn(a, project, 'The search cluster rebuilds its shards every Sunday night.');
    await rememberIn(a, project, 'Lunch orders go through the shared spreadsheet.');
    assert.equal((await a.sync.syncOnce()).push.sent, 2);
    assert.equal((await b.sync.syncOnce()).pull.inserted, 2, 'sync works on the server with the search migration');
    const r = await searchWithStore(b.store, { query: 'search cluster shards' }, { config: DEFAULT_SEARCH_CONFIG, embedder: fakeEmbedder(), password: fx.passwords.get('bob') });
    assert.equal(r.vector, 'server-lacks-pgvector');
    assert.ok(r.notes.includes(NO_PGVECTOR_NOTE));
    assert.deepEqual(r.hits.map((h) => h.content), ['The search cluster rebuilds its shards every Sunday night.']);
    assert.equal(r.hits[0]?.author, 'alice');
    assert.equal(r.hits[0]?.mine, false);
    await assert.rejects(searchWithStore(b.store, { query: 'x', project: 'not-shared' }, { config: DEFAULT_SEARCH_CONFIG, password: fx.passwords.get('bob') }), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
  });

  it('shares a memory between two stores: recalled on the other, forgotten, gone everywhere', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project]);
    const id = await rememberIn(a, project, 'The billing service retries webhooks with exponential backoff up to six times.');
    const first = await a.sync.syncOnce();
    assert.equal(first.push.sent, 1);
    const pulled = await b.sync.syncOnce();
    assert.equal(pulled.pull.inserted, 1);
    assert.ok((await recallTexts(b, 'billing webhooks backoff', project)).some((t) => t.includes('exponential backoff')));
    assert.deepEqual(b.store.read((db) => memoryTeamInfo(db, id)), { origin: 'remote', author: 'alice', state: 'shared' });
    const server = await fx.serverRows(project);
    assert.equal(server.length, 1);
    assert.equal(server[0]?.author, 'alice');

    await forgetMemory(a.store, id, a.clock);
    await a.sync.syncOnce();
    const tomb = await fx.serverRows(project);
    assert.equal(tomb[0]?.deleted, true);
    assert.equal(tomb[0]?.content, '', 'a tombstone keeps no content');
    const after = await b.sync.syncOnce();
    assert.equal(after.pull.forgotten, 1);
    assert.equal(projectCount(b.store, project), 0);
    assert.deepEqual(await recallTexts(b, 'billing webhooks backoff', project), []);
    // Pulling again (a fresh cursor) does not bring it back.
    const c = await fx.client('carol', [project]);
    await c.sync.syncOnce();
    assert.equal(projectCount(c.store, project), 0);
  });

  it('four stores writing at once converge live (LISTEN/NOTIFY) to every memory exactly once', async () => {
    const project = newProject();
    const clients = await Promise.all(ROLES.map((r) => fx.client(r, [project])));
    for (const c of clients) c.sync.start();
    await Promise.all(clients.map(async (c) => {
      for (let i = 0; i < 25; i++) await rememberIn(c, project, `${c.role} noted fact ${i} about the deployment pipeline`);
    }));
    await eventually('every store to hold all 100 memories', () => clients.every((c) => projectCount(c.store, project) === 100), 30_000);
    for (const c of clients) {
      const distinct = c.store.read((db) => db.get<{ n: number }>('SELECT COUNT(DISTINCT content_hash) AS n FROM memories WHERE project = ?', [project])?.n);
      assert.equal(distinct, 100);
      assert.equal(c.sync.status().state, 'connected');
    }
    assert.equal((await fx.serverRows(project)).length, 100);
    for (const c of clients) await c.sync.stop();
  });

  it('an unshared project never leaves the machine, and secrets are redacted before anything leaves', async () => {
    const shared = newProject();
    const secret = newProject();
    const a = await fx.client('alice', [shared]);
    await rememberIn(a, secret, 'The private roadmap names the acquisition target Zebracorp.');
    // A memory stored before a rule existed (raw insert): the push redacts it again.
    await a.store.write('seed', (db) => insertMemory(db, { content: 'Deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB please', project: shared, createdAt: '2026-06-01T00:00:00Z' }));
    await a.sync.syncOnce();
    assert.equal((await fx.serverRows(secret)).length, 0);
    const leaked = await fx.adminQuery<{ n: string }>("SELECT COUNT(*)::text AS n FROM agent_memory.memories WHERE content LIKE '%Zebracorp%' OR content LIKE '%ghp_%'");
    assert.equal(leaked[0]?.n, '0');
    const rows = await fx.serverRows(shared);
    assert.equal(rows.length, 1);
    assert.match(rows[0]?.content ?? '', /\[REDACTED\]/);
  });

  it('duplicate delivery: a push whose acknowledgement was lost changes nothing on the server or the replicas', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project]);
    for (let i = 0; i < 10; i++) await rememberIn(a, project, `duplicate delivery fact ${i}`);
    await a.sync.syncOnce();
    const before = await fx.serverRows(project);
    // Re-queue everything as if the local acknowledgement never happened, twice.
    for (let round = 0; round < 2; round++) {
      await a.store.write('test.requeue', (db) => {
        db.run("INSERT INTO team_outbox (memory_id, op, version, enqueued_at) SELECT memory_id, 'upsert', 1, '2026-06-01T00:00:00.000Z' FROM team_shares WHERE project = ?", [project]);
      });
      const again = await a.sync.push();
      assert.equal(again.sent, 10);
      assert.equal(again.changedOnServer, 0);
    }
    const after = await fx.serverRows(project);
    assert.deepEqual(after.map((r) => [r.id, r.seq]), before.map((r) => [r.id, r.seq]), 'no new sequence numbers');
    await b.sync.syncOnce();
    // The replica pulls the same rows again from scratch: still ten.
    await b.store.write('test.rewind', (db) => db.run("UPDATE team_state SET value = '0' WHERE key = 'cursor'"));
    const repeat = await b.sync.pull();
    assert.equal(repeat.inserted, 0);
    assert.equal(projectCount(b.store, project), 10);
    assert.equal(a.store.read((db) => outboxSize(db)), 0);
  });

  it('the server refuses a member changing or deleting another member\'s memory', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project]);
    const c = await fx.client('carol', [project]);
    const id = await rememberIn(a, project, 'Only alice may retract this architecture decision.');
    await a.sync.syncOnce();
    await b.sync.syncOnce();
    await c.sync.syncOnce();

    // Directly as bob, with SQL: no DELETE privilege, and RLS hides alice's row from UPDATE.
    const bob = new Client({ host: fx.pg.host, port: fx.pg.port, database: fx.pg.database, user: 'bob', password: fx.passwords.get('bob') });
    await bob.connect();
    try {
      await assert.rejects(bob.query('DELETE FROM agent_memory.memories WHERE id = $1', [id]), (e: { code?: string }) => e.code === '42501');
      const upd = await bob.query("UPDATE agent_memory.memories SET deleted = true, content = '' WHERE id = $1", [id]);
      assert.equal(upd.rowCount, 0);
      await assert.rejects(bob.query("INSERT INTO agent_memory.memories (id, project, content, content_hash, created_at, deleted) VALUES ($1, $2, '', '', '2026-01-01', true) ON CONFLICT (id) DO UPDATE SET deleted = true", [id, project]),
        (e: { code?: string }) => e.code === '42501');
      await assert.rejects(bob.query("INSERT INTO agent_memory.memories (id, author, project, content, content_hash, created_at) VALUES ('forged', 'alice', $1, 'x', 'x', '2026-01-01')", [project]),
        (e: { code?: string }) => e.code === '42501', 'bob cannot write rows in alice\'s name');
    } finally {
      await bob.end();
    }

    // Through the client: bob forgets his copy; the tombstone is refused and alice's row stays.
    await forgetMemory(b.store, id, b.clock);
    const pushed = await b.sync.syncOnce();
    assert.equal(pushed.push.refused, 1);
    assert.equal(b.store.read((db) => outboxSize(db)), 0, 'a refused entry does not block the outbox');
    const rows = await fx.serverRows(project);
    assert.equal(rows[0]?.deleted, false);
    assert.equal(rows[0]?.author, 'alice');
    await c.sync.syncOnce();
    assert.equal(projectCount(c.store, project), 1);
  });

  it('Stop Sharing tombstones the server row and the replicas but keeps the memory; Share again restores it', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project]);
    const id = await rememberIn(a, project, 'Feature flags are cleaned up every sprint.');
    await a.sync.syncOnce();
    await b.sync.syncOnce();
    assert.equal(projectCount(b.store, project), 1);
    await stopSharingMemory(a.store, id, a.clock);
    await a.sync.syncOnce();
    await b.sync.syncOnce();
    assert.equal(projectCount(b.store, project), 0);
    assert.equal(projectCount(a.store, project), 1, 'the author keeps the memory');
    await a.sync.syncOnce();
    assert.equal((await fx.serverRows(project))[0]?.deleted, true, 'a later scan does not share it again');
    await shareMemoryWithTeam(a.store, id, a.clock);
    await a.sync.syncOnce();
    await b.sync.syncOnce();
    assert.equal(projectCount(b.store, project), 1, 'the replica comes back when its author shares it again');
    const d = await fx.client('dave', [project]);
    await d.sync.syncOnce();
    assert.equal(projectCount(d.store, project), 1, 'a new member receives the re-shared memory');
    await assert.rejects(shareMemoryWithTeam(a.store, (await rememberIn(a, 'elsewhere', 'not shared project memory')), a.clock), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
  });

  it('a vector travels with its memory when the model matches, and is recomputed otherwise', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project], { embeddingModelId: 'test-model' });
    const c = await fx.client('carol', [project], { embeddingModelId: 'other-model' });
    const id = await rememberIn(a, project, 'Vectors are float32 little-endian.');
    const hash = a.store.read((db) => db.get<{ h: string }>('SELECT content_hash AS h FROM memories WHERE id = ?', [id])?.h) as string;
    const vector = new Float32Array([0.25, -0.5, 0.75, 1]);
    await a.store.write('embed', (db) => upsertMemoryVector(db, 'test-model', { memoryId: id, contentHash: hash, vector }, '2026-06-01T00:00:00.000Z'));
    await a.sync.syncOnce();
    assert.deepEqual([...(await fx.serverRows(project))[0]?.vector ?? []], [...vectorToBlob(vector)], 'the stored bytes travel as they are');
    const pulled = await b.sync.syncOnce();
    assert.equal(pulled.pull.vectorsReused, 1);
    const got = b.store.read((db) => db.get<{ vector: Uint8Array }>("SELECT vector FROM embeddings WHERE source_id = ? AND model_id = 'test-model'", [id]));
    assert.deepEqual([...blobToVector(got?.vector ?? new Uint8Array(), vector.length)], [...blobToVector(vectorToBlob(vector), vector.length)]);
    assert.equal(b.store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memory_jobs WHERE memory_id = ? AND job_type = 'embed'", [id])?.n), 0);
    await c.sync.syncOnce();
    assert.equal(c.store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM embeddings WHERE source_id = ?", [id])?.n), 0);
    assert.equal(c.store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memory_jobs WHERE memory_id = ? AND job_type = 'embed'", [id])?.n), 1);
  });

  it('pins stay personal: a pinned memory arrives unpinned, with its author as who', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project]);
    const r = await remember(a.store, { content: 'Pinned by alice only: the release checklist lives in RELEASE.md.', project, pinned: true }, defaultRememberDeps(a.clock, { enqueue: { embed: false, extract: false, hints: false } }));
    await a.sync.syncOnce();
    await b.sync.syncOnce();
    const replica = b.store.read((db) => db.get<{ pinned: number; who: string; source_type: string }>('SELECT pinned, who, source_type FROM memories WHERE id = ?', [r.id]));
    assert.deepEqual({ ...replica }, { pinned: 0, who: 'alice', source_type: 'team' });
    const columns = await fx.adminQuery<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_schema = 'agent_memory' AND table_name = 'memories'");
    assert.ok(!columns.some((c) => /pin|session|weight|feedback|access/.test(c.column_name)), 'nothing personal has a column on the server');
  });

  it('a wrong password is a clear error that never contains the password', async () => {
    const store = await openMemoryStore();
    const wrong = 'hunter2-not-the-password';
    try {
      await assert.rejects(connectStore(store, fx.pg.url('alice'), wrong), (e: unknown) => {
        assert.ok(isMemoryError(e, 'E_TEAM_AUTH'));
        assert.match(e.message, /refused the login of role "alice"/);
        assert.ok(!e.message.includes(wrong));
        return true;
      });
      await assert.rejects(connectStore(store, `postgresql://alice:${wrong}@127.0.0.1:${fx.pg.port}/postgres`, undefined), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && !e.message.includes(wrong));
      await assert.rejects(connectStore(store, fx.pg.url('nobody'), wrong), (e: unknown) => isMemoryError(e, 'E_TEAM_AUTH') && !e.message.includes(wrong));
    } finally {
      await store.close();
    }
  });

  it('the server stopped mid-push: the outbox keeps growing offline and drains once it is back, nothing lost or doubled', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project], { config: { pushBatch: 25 } });
    const b = await fx.client('bob', [project]);
    await a.store.write('seed', (db) => { for (let i = 0; i < 200; i++) insertMemory(db, { content: `offline push fact ${i}`, project, createdAt: '2026-06-01T00:00:00Z' }); });
    let paused: Promise<void> | undefined;
    const sub = a.store.onDidChange((change: StoreChange) => {
      if (!paused && change.labels.includes('team.ack')) paused = fx.pg.pause();
    });
    await assert.rejects(a.sync.syncOnce(), (e: unknown) => isMemoryError(e, 'E_TEAM_OFFLINE'));
    sub.dispose();
    await paused;
    const waiting = a.store.read((db) => outboxSize(db));
    assert.ok(waiting > 0 && waiting < 200, `part of the outbox is left (${waiting})`);
    await rememberIn(a, project, 'written while the team server was down');
    await assert.rejects(a.sync.syncOnce(), (e: unknown) => isMemoryError(e, 'E_TEAM_OFFLINE') && /cannot be reached/.test(e.message));
    assert.equal(a.store.read((db) => outboxSize(db)), waiting + 1);
    await fx.pg.resume();
    await a.sync.syncOnce();
    assert.equal(a.store.read((db) => outboxSize(db)), 0);
    const rows = await fx.serverRows(project);
    assert.equal(rows.length, 201);
    assert.equal(new Set(rows.map((r) => r.id)).size, 201);
    await b.sync.syncOnce();
    assert.equal(projectCount(b.store, project), 201);
  });
});

import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { forgetMemory } from '../../../src/core/memory/forget';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { memoryTeamInfo } from '../../../src/core/team/teamApply';
import { teamPasswordSecretKey } from '../../../src/core/team/teamSecret';
import { openTeamServer } from '../../../src/core/team/teamServerRecall';
import type { ServerOpener } from '../../../src/core/team/teamServerRecall';
import { PULL_COMPLETE_KEY, readTeamState, setStateValue } from '../../../src/core/team/teamState';
import { engineOnStore } from '../helpers/testEngine';
import { mapSecrets } from '../helpers/teamRecallFixture';
import { startTeamFixture } from '../helpers/teamFixture';
import type { TeamClient, TeamFixture } from '../helpers/teamFixture';

/**
 * Partial replicas against a real PostgreSQL server (docs/team.md "Partial replicas"): a partial
 * client does not pull teammates' memories, its recall asks the server for them (lexical arm:
 * Debian's server has no pgvector), replicates what it recalled, and later tombstones reach the
 * replica; a dead, hanging or refusing server gives local results, a note and a back-off.
 */
let projectCounter = 0;
const newProject = (): string => `partial-project-${++projectCounter}`;

async function rememberIn(c: TeamClient, project: string, content: string): Promise<string> {
  return (await remember(c.store, { content, project }, defaultRememberDeps(c.clock, { enqueue: { embed: false, extract: false, hints: false } }))).id;
}

const holds = (store: MemoryStore, id: string): boolean => store.read((db) => db.get('SELECT 1 AS x FROM memories WHERE id = ? AND is_deleted = 0', [id])) !== undefined;

/** Counts how often recall opened a connection to the server. */
function counting(inner: ServerOpener = openTeamServer): ServerOpener & { opened: number } {
  const open = Object.assign(async (e: Parameters<ServerOpener>[0]) => { open.opened++; return inner(e); }, { opened: 0 });
  return open;
}

describe('partial team replicas through a real PostgreSQL server', function () {
  this.timeout(120_000);
  let fx: TeamFixture;

  before(async () => { fx = await startTeamFixture(['alice', 'bob']); });
  after(async () => { await fx?.close(); });

  const secretsFor = (role: string, password = fx.passwords.get(role) as string): ReturnType<typeof mapSecrets> =>
    mapSecrets({ [teamPasswordSecretKey(fx.pg.url(role))]: password });

  it('a partial client does not receive teammates\' memories on pull, but does receive its own from another machine, and the cursor advances', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const bobLaptop = await fx.client('bob', [project]);
    const b = await fx.client('bob', [project], { config: { replica: 'partial' } });
    const teammate = await rememberIn(a, project, 'The release train leaves every second Tuesday.');
    const mine = await rememberIn(bobLaptop, project, 'Bob keeps the on-call rota in the wiki.');
    await a.sync.syncOnce();
    await bobLaptop.sync.syncOnce();
    const r = await b.sync.syncOnce();
    assert.equal(holds(b.store, teammate), false, 'a teammate\'s memory is not pulled into a partial replica');
    assert.equal(holds(b.store, mine), true, 'one\'s own memories (pushed from another machine) are');
    assert.equal(r.pull.notHeld, 1);
    const seqs = (await fx.serverRows(project)).map((x) => Number(x.seq));
    assert.equal(b.store.read((db) => readTeamState(db)).cursor, Math.max(...seqs), 'the cursor moved past the rows not taken');
    assert.equal(b.sync.status().replica, 'partial');
    // Back to a full replica: the cursor restarts, so the rows passed over arrive.
    const full = await fx.client('bob', [project], { store: b.store });
    await full.sync.syncOnce();
    assert.equal(holds(b.store, teammate), true, 'switching to full pulls what partial passed over');
  });

  it('recall on a partial replica finds a teammate\'s memory on the server, marked, replicates it, and a later tombstone removes it', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project], { config: { replica: 'partial' } });
    const teammate = await rememberIn(a, project, 'Staging deploys need the blue-green flag set in Terraform.');
    await rememberIn(b, project, 'Bob prefers small pull requests.');
    await a.sync.syncOnce();
    await b.sync.syncOnce();
    assert.equal(holds(b.store, teammate), false);
    const secrets = secretsFor('bob');
    const open = counting();
    const engine = engineOnStore(b.store, b.clock, { 'team.replica': 'partial' }, { secrets, teamServer: open });
    try {
      const out = await engine.recallDetailed({ query: 'blue-green terraform flag', project }, { track: false });
      const hit = out.items.find((x) => x.id === teammate);
      assert.ok(hit, `found on the server: ${JSON.stringify(out.items.map((x) => x.content))}; notes: ${out.notes.join(' | ')}`);
      assert.ok(hit.explain?.notes.includes('from the team server, shared by alice'));
      assert.deepEqual(hit.explain?.sources, ['lexical'], 'lexical arm only: this server has no pgvector');
      assert.ok(out.notes.some((n) => /lacks pgvector/.test(n)), out.notes.join(' | '));
      assert.deepEqual(secrets.reads, [teamPasswordSecretKey(fx.pg.url('bob'))], 'the password came from the host\'s secret store');
      await engine.settle();
      assert.equal(holds(b.store, teammate), true, 'the recalled memory is replicated');
      assert.equal(memoryTeamInfo(b.store.read((db) => db), teammate)?.author, 'alice');
      const again = await engine.recallDetailed({ query: 'blue-green terraform flag', project }, { track: false });
      assert.equal(again.items[0]?.id, teammate);
      assert.ok(!again.items[0]?.explain?.notes.includes('from the team server, shared by alice'), 'now answered from the store');
      // Alice forgets it: the tombstone reaches the recalled replica through the cursor.
      await forgetMemory(a.store, teammate, a.clock);
      await a.sync.syncOnce();
      const pulled = await b.sync.syncOnce();
      assert.equal(pulled.pull.forgotten, 1);
      assert.equal(holds(b.store, teammate), false, 'the tombstone removed the replica');
      const after = await engine.recallDetailed({ query: 'blue-green terraform flag', project }, { track: false });
      assert.ok(!after.items.some((x) => x.id === teammate), 'and the server no longer offers it');
    } finally {
      await engine.close();
    }
  });

  it('a connection kept open between recalls and lost meanwhile (server restarted) is reopened within the same recall, without a back-off', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project], { config: { replica: 'partial' } });
    const first = await rememberIn(a, project, 'Feature flags are evaluated at the edge.');
    await a.sync.syncOnce();
    const open = counting();
    const engine = engineOnStore(b.store, b.clock, { 'team.replica': 'partial' }, { secrets: secretsFor('bob'), teamServer: open });
    try {
      assert.ok((await engine.recallDetailed({ query: 'feature flags edge', project }, { track: false })).items.some((x) => x.id === first));
      await engine.settle(); // its replication used the connection too; it stays open
      assert.equal(holds(b.store, first), true);
      await fx.pg.pause();
      await fx.pg.resume();
      const second = await rememberIn(a, project, 'Feature flags default to off in staging.');
      await a.sync.syncOnce();
      const out = await engine.recallDetailed({ query: 'feature flags staging', project }, { track: false });
      assert.ok(out.items.some((x) => x.id === second), out.notes.join(' | '));
      assert.equal(open.opened, 2, 'one reconnection, in the same recall');
    } finally {
      await engine.close();
    }
  });

  it('a full replica asks the server while its first pull has not caught up, and never once it has', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project]);
    const teammate = await rememberIn(a, project, 'The cache warms from the nightly snapshot.');
    await a.sync.syncOnce();
    const open = counting();
    const engine = engineOnStore(b.store, b.clock, {}, { secrets: secretsFor('bob'), teamServer: open });
    try {
      // Connected and sharing, but not pulled yet (a first pull of a big team takes minutes).
      const early = await engine.recallDetailed({ query: 'nightly snapshot cache', project }, { track: false });
      assert.equal(open.opened, 1);
      assert.ok(early.items.some((x) => x.id === teammate && x.explain?.notes.includes('from the team server, shared by alice')), early.notes.join(' | '));
      await engine.settle();
      await b.sync.syncOnce(); // caught up: the replica recalled meanwhile is applied as a no-op
      assert.equal(holds(b.store, teammate), true);
      await rememberIn(a, project, 'The cache is cold after a deploy.');
      await a.sync.syncOnce();
      const later = await engine.recallDetailed({ query: 'cache', project }, { track: false });
      await engine.recallDetailed({ query: 'cache warms', project }, { track: false });
      assert.equal(open.opened, 1, 'a caught-up full replica never contacts the server');
      assert.ok(!later.notes.some((n) => /team server/i.test(n)));
      assert.equal(later.items.length, 1, 'the new memory is not there until the next pull: no server');
      // A store linked before pull_complete existed has no such key: having pulled, it counts as caught up.
      await b.store.write('test.legacy', (db) => setStateValue(db, PULL_COMPLETE_KEY, undefined));
      await engine.recallDetailed({ query: 'cache', project }, { track: false });
      assert.equal(open.opened, 1);
    } finally {
      await engine.close();
    }
  });

  it('a wrong password: local results, a note naming the refusal (never the password), no throw', async () => {
    const project = newProject();
    const b = await fx.client('bob', [project], { config: { replica: 'partial' } });
    const local = await rememberIn(b, project, 'Bob writes the changelog on Fridays.');
    const wrong = 'not-bobs-password-42';
    const engine = engineOnStore(b.store, b.clock, { 'team.replica': 'partial' }, { secrets: secretsFor('bob', wrong) });
    try {
      const out = await engine.recallDetailed({ query: 'changelog fridays', project }, { track: false });
      assert.deepEqual(out.items.map((x) => x.id), [local]);
      const note = out.notes.find((n) => /team server/.test(n)) ?? '';
      assert.match(note, /refused the login of role "bob"/);
      assert.ok(!out.notes.join(' ').includes(wrong));
    } finally {
      await engine.close();
    }
  });

  it('a server that does not answer: local results within the deadline, a note, and no waiting on it again during the back-off', async () => {
    const project = newProject();
    const b = await fx.client('bob', [project], { config: { replica: 'partial' } });
    const local = await rememberIn(b, project, 'The staging database restarts at midnight.');
    // A TCP server that accepts and never speaks: a connection attempt hangs until the deadline.
    const sockets = new Set<Socket>();
    const silent: Server = createServer((s) => { sockets.add(s); });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as { port: number }).port;
    await b.store.write('test.point', (db) => setStateValue(db, 'connection', `postgresql://bob@127.0.0.1:${port}/team`));
    const open = counting();
    const engine = engineOnStore(b.store, b.clock, { 'team.replica': 'partial', 'team.serverRecallTimeoutMs': 300 }, { secrets: mapSecrets(), teamServer: open });
    try {
      const t0 = performance.now();
      const out = await engine.recallDetailed({ query: 'staging database midnight', project }, { track: false });
      const waited = performance.now() - t0;
      assert.deepEqual(out.items.map((x) => x.id), [local]);
      assert.ok(out.notes.some((n) => /did not answer within 300 ms/.test(n)), out.notes.join(' | '));
      assert.ok(waited < 5_000, `answered after the deadline, not the connection's own timeout (${Math.round(waited)} ms)`);
      const second = await engine.recallDetailed({ query: 'staging database', project }, { track: false });
      assert.equal(open.opened, 1, 'the next recall does not wait on the dead server');
      assert.ok(second.notes.some((n) => /was not asked/.test(n)), second.notes.join(' | '));
    } finally {
      await engine.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('the server stopped: local results and a note, no throw; after the back-off recall asks again and gets the server\'s hits', async () => {
    const project = newProject();
    const a = await fx.client('alice', [project]);
    const b = await fx.client('bob', [project], { config: { replica: 'partial' } });
    const teammate = await rememberIn(a, project, 'Invoices are archived to cold storage after ninety days.');
    const local = await rememberIn(b, project, 'Invoices go out on the first of the month.');
    await a.sync.syncOnce();
    await b.sync.syncOnce();
    const open = counting();
    const engine = engineOnStore(b.store, b.clock, { 'team.replica': 'partial' }, { secrets: secretsFor('bob'), teamServer: open });
    const rejections: unknown[] = [];
    const onRejection = (e: unknown): void => { rejections.push(e); };
    process.on('unhandledRejection', onRejection);
    await fx.pg.pause();
    try {
      const out = await engine.recallDetailed({ query: 'invoices', project }, { track: false });
      assert.deepEqual(out.items.map((x) => x.id), [local]);
      assert.ok(out.notes.some((n) => /team server .* cannot be reached/.test(n)), out.notes.join(' | '));
      await engine.recallDetailed({ query: 'invoices', project }, { track: false });
      assert.equal(open.opened, 1, 'backing off: the second recall did not try');
      await fx.pg.resume();
      b.clock.advance(16_000);
      const back = await engine.recallDetailed({ query: 'invoices', project }, { track: false });
      assert.equal(open.opened, 2);
      assert.ok(back.items.some((x) => x.id === teammate), `the server answers again: ${back.notes.join(' | ')}`);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(rejections, []);
    } finally {
      process.off('unhandledRejection', onRejection);
      await engine.close();
    }
  });
});

import * as assert from 'node:assert/strict';
import { ManualClock } from '../../../src/core/clock';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { memoryTeamInfo } from '../../../src/core/team/teamApply';
import { fetchPulledPartial } from '../../../src/core/team/teamServerRows';
import { StoreKnowledgeSource } from '../../../src/extension/knowledge/storeKnowledgeSource';
import { engineOnStore } from '../helpers/testEngine';
import { axis, linkStore, startPgliteTeam, tableEmbedder } from '../helpers/teamRecallFixture';
import type { PgliteTeam } from '../helpers/teamRecallFixture';

/**
 * Recall consulting the team server for a partial replica, against PGlite with its bundled
 * pgvector (docs/team.md "Partial replicas"): the vector arm runs on the server when it has
 * pgvector, and a recalled hit is replicated with its vector.
 */
describe('recall consulting the team server (PGlite with pgvector)', function () {
  this.timeout(120_000);
  const DIMS = 16;
  let team: PgliteTeam;
  let store: MemoryStore;
  const clock = new ManualClock(Date.UTC(2026, 10, 2));

  before(async () => {
    team = await startPgliteTeam(['alice', 'bob']);
    // No word in common with the query below: only the vector arm can find it.
    await team.insertAs('alice', { id: 'alice-kafka', project: 'web', content: 'Order events are published to the Kafka topic orders.v2.', vector: axis(DIMS, 3) });
    await team.insertAs('alice', { id: 'alice-other', project: 'web', content: 'The office plants are watered on Mondays.', vector: axis(DIMS, 9) });
    await team.insertAs('alice', { id: 'alice-payroll', project: 'payroll', content: 'Payroll streams live elsewhere.', vector: axis(DIMS, 3) });
  });
  after(async () => { await team?.close(); });
  beforeEach(async () => { store = await openMemoryStore({ clock }); });
  afterEach(async () => { await store.close(); });

  const embedder = tableEmbedder(DIMS, { 'which message bus carries checkout notifications': axis(DIMS, 3) });

  it('a partial replica finds a teammate\'s memory by the server\'s vector arm, marks it, and replicates it with its vector', async () => {
    await linkStore(store, 'bob', ['web']);
    const open = team.opener();
    const engine = engineOnStore(store, clock, { 'team.replica': 'partial' }, { embedder, teamServer: open });
    try {
      const out = await engine.recallDetailed({ query: 'which message bus carries checkout notifications', limit: 3 }, { track: false });
      const hit = out.items.find((r) => r.id === 'alice-kafka');
      assert.ok(hit, `the server's vector hit is in the results: ${JSON.stringify(out.items.map((r) => r.id))}; notes ${out.notes.join(' | ')}`);
      assert.deepEqual(hit.explain?.sources, ['vector']);
      assert.ok(hit.explain?.notes.includes('from the team server, shared by alice'));
      assert.ok(!out.items.some((r) => r.id === 'alice-payroll'), 'a project this store does not share is never searched');
      assert.equal(out.items[0]?.id, 'alice-kafka', 'the nearest vector ranks first');
      assert.equal(open.opened, 1);
      await engine.settle();
      const replica = store.read((db) => db.get<{ source_type: string; who: string; embedding_model: string | null }>('SELECT source_type, who, embedding_model FROM memories WHERE id = ?', ['alice-kafka']));
      assert.deepEqual(replica, { source_type: 'team', who: 'alice', embedding_model: 'fake-bow' }, 'replicated with the pushed vector of the same model (no re-embedding)');
      assert.deepEqual(memoryTeamInfo(store.read((db) => db), 'alice-kafka')?.author, 'alice');
      assert.ok(!out.items.some((r) => r.id === 'alice-other'));
      assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE id = ?', ['alice-other']))?.n, 0, 'only what the recall returned is replicated');
      // The next recall finds it in the store: ranked by the full local pipeline, no server mark.
      const again = await engine.recallDetailed({ query: 'which message bus carries checkout notifications', limit: 1 }, { track: false });
      assert.equal(again.items[0]?.id, 'alice-kafka');
      assert.ok(!again.items[0]?.explain?.notes.some((n) => n.startsWith('from the team server')), 'held locally now');
    } finally {
      await engine.close();
    }
  });

  it('the Knowledge panel playground, on the engine\'s recall, shows a server hit with its team mark on the first recall', async () => {
    await linkStore(store, 'bob', ['web']);
    const engine = engineOnStore(store, clock, { 'team.replica': 'partial' }, { embedder, teamServer: team.opener() });
    const source = new StoreKnowledgeSource({ store, clock, recallUntracked: (req) => engine.recallDetailed(req, { track: false }) });
    try {
      const views = await source.recall('which message bus carries checkout notifications', 3);
      const view = views.find((v) => v.id === 'alice-kafka');
      assert.ok(view, JSON.stringify(views.map((v) => v.id)));
      assert.deepEqual(view.team, { author: 'alice', mine: false });
    } finally {
      source.dispose();
      await engine.close();
    }
  });

  it('a query embedding slower than the deadline (a model still loading) does not count against the server', async () => {
    await linkStore(store, 'bob', ['web']);
    const slow = { ...embedder, embed: async (texts: string[]) => { await new Promise((r) => setTimeout(r, 400)); return embedder.embed(texts); } };
    const engine = engineOnStore(store, clock, { 'team.replica': 'partial', 'team.serverRecallTimeoutMs': 250 }, { embedder: slow, teamServer: team.opener() });
    try {
      const out = await engine.recallDetailed({ query: 'which message bus carries checkout notifications', limit: 3 }, { track: false });
      assert.equal(out.items[0]?.id, 'alice-kafka', out.notes.join(' | '));
    } finally {
      await engine.close();
    }
  });

  it('a partial replica\'s pull page fetches content and vectors only for the rows it wants, every header in sequence order', async () => {
    const statements: string[] = [];
    const bob = team.pg.as('bob');
    const spy = { query: <R>(text: string, params?: unknown[]) => { statements.push(text); return bob.query<R>(text, params); } };
    const asked: string[][] = [];
    const rows = await fetchPulledPartial(spy, 0, ['web'], 100, (headers) => { asked.push(headers.map((h) => h.id)); return new Set(['alice-other']); });
    assert.deepEqual(asked, [['alice-kafka', 'alice-other']]);
    assert.deepEqual(rows.map((r) => r.id), ['alice-kafka', 'alice-other']);
    assert.ok(rows[0] && rows[1] && rows[0].seq < rows[1].seq);
    assert.equal(rows[0]?.content, '', 'a row not wanted comes without its content');
    assert.equal(rows[0]?.vector, null);
    assert.equal(rows[1]?.content, 'The office plants are watered on Mondays.');
    assert.ok(rows[1]?.vector && rows[1].vector.byteLength > 0);
    assert.equal(statements.length, 2);
    assert.doesNotMatch(statements[0] ?? '', /content/, 'the page itself reads no content');
  });

  it('a full replica that has caught up never asks the server', async () => {
    await linkStore(store, 'bob', ['web'], { caughtUp: true });
    const open = team.opener();
    const engine = engineOnStore(store, clock, {}, { embedder, teamServer: open });
    try {
      const out = await engine.recallDetailed({ query: 'which message bus carries checkout notifications', limit: 3 }, { track: false });
      assert.equal(open.opened, 0);
      assert.ok(!out.items.some((r) => r.id === 'alice-kafka'));
      assert.ok(!out.notes.some((n) => /team server/i.test(n)));
    } finally {
      await engine.close();
    }
  });
});

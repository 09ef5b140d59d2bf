import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';
import { StoreKnowledgeSource } from '../../../src/extension/knowledge/storeKnowledgeSource';
import { KnowledgeController } from '../../../src/extension/knowledge/knowledgeController';
import { FeedbackTelemetry } from '../../../src/core/feedback/feedbackTelemetry';
import { silentLogger } from '../../../src/core/logger';
import { parseHostMessage } from '../../../src/shared/knowledgeProtocol';
import type { HostMessage } from '../../../src/shared/knowledgeProtocolTypes';

const T = '2026-11-01T00:00:00.000Z';
const clock = new ManualClock(Date.parse('2026-11-29T12:00:00Z'));

function entity(w: SqlWriter, id: string, name: string, o: { type?: string; mentions?: number; pinned?: boolean } = {}): void {
  w.run('INSERT INTO entities (id, name, canonical_name, entity_type, mentions, pinned, pinned_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [id, name, name.toLowerCase(), o.type ?? 'tool', o.mentions ?? 1, o.pinned ? 1 : 0, o.pinned ? T : null, T, T]);
}
function aspect(w: SqlWriter, id: string, entityId: string, name: string, weight: number): void {
  w.run('INSERT INTO entity_aspects (id, entity_id, name, canonical_name, weight, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, entityId, name, name, weight, T, T]);
}
function attr(w: SqlWriter, id: string, entityId: string, aspectId: string | null, content: string, o: { kind?: string; status?: string; supersededBy?: string } = {}): void {
  w.run('INSERT INTO entity_attributes (id, entity_id, aspect_id, kind, content, status, superseded_by, importance, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0.7, ?, ?)',
    [id, entityId, aspectId, o.kind ?? 'attribute', content, o.status ?? 'active', o.supersededBy ?? null, T, T]);
}
function comparison(w: SqlWriter, i: number, entityId: string, won: boolean): void {
  w.run('INSERT INTO predictor_comparisons (id, session_key, predictor_won, margin, focal_entity_id, focal_entity_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [`c${i}`, `s${i}`, won ? 1 : 0, won ? 0.2 : -0.1, entityId, 'x', `2026-11-2${i}T00:00:00.000Z`]);
}

describe('Knowledge panel store data source', () => {
  let store: MemoryStore;
  let source: StoreKnowledgeSource;
  const telemetry = new FeedbackTelemetry();

  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await store.write('seed', (w) => {
      entity(w, 'e-api', 'API server', { mentions: 9 });
      entity(w, 'e-db', 'Database', { mentions: 3, type: 'system' });
      entity(w, 'e-pin', 'Release train', { mentions: 1, pinned: true, type: 'project' });
      entity(w, 'e-pct', '100% coverage', { mentions: 2 });
      aspect(w, 'a-low', 'e-api', 'testing', 0.3);
      aspect(w, 'a-high', 'e-api', 'storage', 0.9);
      attr(w, 't-new', 'e-api', 'a-high', 'storage is MongoDB');
      attr(w, 't-old', 'e-api', 'a-high', 'storage is PostgreSQL', { status: 'superseded', supersededBy: 't-new' });
      attr(w, 't-rule', 'e-api', 'a-low', 'never skip the tests', { kind: 'constraint' });
      attr(w, 't-stub', 'e-api', null, 'unclassified note');
      w.run("INSERT INTO relations (id, source_entity_id, target_entity_id, relation_type, created_at, updated_at) VALUES ('r1', 'e-api', 'e-db', 'uses', ?, ?)", [T, T]);
      [false, true, true].forEach((won, i) => comparison(w, i, 'e-api', won));
    });
    source = new StoreKnowledgeSource({ store, clock, telemetry: () => telemetry.snapshot() });
  });
  afterEach(async () => { source.dispose(); await store.close(); });

  it('lists pinned entities first, then by mentions, with counts and health', async () => {
    const page = await source.listEntities({ query: '', entityType: null, offset: 0, limit: 10 });
    // e-pct has nothing attached (no aspect, no relation, not pinned): listed only when searched for.
    assert.deepEqual(page.entities.map((e) => e.id), ['e-pin', 'e-api', 'e-db']);
    assert.equal(page.total, 3);
    assert.deepEqual(page.types, ['project', 'system', 'tool']);
    const api = page.entities[1]!;
    assert.deepEqual([api.aspects, api.attributes, api.constraints, api.relations], [2, 2, 1, 1]);
    assert.equal(api.health?.trend, 'improving');
    assert.ok(Math.abs(api.health!.winRate - 2 / 3) < 1e-9);
    assert.equal(page.entities[2]!.health, null);
  });

  it('filters by name substring (LIKE wildcards are literal) and by type, and pages', async () => {
    const pct = await source.listEntities({ query: '100%', entityType: null, offset: 0, limit: 10 });
    assert.deepEqual(pct.entities.map((e) => e.id), ['e-pct']);
    const none = await source.listEntities({ query: '_', entityType: null, offset: 0, limit: 10 });
    assert.equal(none.total, 0);
    const sys = await source.listEntities({ query: '', entityType: 'system', offset: 0, limit: 10 });
    assert.deepEqual(sys.entities.map((e) => e.id), ['e-db']);
    const second = await source.listEntities({ query: '', entityType: null, offset: 2, limit: 1 });
    assert.deepEqual(second.entities.map((e) => e.id), ['e-db']);
    assert.equal(second.total, 3);
  });

  it('reads a detail with aspects by weight, currentness notes, unclassified attributes and relations', async () => {
    const d = await source.entityDetail('e-api');
    assert.ok(d);
    assert.deepEqual(d.aspects.map((a) => a.name), ['storage', 'testing']);
    const storage = d.aspects[0]!.attributes;
    assert.equal(storage.find((a) => a.id === 't-old')?.currentnessNote, 'Was current from 2026-11-01 until 2026-11-01; now: storage is MongoDB');
    assert.equal(storage.find((a) => a.id === 't-new')?.currentnessNote, 'storage is MongoDB since 2026-11-01; was storage is PostgreSQL (2026-11-01)');
    assert.equal(d.aspects[1]!.attributes[0]!.kind, 'constraint');
    assert.deepEqual(d.unassigned.map((a) => a.id), ['t-stub']);
    assert.deepEqual(d.relations.map((r) => [r.direction, r.otherName]), [['outgoing', 'Database']]);
    const db = await source.entityDetail('e-db');
    assert.deepEqual(db?.relations.map((r) => [r.direction, r.otherName]), [['incoming', 'API server']]);
    assert.equal(await source.entityDetail('nope'), null);
  });

  it('pins and unpins through the pinning module, and fires the change event', async () => {
    let changes = 0;
    const sub = source.onDidChange(() => { changes++; });
    await source.setPinned('e-db', true);
    const page = await source.listEntities({ query: '', entityType: null, offset: 0, limit: 10 });
    assert.deepEqual(page.entities.slice(0, 2).map((e) => e.id), ['e-db', 'e-pin'], 'newest pin first');
    await source.setPinned('e-db', false);
    assert.equal((await source.entityDetail('e-db'))?.summary.pinned, false);
    await assert.rejects(source.setPinned('missing', true), /No entity/);
    await new Promise((r) => setImmediate(r)); // the store fires change events asynchronously
    assert.ok(changes >= 2, `changes: ${changes}`);
    sub.dispose();
  });

  it('reports counts, feedback stats from entity_aspects, and telemetry only once it ran', async () => {
    const s = await source.stats();
    assert.equal(s.counts.entities, 4);
    assert.equal(s.counts.pinned, 1);
    assert.equal(s.counts.aspects, 2);
    assert.equal(s.counts.constraints, 1);
    assert.ok(Math.abs(s.feedback.avgAspectWeight! - 0.6) < 1e-9);
    assert.equal(s.telemetry, null);
    telemetry.record({ feedbackAspectsUpdated: 2, feedbackFtsConfirmations: 3 }, '2026-11-29T12:00:00.000Z');
    const after = await source.stats();
    assert.equal(after.telemetry?.feedbackFtsConfirmations, 3);
  });

  it('shows no focal entities before any session, then the last resolution it is given', async () => {
    assert.equal(await source.focal(), null);
    const withSnap = new StoreKnowledgeSource({ store, clock, lastFocal: () => ({ focal: { entityIds: ['e-pin', 'e-api'], entityNames: ['Release train', 'API server'], pinnedEntityIds: ['e-pin'], source: 'project' }, resolvedAt: T }) });
    const f = await withSnap.focal();
    assert.deepEqual(f, { source: 'project', resolvedAt: T, entities: [{ id: 'e-pin', name: 'Release train', pinned: true }, { id: 'e-api', name: 'API server', pinned: false }] });
    withSnap.dispose();
  });

  it('runs the recall playground with explain, without recording access', async () => {
    await store.write('mem', (w) => w.run("INSERT INTO memories (id, content, created_at, updated_at) VALUES ('m1', 'The API server stores data in MongoDB.', ?, ?)", [T, T]));
    const results = await source.recall('where does the API store data', 5);
    assert.equal(results[0]?.id, 'm1');
    assert.ok(results[0]!.explain!.channels.some((c) => c.name === 'lexical' && c.value > 0));
    const access = store.read((db) => db.get<{ n: number }>("SELECT access_count AS n FROM memories WHERE id = 'm1'"));
    assert.equal(access?.n, 0);
  });

  it('feeds a controller whose every message passes the webview validator', async () => {
    const sent: HostMessage[] = [];
    const c = new KnowledgeController(source, (m) => { assert.ok(parseHostMessage(JSON.parse(JSON.stringify(m))), JSON.stringify(m)); sent.push(m); },
      { openInTree: async () => undefined, copyText: async () => undefined }, silentLogger);
    await c.handle({ type: 'ready' });
    await c.handle({ type: 'search', query: '', entityType: null });
    await c.handle({ type: 'selectEntity', id: 'e-api' });
    await c.handle({ type: 'setPinned', id: 'e-api', pinned: true });
    assert.deepEqual(sent.filter((m) => m.type === 'error'), []);
    const lastPage = sent.filter((m) => m.type === 'page').pop();
    assert.ok(lastPage?.type === 'page');
    assert.equal(lastPage.entities[0]!.id, 'e-api');
  });
});

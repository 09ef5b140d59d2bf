import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_SEARCH_CONFIG, resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';
import { entitySpecificity, getGraphBoostIds, queryCoverage } from '../../../src/core/recall/graphBoost';
import { resolveFocalEntities, projectTokens } from '../../../src/core/recall/focalEntities';
import { traverseKnowledgeGraph } from '../../../src/core/recall/traversal';
import { loadAttributeStates, loadHubInput } from '../../../src/core/recall/candidateGraphFacts';
import { recall } from '../../../src/core/recall/recallService';
import { insertEntity, insertMemory, link, relate, seed } from './recallDb';

const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
const T = '2026-01-01T00:00:00.000Z';

function aspect(w: SqlWriter, id: string, entityId: string, name: string, weight = 0.5): void {
  w.run('INSERT INTO entity_aspects (id, entity_id, name, canonical_name, weight, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, entityId, name, name, weight, T, T]);
}
function attr(w: SqlWriter, id: string, o: { entity: string; aspect?: string; memory: string; kind?: string; status?: string; content: string; supersededBy?: string; importance?: number }): void {
  w.run('INSERT INTO entity_attributes (id, entity_id, aspect_id, memory_id, kind, content, status, superseded_by, importance, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [id, o.entity, o.aspect ?? null, o.memory, o.kind ?? 'attribute', o.content, o.status ?? 'active', o.supersededBy ?? null, o.importance ?? 0.5, T, T]);
}

describe('recall graph stages (in-memory store)', () => {
  let store: MemoryStore;
  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await seed(store, (w) => {
      insertMemory(w, { id: 'm-api', content: 'The API server is written in TypeScript and runs on Node 20.' });
      insertMemory(w, { id: 'm-pg', content: 'Migrations run with a custom runner at boot time.' });
      insertMemory(w, { id: 'm-del', content: 'Old note about the API.' });
      insertMemory(w, { id: 'm-rule', content: 'Never run migrations against production without a backup.', type: 'constraint' });
      insertMemory(w, { id: 'm-old', content: 'The API stores data in PostgreSQL.' });
      insertMemory(w, { id: 'm-new', content: 'We migrated the API storage to MongoDB in May.' });
      w.run("UPDATE memories SET is_deleted = 1 WHERE id = 'm-del'");
      insertEntity(w, 'e-api', 'API', { mentions: 5 });
      insertEntity(w, 'e-db', 'Database', { mentions: 2 });
      insertEntity(w, 'e-app', 'agent-memory', { type: 'project', mentions: 3 });
      insertEntity(w, 'e-pin', 'Release train', { pinned: true });
      relate(w, 'e-api', 'e-db');
      link(w, 'm-api', 'e-api'); link(w, 'm-del', 'e-api'); link(w, 'm-pg', 'e-db');
      aspect(w, 'a-storage', 'e-api', 'storage', 0.9);
      attr(w, 'at-new', { entity: 'e-api', aspect: 'a-storage', memory: 'm-new', content: 'API storage is MongoDB', importance: 0.8 });
      attr(w, 'at-old', { entity: 'e-api', aspect: 'a-storage', memory: 'm-old', content: 'API storage is PostgreSQL', status: 'superseded', supersededBy: 'at-new' });
      attr(w, 'at-rule', { entity: 'e-db', memory: 'm-rule', kind: 'constraint', content: 'backup before production migrations', importance: 0.9 });
    });
  });
  afterEach(async () => { await store.close(); });

  const flat = { ...DEFAULT_SEARCH_CONFIG.graphBoost, specificity: false };

  it('graph boost returns linked memories, one hop neighbours, and never deleted ones', () => {
    const r = store.read((db) => getGraphBoostIds(db, 'how is the API built?', flat));
    assert.deepEqual([...r.memoryIds].sort(), ['m-api', 'm-pg']);
    assert.deepEqual(r.entityIds, ['e-api', 'e-db']);
    assert.equal(r.timedOut, false);
    assert.deepEqual([...r.weights.values()], [1, 1]);
  });

  it('graph boost weighs an entity by specificity and centrality: a store-wide hub adds nothing', async () => {
    // 5 live memories: API (mentions 5) is linked to all of them, Database (mentions 2) to 2 of 5.
    const r = store.read((db) => getGraphBoostIds(db, 'how is the database built?', DEFAULT_SEARCH_CONFIG.graphBoost));
    const dbWeight = Math.log(5 / 2) / Math.log(5);
    assert.ok(Math.abs((r.weights.get('m-pg') ?? 0) - dbWeight) < 1e-9);
    assert.equal(r.weights.has('m-api'), false); // only reachable through API's neighbour link at half of API's ~0 specificity
    assert.ok(Math.abs(entitySpecificity(1, 100) - 1) < 1e-9 && entitySpecificity(100, 100) === 0);
    assert.equal(queryCoverage('lgbtq support group', new Set(['support', 'group'])), 2 / 3);
    const hub = store.read((db) => getGraphBoostIds(db, 'how is the API built?', DEFAULT_SEARCH_CONFIG.graphBoost));
    assert.equal(hub.weights.has('m-api'), false);
  });

  it('graph boost with no match or a zero deadline gives an empty or partial set', () => {
    const none = store.read((db) => getGraphBoostIds(db, 'kubernetes', flat));
    assert.equal(none.memoryIds.size, 0);
    let t = 0;
    const late = store.read((db) => getGraphBoostIds(db, 'API', { ...flat, timeoutMs: 0 }, () => (t += 1)));
    assert.equal(late.timedOut, true);
    assert.equal(late.memoryIds.size, 0);
  });

  it('graph boost returns an empty set on any exception', () => {
    const broken = { all: () => { throw new Error('boom'); }, get: () => undefined, hasTable: () => true };
    assert.equal(getGraphBoostIds(broken, 'API', DEFAULT_SEARCH_CONFIG.graphBoost).memoryIds.size, 0);
  });

  it('focal entities: pinned always unioned, project beats query tokens', () => {
    const r = store.read((db) => resolveFocalEntities(db, { project: '/home/me/src/agent-memory', queryTokens: ['API'] }));
    assert.deepEqual(r.entityIds, ['e-pin', 'e-app']);
    assert.deepEqual(r.pinnedEntityIds, ['e-pin']);
    assert.equal(r.source, 'project');
    assert.deepEqual(projectTokens('C:\\work\\Agent-Memory'), ['work', 'agent-memory']);
  });

  it('focal entities: checkpoint first, then query tokens, then session_key', () => {
    const cp = store.read((db) => resolveFocalEntities(db, { checkpointEntityIds: ['e-db'], project: 'agent-memory', includePinned: false }));
    assert.deepEqual(cp, { entityIds: ['e-db'], entityNames: ['Database'], pinnedEntityIds: [], source: 'checkpoint' });
    const q = store.read((db) => resolveFocalEntities(db, { queryTokens: ['the API'], includePinned: false }));
    assert.deepEqual([q.entityIds, q.source], [['e-api'], 'query']);
    const s = store.read((db) => resolveFocalEntities(db, { project: 'unknown-project', sessionKey: 's1' }));
    assert.deepEqual([s.entityIds, s.source], [['e-pin'], 'session_key']);
  });

  it('traversal walks aspects, attributes, constraints and one dependency hop within budget', () => {
    const t = store.read((db) => traverseKnowledgeGraph(db, ['e-api'], DEFAULT_SEARCH_CONFIG.traversal));
    assert.deepEqual([...t.memoryScores.keys()].sort(), ['m-api', 'm-new', 'm-pg', 'm-rule']);
    assert.ok(t.constraintMemoryIds.has('m-rule'));
    assert.equal(t.memoryScores.get('m-new'), 0.8);
    const small = store.read((db) => traverseKnowledgeGraph(db, ['e-api'], { ...DEFAULT_SEARCH_CONFIG.traversal, maxPaths: 1, maxBranching: 0 }));
    assert.deepEqual([...small.memoryScores.keys()], ['m-new']);
  });

  it('loads hub degrees and attribute states with replacements', () => {
    const hub = store.read((db) => loadHubInput(db, ['m-api', 'm-pg']));
    assert.equal(hub.degreeByEntity.get('e-api'), 5); // entities.mentions
    const states = store.read((db) => loadAttributeStates(db, ['m-old']));
    assert.deepEqual(states.get('m-old'), [{ status: 'superseded', content: 'API storage is PostgreSQL', replacement: 'API storage is MongoDB', replacementMemoryId: 'm-new' }]);
  });

  it('recall down-weights and annotates a superseded fact, and a historical question still finds it', async () => {
    const cfg = resolveSearchConfig({ vector: { enabled: false }, graphBoost: { enabled: false }, traversal: { enabled: false } });
    const now = await recall(store, { query: 'API PostgreSQL MongoDB' }, { clock, config: cfg, track: false });
    assert.equal(now[0]?.id, 'm-new');
    const old = now.find((r) => r.id === 'm-old');
    assert.match(old!.explain!.notes.join('\n'), /superseded by: API storage is MongoDB \(memory m-new\)/);
    const past = await recall(store, { query: 'what did the API use for storage previously, PostgreSQL?' }, { clock, config: cfg, track: false });
    assert.equal(past[0]?.id, 'm-old');
  });

  it('recall boosts graph-linked memories by the additive weight', async () => {
    const base = resolveSearchConfig({ vector: { enabled: false }, traversal: { enabled: false }, graphBoost: { enabled: false, specificity: false }, dampening: { resolutionEnabled: false, hubEnabled: false }, recency: { enabled: false } });
    const boosted = { ...base, graphBoost: { ...base.graphBoost, enabled: true } };
    const a = await recall(store, { query: 'API TypeScript' }, { clock, config: base, track: false });
    const b = await recall(store, { query: 'API TypeScript' }, { clock, config: boosted, track: false });
    const sa = a.find((r) => r.id === 'm-api')!.score, sb = b.find((r) => r.id === 'm-api')!.score;
    assert.ok(Math.abs(sb - sa - 0.15) < 1e-3, `${sa} → ${sb}`);
  });

  it('recall feeds the traversal channel but keeps traversal-only evidence below anchored hits', async () => {
    const cfg = resolveSearchConfig({ vector: { enabled: false }, graphBoost: { enabled: false }, traversal: { enabled: true, minSpecificity: 0 } });
    const r = await recall(store, { query: 'API TypeScript' }, { clock, config: cfg, track: false });
    assert.equal(r[0]?.id, 'm-api');
    const travOnly = r.filter((x) => x.explain!.sources.join() === 'traversal');
    assert.ok(travOnly.length > 0);
    for (const t of travOnly) assert.ok(t.explain!.fused <= 0.35 + 1e-9 && t.score < r[0]!.score);
  });
});

import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { aspectAttributes, aspectsWithCounts, entityHoverCounts, entityMemories, entityRelationCount, entityRelationEdges } from '../../../src/core/graph/entityTreeQueries';
import { countEntities, entityNameAndPin, entityPage, knowledgeTableCounts, latestSessionFocal, listEntityTypes, readEntityStructure } from '../../../src/core/graph/knowledgeQueries';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { storeRowCounts } from '../../../src/core/store/storeCounts';
import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';

const T = '2026-11-01T00:00:00.000Z';

function entity(w: SqlWriter, id: string, name: string, o: { type?: string; mentions?: number; pinned?: boolean; agent?: string } = {}): void {
  w.run('INSERT INTO entities (id, name, canonical_name, entity_type, mentions, pinned, pinned_at, agent_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [id, name, name.toLowerCase(), o.type ?? 'tool', o.mentions ?? 1, o.pinned ? 1 : 0, o.pinned ? T : null, o.agent ?? 'default', T, T]);
}
function aspect(w: SqlWriter, id: string, entityId: string, name: string, weight: number): void {
  w.run('INSERT INTO entity_aspects (id, entity_id, name, canonical_name, weight, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, entityId, name, name, weight, T, T]);
}
function attr(w: SqlWriter, id: string, entityId: string, aspectId: string | null, content: string, o: { kind?: string; status?: string; supersededBy?: string; memoryId?: string } = {}): void {
  w.run('INSERT INTO entity_attributes (id, entity_id, aspect_id, kind, content, status, superseded_by, memory_id, importance, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0.7, ?, ?)',
    [id, entityId, aspectId, o.kind ?? 'attribute', content, o.status ?? 'active', o.supersededBy ?? null, o.memoryId ?? null, T, T]);
}

describe('core graph read queries (Knowledge panel and graph tree)', () => {
  let store: MemoryStore;

  beforeEach(async () => {
    store = await openMemoryStore({ clock: new ManualClock(Date.parse('2026-11-29T12:00:00Z')) });
    await store.write('seed', (w) => {
      entity(w, 'e-api', 'API server', { mentions: 9 });
      entity(w, 'e-db', 'Database', { mentions: 3, type: 'system' });
      entity(w, 'e-pin', 'Release train', { pinned: true, type: 'project' });
      entity(w, 'e-pct', '100% coverage', { mentions: 2 });
      entity(w, 'e-other', 'Other agent tool', { agent: 'bot' });
      aspect(w, 'a-low', 'e-api', 'testing', 0.3);
      aspect(w, 'a-high', 'e-api', 'storage', 0.9);
      const m = insertMemory(w, { id: 'm1', content: 'The API server stores data in MongoDB', createdAt: T }).id;
      insertMemory(w, { id: 'm2', content: 'gone', createdAt: T });
      w.run('UPDATE memories SET is_deleted = 1 WHERE id = ?', ['m2']);
      w.run('INSERT INTO memory_entity_mentions (memory_id, entity_id) VALUES (?, ?)', [m, 'e-api']);
      attr(w, 't-new', 'e-api', 'a-high', 'storage is MongoDB', { memoryId: m });
      attr(w, 't-old', 'e-api', 'a-high', 'storage is PostgreSQL', { status: 'superseded', supersededBy: 't-new' });
      attr(w, 't-rule', 'e-api', 'a-low', 'never skip the tests', { kind: 'constraint' });
      w.run("INSERT INTO relations (id, source_entity_id, target_entity_id, relation_type, mentions, created_at, updated_at) VALUES ('r1', 'e-api', 'e-db', 'uses', 2, ?, ?)", [T, T]);
      w.run('INSERT INTO sessions (session_key, agent_id, focal_entity_ids, started_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', ['k1', 'default', JSON.stringify(['e-pin', '', 7]), T, T, T]);
    });
  });
  afterEach(async () => { await store.close(); });

  it('pages an agent\'s active entities in list order with their counts, filtered by LIKE-escaped text and type', () => {
    store.read((db) => {
      const all = { query: '', entityType: null };
      // Without a search, entities with nothing attached (no aspect, no relation) are not listed.
      // Without a search, unpinned entities with nothing attached (no aspect, no relation) are not listed.
      assert.equal(countEntities(db, 'default', all), 3);
      assert.deepEqual(entityPage(db, 'default', { ...all, offset: 0, limit: 10 }).map((e) => e.id), ['e-pin', 'e-api', 'e-db']);
      assert.deepEqual(entityPage(db, 'default', { ...all, offset: 1, limit: 1 }).map((e) => e.id), ['e-api']);
      // A search still finds them.
      assert.deepEqual(entityPage(db, 'default', { query: 'coverage', entityType: null, offset: 0, limit: 10 }).map((e) => e.id), ['e-pct']);
      const api = entityPage(db, 'default', { query: 'api', entityType: 'tool', offset: 0, limit: 10 });
      assert.deepEqual(api.map((e) => [e.id, e.aspects, e.attributes, e.constraints, e.relations, e.pinned]), [['e-api', 2, 1, 1, 1, false]]);
      assert.equal(countEntities(db, 'default', { query: '0%', entityType: null }), 1, '% is matched literally');
      assert.deepEqual(listEntityTypes(db, 'default'), ['project', 'system', 'tool']);
      assert.deepEqual(listEntityTypes(db, 'bot'), ['tool']);
    });
  });

  it('reads an entity\'s structure: aspects heaviest first, every attribute, relations both ways; undefined for another agent', () => {
    store.read((db) => {
      const s = readEntityStructure(db, 'default', 'e-api');
      assert.ok(s);
      assert.equal(s.entity.canonicalName, 'api server');
      assert.deepEqual(s.aspects.map((a) => a.id), ['a-high', 'a-low']);
      assert.deepEqual(s.attributes.map((a) => a.id).sort(), ['t-new', 't-old', 't-rule']);
      assert.equal(s.attributes.find((a) => a.id === 't-old')?.supersededBy, 't-new');
      assert.deepEqual(s.relations.map((r) => [r.direction, r.otherId, r.otherName]), [['outgoing', 'e-db', 'Database']]);
      assert.deepEqual(readEntityStructure(db, 'default', 'e-db')?.relations.map((r) => r.direction), ['incoming']);
      assert.equal(readEntityStructure(db, 'bot', 'e-api'), undefined);
    });
  });

  it('counts the stats card\'s rows and reads the newest session\'s focal ids (bad entries dropped)', () => {
    store.read((db) => {
      assert.deepEqual(knowledgeTableCounts(db, 'default'), { memories: 1, entities: 4, pinned: 1, aspects: 2, attributes: 1, constraints: 1, relations: 1 });
      assert.deepEqual(latestSessionFocal(db, 'default'), { entityIds: ['e-pin'], startedAt: T });
      assert.equal(latestSessionFocal(db, 'bot'), undefined);
      assert.deepEqual(entityNameAndPin(db, 'e-pin'), { name: 'Release train', pinned: true });
      assert.equal(entityNameAndPin(db, 'missing'), undefined);
    });
  });

  it('gives the graph tree its hover counts, aspects, attributes, relations and live memories', () => {
    store.read((db) => {
      assert.deepEqual(entityHoverCounts(db, 'e-api'), { name: 'API server', type: 'tool', mentions: 9, pinned: false, aspects: 2, attributes: 2, relations: 1 });
      assert.equal(entityHoverCounts(db, 'missing'), undefined);
      assert.deepEqual(aspectsWithCounts(db, 'e-api').map((a) => [a.id, a.activeAttributes]), [['a-high', 1], ['a-low', 1]]);
      assert.deepEqual(aspectAttributes(db, 'a-high').map((a) => [a.id, a.status, a.memoryId]), [['t-new', 'active', 'm1'], ['t-old', 'superseded', null]]);
      assert.equal(entityRelationCount(db, 'e-db'), 1);
      assert.deepEqual(entityRelationEdges(db, 'e-db').map((r) => [r.sourceEntityId, r.otherName, r.mentions]), [['e-api', 'API server', 2]]);
      assert.deepEqual(entityMemories(db, 'e-api').map((m) => m.id), ['m1']);
    });
  });

  it('counts the rows the CLI stats report', () => {
    store.read((db) => assert.deepEqual(storeRowCounts(db), { deletedMemories: 1, entities: 5, relations: 1, embeddings: 0, sessions: 1 }));
  });
});

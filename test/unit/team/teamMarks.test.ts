import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { insertMemory } from '../../../src/core/memory/memoryRecords';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';
import { applyPulled } from '../../../src/core/team/teamApply';
import type { IncomingRow } from '../../../src/core/team/teamApply';
import { shareMemory, unshareMemory } from '../../../src/core/team/teamOutbox';
import { saveConnection, setProjectShared } from '../../../src/core/team/teamState';
import { teamMarks } from '../../../src/core/team/teamMarks';
import { readEntityDetail } from '../../../src/extension/knowledge/entityViews';
import { StoreKnowledgeSource } from '../../../src/extension/knowledge/storeKnowledgeSource';
import { aspectChildren, ATTRIBUTE_ICONS } from '../../../src/extension/tree/graphTreeData';
import { parseHostMessage } from '../../../src/shared/knowledgeProtocol';
import { teamMarkLabel, teamMarkSentence } from '../../../webview/teamMarkText';

const T = '2026-11-01T00:00:00.000Z';
const clock = new ManualClock(Date.parse('2026-11-29T12:00:00Z'));
const applyDeps = { clock, jobs: DEFAULT_JOBS_CONFIG, embeddingModelId: undefined, extract: false };

function pulled(id: string, seq: number, author: string, content: string): IncomingRow {
  return {
    id, seq, author, content, project: 'web', type: 'fact', content_hash: `h-${id}`, tags: null, importance: 0.5, confidence: 1,
    created_at: T, deleted: false, model_id: null, dimensions: null, vector: null,
  };
}

function attr(w: SqlWriter, id: string, memoryId: string, content: string): void {
  w.run(`INSERT INTO entity_attributes (id, entity_id, aspect_id, memory_id, kind, content, status, importance, created_at, updated_at)
         VALUES (?, 'e-api', 'a-db', ?, 'attribute', ?, 'active', 0.7, ?, ?)`, [id, memoryId, content, T, T]);
}

describe('team marks: team memories and their author in the tree and the Knowledge panel', () => {
  let store: MemoryStore;

  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await store.write('seed', (w) => {
      saveConnection(w, 'postgresql://bob@db.example.com:5432/team', 'db.example.com:5432/team', 'bob');
      setProjectShared(w, 'web', true);
      insertMemory(w, { id: 'm-mine', content: 'The API server stores sessions in Redis.', project: 'web', createdAt: T });
      insertMemory(w, { id: 'm-personal', content: 'The API server logs to stdout.', project: 'scratch', createdAt: T });
      insertMemory(w, { id: 'm-same', content: 'The API server uses PostgreSQL 15.', project: 'web', createdAt: T });
      shareMemory(w, 'm-mine', T);
      // A teammate's new memory, and one whose text this store already held (it merges into m-same).
      applyPulled(w, [pulled('m-alice', 1, 'alice', 'The API server runs migrations at start-up.'), pulled('m-carol', 2, 'carol', 'The API server uses PostgreSQL 15.')], applyDeps);
      w.run("INSERT INTO entities (id, name, canonical_name, entity_type, mentions, created_at, updated_at) VALUES ('e-api', 'API server', 'api server', 'system', 4, ?, ?)", [T, T]);
      w.run("INSERT INTO entity_aspects (id, entity_id, name, canonical_name, weight, created_at, updated_at) VALUES ('a-db', 'e-api', 'storage', 'storage', 0.8, ?, ?)", [T, T]);
      attr(w, 't-mine', 'm-mine', 'sessions live in Redis');
      attr(w, 't-alice', 'm-alice', 'migrations run at start-up');
      attr(w, 't-same', 'm-same', 'uses PostgreSQL 15');
      attr(w, 't-personal', 'm-personal', 'logs go to stdout');
    });
  });
  afterEach(async () => { await store.close(); });

  it('marks a teammate\'s replica with its author, a merged replica with the teammate, and one\'s own shared memory as mine', () => {
    const marks = store.read((db) => teamMarks(db, ['m-mine', 'm-alice', 'm-same', 'm-personal', 'm-unknown']));
    assert.deepEqual(marks.get('m-alice'), { author: 'alice', mine: false });
    assert.deepEqual(marks.get('m-same'), { author: 'carol', mine: false });
    assert.deepEqual(marks.get('m-mine'), { author: 'bob', mine: true });
    assert.equal(marks.has('m-personal'), false);
    assert.equal(marks.has('m-unknown'), false);
    assert.equal(store.read((db) => teamMarks(db, [])).size, 0);
  });

  it('drops the mark after Stop Sharing', async () => {
    await store.write('unshare', (w) => unshareMemory(w, 'm-mine', T));
    assert.equal(store.read((db) => teamMarks(db, ['m-mine'])).has('m-mine'), false);
  });

  it('reads marks for more memories than one SQL statement binds', () => {
    const ids = [...Array.from({ length: 1_500 }, (_, i) => `missing-${i}`), 'm-alice'];
    assert.deepEqual(store.read((db) => teamMarks(db, ids)).get('m-alice'), { author: 'alice', mine: false });
  });

  it('shows the author in the tree: description, icon and tooltip of the attribute rows', () => {
    const nodes = store.read((db) => aspectChildren(db, 'a-db', 'e-api', 'type:system/e:e-api/a:a-db'));
    const byId = new Map(nodes.map((n) => [n.id.split('/t:')[1], n]));
    const alice = byId.get('t-alice');
    assert.ok(alice?.kind === 'attribute');
    assert.match(alice.description, /team · alice$/);
    assert.equal(alice.icon, ATTRIBUTE_ICONS.team);
    // The fact, its currentness and source (graphTreeData.ts attributeTooltip), then who shared it.
    assert.match(alice.tooltip, /^migrations run at start-up\n\nCurrent; stated \d{4}-\d\d-\d\d\.\n\nSource: .*\n\nShared with the team by alice\.$/);
    const mine = byId.get('t-mine');
    assert.ok(mine?.kind === 'attribute');
    assert.match(mine.description, /shared by you$/);
    assert.equal(mine.icon, ATTRIBUTE_ICONS.sharedByMe);
    assert.match(mine.tooltip, /Shared with the team by you \(bob\)\./);
    const personal = byId.get('t-personal');
    assert.ok(personal?.kind === 'attribute');
    assert.equal(personal.team, null);
    assert.equal(personal.icon, ATTRIBUTE_ICONS.personal);
    assert.doesNotMatch(personal.description, /team|shared/);
    assert.match(personal.tooltip, /^logs go to stdout\n\nCurrent; stated /);
    assert.doesNotMatch(personal.tooltip, /Shared with the team/);
  });

  it('sends the marks in the panel\'s entity detail, through the protocol validator', () => {
    const detail = store.read((db) => readEntityDetail(db, 'default', 'e-api', () => null));
    assert.ok(detail);
    const team = new Map(detail.aspects[0]!.attributes.map((a) => [a.id, a.team]));
    assert.deepEqual(team.get('t-alice'), { author: 'alice', mine: false });
    assert.deepEqual(team.get('t-same'), { author: 'carol', mine: false });
    assert.deepEqual(team.get('t-mine'), { author: 'bob', mine: true });
    assert.equal(team.get('t-personal'), null);
    const msg = parseHostMessage(JSON.parse(JSON.stringify({ type: 'detail', id: 'e-api', detail })));
    assert.ok(msg?.type === 'detail');
    assert.deepEqual(msg.detail?.aspects[0]!.attributes.find((a) => a.id === 't-alice')?.team, { author: 'alice', mine: false });
  });

  it('marks team memories among the recall playground\'s results', async () => {
    const source = new StoreKnowledgeSource({ store, clock });
    try {
      const results = await source.recall('API server migrations start-up', 10);
      const alice = results.find((r) => r.id === 'm-alice');
      assert.deepEqual(alice?.team, { author: 'alice', mine: false });
      const personal = (await source.recall('API server logs stdout', 10)).find((r) => r.id === 'm-personal');
      assert.ok(personal, 'the personal memory is recalled');
      assert.equal(personal.team, null);
    } finally {
      source.dispose();
    }
  });

  it('refuses a malformed mark in a host message', () => {
    const bad = { type: 'recallResult', requestId: 1, query: 'q', tookMs: 1, results: [{ id: 'm', content: 'c', score: 1, relevance: 1, memoryType: 'fact', createdAt: null, stale: null, explain: null, team: { author: 7, mine: false } }] };
    assert.equal(parseHostMessage(bad), undefined);
    const missing = { ...bad, results: [{ ...bad.results[0], team: undefined }] };
    assert.equal(parseHostMessage(missing), undefined);
    const ok = { ...bad, results: [{ ...bad.results[0], team: { author: null, mine: true } }] };
    assert.ok(parseHostMessage(ok));
  });

  it('words a mark the same way in the tree and the panel', () => {
    assert.equal(teamMarkLabel({ author: 'alice', mine: false }), 'team · alice');
    assert.equal(teamMarkLabel({ author: 'bob', mine: true }), 'shared by you');
    assert.equal(teamMarkSentence({ author: null, mine: false }), 'Shared with the team by an unknown author.');
    assert.equal(teamMarkSentence({ author: null, mine: true }), 'Shared with the team by you.');
  });
});

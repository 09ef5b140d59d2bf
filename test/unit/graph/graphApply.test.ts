import { strict as assert } from 'node:assert';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { isMemoryError } from '../../../src/core/errors';
import { heuristicExtract } from '../../../src/core/extraction/heuristicExtractor';
import { listGraphOps } from '../../../src/core/graph/graphAudit';
import { applyGraphOp, applyGraphOps } from '../../../src/core/graph/graphApply';
import type { GraphOp } from '../../../src/core/graph/graphApply';
import { upsertEntity } from '../../../src/core/graph/entityWrites';
import { unscopedEntityName } from '../../../src/core/graph/unscopedEntityName';
import type { SqlWriter } from '../../../src/core/store/storeTypes';
import { graphFixture } from './graphFixture';
import type { GraphFixture } from './graphFixture';

describe('knowledge graph apply path', () => {
  let f: GraphFixture;
  beforeEach(async () => { f = await graphFixture(); });
  const run = (...ops: GraphOp[]) => applyGraphOps(f.store, { actor: 'test', reason: 'unit test', clock: f.clock }, ops);
  const attr = (content: string) => f.store.read((db) => db.get<{ id: string; status: string; superseded_by: string | null }>('SELECT id, status, superseded_by FROM entity_attributes WHERE content = ?', [content]));

  it('upserts entities by canonical name and increments mentions', async () => {
    const [m1, m2] = [await f.memory('a'), await f.memory('b')];
    await run({ op: 'upsert_entity', name: 'PostgreSQL', type: 'tool', memoryId: m1 }, { op: 'upsert_entity', name: '  postgresql ', type: 'tool', memoryId: m2 });
    const rows = f.store.read((db) => db.all<{ name: string; canonical_name: string; mentions: number }>('SELECT name, canonical_name, mentions FROM entities'));
    assert.deepEqual(rows, [{ name: 'PostgreSQL', canonical_name: 'postgresql', mentions: 2 }]);
  });

  it('canonicalises case and inner whitespace', async () => {
    await run({ op: 'upsert_entity', name: 'Release   Check\tList', type: 'concept' });
    assert.equal(f.store.read((db) => db.get<{ c: string }>('SELECT canonical_name AS c FROM entities')?.c), 'release check list');
  });

  it('finds an unscoped entity by name through its unique index, and never a scoped one of that name', async () => {
    const first = await f.store.write('graph', (db) => upsertEntity(db, f.ctx(), { name: 'Redis', type: 'tool' }));
    await f.store.write('scope', (db) => db.run("UPDATE entities SET scope = 'team' WHERE id = ?", [first.id]));
    const second = await f.store.write('graph', (db) => upsertEntity(db, f.ctx(), { name: 'redis', type: 'tool' }));
    assert.equal(second.created, true, 'the scoped twin is not the unscoped entity');
    assert.notEqual(second.id, first.id);
    const again = await f.store.write('graph', (db) => upsertEntity(db, f.ctx(), { name: 'REDIS', type: 'tool' }));
    assert.deepEqual([again.created, again.id], [false, second.id]);
    // An upsert per extracted entity: a walk of every entity of the agent made ingest linear in the graph's size.
    const plan = f.store.read((db) => db.all<{ detail: string }>(`EXPLAIN QUERY PLAN SELECT id FROM entities WHERE agent_id = ? AND ${unscopedEntityName()}`, ['default', 'redis']).map((r) => r.detail).join('; '));
    assert.match(plan, /uq_entities_canonical \(agent_id=\? AND <expr>=\? AND canonical_name=\?\)/);
  });

  it('falls back to the existing row on a UNIQUE collision and increments it', async () => {
    await run({ op: 'upsert_entity', name: 'Redis', type: 'tool' });
    // Simulate a racing writer: the lookup misses once, so the insert hits the unique index.
    await f.store.write('graph', (db) => {
      let hidden = false;
      const racing: SqlWriter = { ...db, all: db.all.bind(db), run: db.run.bind(db), hasTable: db.hasTable.bind(db),
        get: ((sql: string, params?: never) => {
          if (!hidden && sql.startsWith('SELECT id, description FROM entities')) { hidden = true; return undefined; }
          return db.get(sql, params);
        }) as SqlWriter['get'] };
      const r = upsertEntity(racing, f.ctx(), { name: 'REDIS', type: 'tool' });
      assert.equal(r.created, false);
      applyGraphOp(racing, f.ctx(), { op: 'upsert_entity', name: 'redis', type: 'tool' });
    });
    const rows = f.store.read((db) => db.all<{ mentions: number }>('SELECT mentions FROM entities'));
    assert.deepEqual(rows, [{ mentions: 2 }]);
    assert.ok(listGraphOps(f.store.read((db) => db)).some((o) => o.op === 'entity_confirm' && o.details.via === 'unique_collision'));
  });

  it('dedups relations on (source, target, type) with a running-average confidence and strength 1.0', async () => {
    await run({ op: 'upsert_entity', name: 'API', type: 'system' }, { op: 'upsert_entity', name: 'Postgres', type: 'tool' });
    await run({ op: 'upsert_relation', from: 'API', to: 'Postgres', type: 'uses', confidence: 0.9 });
    await run({ op: 'upsert_relation', from: 'api', to: 'postgres', type: 'uses', confidence: 0.5 });
    await run({ op: 'upsert_relation', from: 'API', to: 'Postgres', type: 'uses', confidence: 0.4 });
    await run({ op: 'upsert_relation', from: 'API', to: 'Postgres', type: 'depends_on', confidence: 0.4 });
    const rows = f.store.read((db) => db.all<{ relation_type: string; mentions: number; confidence: number; strength: number }>('SELECT relation_type, mentions, confidence, strength FROM relations ORDER BY relation_type'));
    assert.equal(rows.length, 2);
    const uses = rows.find((r) => r.relation_type === 'uses');
    assert.equal(uses?.mentions, 3);
    // (0.9·1 + 0.5)/2 = 0.7, then (0.7·2 + 0.4)/3 = 0.6
    assert.ok(Math.abs((uses?.confidence ?? 0) - 0.6) < 1e-9, String(uses?.confidence));
    assert.equal(uses?.strength, 1.0);
  });

  it('makes mention links idempotent (INSERT OR IGNORE)', async () => {
    const m = await f.memory('a');
    await run({ op: 'upsert_entity', name: 'API', type: 'system', memoryId: m, mentionText: 'the API' });
    await run({ op: 'upsert_entity', name: 'API', type: 'system', memoryId: m, mentionText: 'API again' });
    const rows = f.store.read((db) => db.all<{ mention_text: string }>('SELECT mention_text FROM memory_entity_mentions'));
    assert.deepEqual(rows, [{ mention_text: 'the API' }]);
    assert.equal(f.count('SELECT mentions AS n FROM entities'), 1);
  });

  it('records every mutation in graph_ops with actor, op, reason and time', async () => {
    await applyGraphOps(f.store, { actor: 'user', reason: 'manual edit', clock: f.clock }, [{ op: 'upsert_entity', name: 'API', type: 'system' }]);
    const ops = listGraphOps(f.store.read((db) => db));
    assert.deepEqual(ops.map((o) => [o.op, o.actor, o.reason, o.createdAt]), [['entity_create', 'user', 'manual edit', '2026-01-01T00:00:00.000Z']]);
  });

  it('rejects an invalid operation with a coded error and writes nothing', async () => {
    await assert.rejects(run({ op: 'upsert_entity', name: 'A', type: 'system' }, { op: 'upsert_entity', name: 'B', type: 'planet' as never }), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
    await assert.rejects(run({ op: 'upsert_entity', name: 'A', type: 'system' }, { op: 'upsert_relation', from: 'A', to: 'Nope', type: 'uses', confidence: 0.5 }), (e: unknown) => isMemoryError(e, 'E_NOT_FOUND'));
    assert.equal(f.count('SELECT COUNT(*) AS n FROM entities'), 0);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM graph_ops'), 0);
  });

  it('supersedes "the API uses PostgreSQL" with "we migrated the API to MongoDB" through the claim key', async () => {
    const t0 = f.clock.now();
    const m1 = await f.memory('The API uses PostgreSQL.', t0);
    const m2 = await f.memory('We migrated the API to MongoDB.', t0 + 60_000);
    await run({ op: 'apply_extraction', sources: [m1], payload: heuristicExtract('The API uses PostgreSQL.', DEFAULT_EXTRACTION_CONFIG), origin: 'heuristic' });
    await run({ op: 'apply_extraction', sources: [m2], payload: heuristicExtract('We migrated the API to MongoDB.', DEFAULT_EXTRACTION_CONFIG), origin: 'heuristic' });
    const newer = attr('We migrated the API to MongoDB.');
    assert.equal(newer?.status, 'active');
    assert.deepEqual(attr('The API uses PostgreSQL.'), { id: attr('The API uses PostgreSQL.')?.id, status: 'superseded', superseded_by: newer?.id });
  });

  it('lets source timestamps decide: an older claim written later is itself superseded', async () => {
    const t0 = f.clock.now();
    const late = await f.memory('The API uses MongoDB.', t0 + 60_000);
    const early = await f.memory('The API uses PostgreSQL.', t0);
    await run({ op: 'apply_extraction', sources: [late], payload: heuristicExtract('The API uses MongoDB.', DEFAULT_EXTRACTION_CONFIG), origin: 'heuristic' });
    await run({ op: 'apply_extraction', sources: [early], payload: heuristicExtract('The API uses PostgreSQL.', DEFAULT_EXTRACTION_CONFIG), origin: 'heuristic' });
    assert.equal(attr('The API uses MongoDB.')?.status, 'active');
    assert.equal(attr('The API uses PostgreSQL.')?.status, 'superseded');
  });

  it('does not supersede unrelated claims on the same aspect', async () => {
    await run({ op: 'upsert_entity', name: 'API', type: 'system' },
      { op: 'write_attribute', entity: 'API', aspect: 'dependencies', kind: 'attribute', content: 'The API uses PostgreSQL.', groupKey: 'uses', claimKey: 'database' },
      { op: 'write_attribute', entity: 'API', aspect: 'dependencies', kind: 'attribute', content: 'The API caches in Redis.', groupKey: 'uses', claimKey: 'cache' },
      { op: 'write_attribute', entity: 'API', aspect: 'dependencies', kind: 'attribute', content: 'The API is written in Go.' });
    assert.equal(f.count("SELECT COUNT(*) AS n FROM entity_attributes WHERE status = 'active'"), 3);
  });

  it('never supersedes constraints at write time', async () => {
    await run({ op: 'upsert_entity', name: 'CLI', type: 'system' },
      { op: 'write_attribute', entity: 'CLI', aspect: 'rules', kind: 'constraint', content: 'Output must be JSON.', groupKey: 'output', claimKey: 'format' },
      { op: 'write_attribute', entity: 'CLI', aspect: 'rules', kind: 'constraint', content: 'Output must be plain text.', groupKey: 'output', claimKey: 'format' },
      { op: 'write_attribute', entity: 'CLI', aspect: 'rules', kind: 'attribute', content: 'Output is YAML.', groupKey: 'output', claimKey: 'format' });
    assert.equal(attr('Output must be JSON.')?.status, 'active');
    assert.equal(attr('Output must be plain text.')?.status, 'active');
  });

  it('supersedes a claim-less sibling only when it contradicts (negation or antonym)', async () => {
    await run({ op: 'upsert_entity', name: 'Telemetry', type: 'concept' },
      { op: 'write_attribute', entity: 'Telemetry', aspect: 'settings', kind: 'attribute', content: 'Telemetry is enabled in production builds.' },
      { op: 'write_attribute', entity: 'Telemetry', aspect: 'settings', kind: 'attribute', content: 'Telemetry uploads once a day.' });
    f.clock.advance(1000);
    await run({ op: 'write_attribute', entity: 'Telemetry', aspect: 'settings', kind: 'attribute', content: 'Telemetry is disabled in production builds.' });
    assert.equal(attr('Telemetry is enabled in production builds.')?.status, 'superseded');
    assert.equal(attr('Telemetry uploads once a day.')?.status, 'active');
  });

  it('confirms a repeated attribute instead of duplicating it', async () => {
    await run({ op: 'upsert_entity', name: 'API', type: 'system' },
      { op: 'write_attribute', entity: 'API', aspect: 'deps', kind: 'attribute', content: 'The API uses PostgreSQL.', confidence: 0.6 },
      { op: 'write_attribute', entity: 'API', aspect: 'deps', kind: 'attribute', content: 'the API uses postgresql', confidence: 0.6 });
    const rows = f.store.read((db) => db.all<{ confidence: number }>('SELECT confidence FROM entity_attributes'));
    assert.equal(rows.length, 1);
    assert.ok((rows[0]?.confidence ?? 0) > 0.6);
  });

  it('supersedes a claim explicitly, constraints included, keeping the slot', async () => {
    const [res] = await run({ op: 'upsert_entity', name: 'CLI', type: 'system' });
    assert.equal(res?.op, 'upsert_entity');
    const [w] = await run({ op: 'write_attribute', entity: 'CLI', aspect: 'rules', kind: 'constraint', content: 'Output must be JSON.', groupKey: 'output', claimKey: 'format' });
    const id = w?.op === 'write_attribute' ? w.attribute.id : '';
    const [s] = await run({ op: 'supersede_claim', attributeId: id, content: 'Output must be NDJSON.' });
    assert.ok(s?.op === 'supersede_claim' && s.replacementId);
    const replacement = f.store.read((db) => db.get<{ kind: string; claim_key: string; status: string }>('SELECT kind, claim_key, status FROM entity_attributes WHERE content = ?', ['Output must be NDJSON.']));
    assert.deepEqual(replacement, { kind: 'constraint', claim_key: 'format', status: 'active' });
    assert.equal(attr('Output must be JSON.')?.status, 'superseded');
    await assert.rejects(run({ op: 'supersede_claim', attributeId: id }), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
    await assert.rejects(run({ op: 'supersede_claim', attributeId: 'missing' }), (e: unknown) => isMemoryError(e, 'E_NOT_FOUND'));
  });

  it('propagateMemoryStatus supersedes attributes of deleted or missing memories and returns the count', async () => {
    const [kept, deleted] = [await f.memory('kept'), await f.memory('deleted')];
    await run({ op: 'upsert_entity', name: 'API', type: 'system' },
      { op: 'write_attribute', entity: 'API', aspect: 'a', kind: 'attribute', content: 'from kept', memoryId: kept },
      { op: 'write_attribute', entity: 'API', aspect: 'a', kind: 'attribute', content: 'from deleted', memoryId: deleted });
    await f.store.write('t', (db) => db.run('UPDATE memories SET is_deleted = 1 WHERE id = ?', [deleted]));
    const [r] = await run({ op: 'propagate_memory_status' });
    assert.deepEqual(r, { op: 'propagate_memory_status', count: 1 });
    assert.equal(attr('from deleted')?.status, 'superseded');
    assert.equal(attr('from deleted')?.superseded_by, null);
    assert.equal(attr('from kept')?.status, 'active');
    const [again] = await run({ op: 'propagate_memory_status' });
    assert.deepEqual(again, { op: 'propagate_memory_status', count: 0 });
  });
});

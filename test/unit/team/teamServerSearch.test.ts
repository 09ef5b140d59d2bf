import * as assert from 'node:assert/strict';
import { DEFAULT_SEARCH_CONFIG } from '../../../src/core/config/searchConfig';
import type { SearchConfig } from '../../../src/core/config/searchConfig';
import { isMemoryError } from '../../../src/core/errors';
import { vectorToBlob } from '../../../src/core/models/vectorStore';
import { applyServerMigrations } from '../../../src/core/team/serverMigrate';
import { MEMBER_ROLE, SEARCH_INDEX_MODEL, SERVER_MIGRATIONS, VECTOR_MIGRATION_VERSION } from '../../../src/core/team/serverSchema';
import { NO_PGVECTOR_NOTE, searchTeamServer, vectorArmStatement, vectorLiteral } from '../../../src/core/team/serverSearch';
import type { ServerSearchRequest, ServerSearchResult } from '../../../src/core/team/serverSearch';
import type { ServerSql } from '../../../src/core/team/serverSql';
import { startPglite } from '../helpers/pgliteServer';
import type { PgliteServer } from '../helpers/pgliteServer';

const MODEL = SEARCH_INDEX_MODEL.id;
const DIMS = SEARCH_INDEX_MODEL.dimensions;

/** A unit vector near axis `axis` (a small share of `other`, so vectors are not all orthogonal). */
function axisVector(axis: number, other = (axis + 1) % DIMS, dims: number = DIMS): Float32Array {
  const v = new Float32Array(dims);
  v[axis % dims] = 0.95;
  v[other % dims] = 0.312;
  return v;
}

interface Row { id: string; project: string; content: string; vector?: Float32Array; model?: string; layout?: 'int8' | 'float32'; deleted?: boolean }

async function insertAs(sql: ServerSql, r: Row): Promise<void> {
  const blob = r.vector ? Buffer.from(vectorToBlob(r.vector, r.layout ?? 'int8')) : null;
  await sql.query(
    `INSERT INTO agent_memory.memories (id, project, type, content, content_hash, created_at, deleted, model_id, dimensions, vector)
     VALUES ($1, $2, 'fact', $3, md5($3), '2026-11-01T00:00:00.000Z', $4, $5, $6, $7)`,
    [r.id, r.project, r.deleted ? '' : r.content, r.deleted === true, r.vector ? r.model ?? MODEL : null, r.vector ? r.vector.length : null, blob]);
}

const ids = (r: ServerSearchResult): string[] => r.hits.map((h) => h.id);
const lexicalOff: SearchConfig = { ...DEFAULT_SEARCH_CONFIG, lexical: { ...DEFAULT_SEARCH_CONFIG.lexical, enabled: false } };

describe('server-side hybrid search (PGlite with its bundled pgvector)', function () {
  this.timeout(120_000);
  let pg: PgliteServer;
  let alice: ServerSql, bob: ServerSql;

  before(async () => {
    pg = await startPglite();
    // Migrations 1-2 first: rows pushed before the server had pgvector get their vectors from migration 3's backfill.
    const first = await applyServerMigrations(pg.sql, SERVER_MIGRATIONS.filter((m) => m.version < VECTOR_MIGRATION_VERSION));
    assert.deepEqual(first.applied, [1, 2]);
    await pg.sql.query(`CREATE ROLE alice LOGIN IN ROLE ${MEMBER_ROLE}; CREATE ROLE bob LOGIN IN ROLE ${MEMBER_ROLE}; CREATE ROLE mallory LOGIN;`);
    alice = pg.as('alice');
    bob = pg.as('bob');
    await insertAs(alice, { id: 'pre-1', project: 'web', content: 'The deploy pipeline pushes images to the staging registry first.', vector: axisVector(7) });
  });
  after(async () => { await pg?.close(); });

  it('migration 3 adds the vector column with its HNSW index and fills rows pushed before it, without new sequence numbers', async () => {
    const seqBefore = (await pg.sql.query<{ seq: string }>("SELECT seq::text AS seq FROM agent_memory.memories WHERE id = 'pre-1'")).rows[0]?.seq;
    const r = await applyServerMigrations(pg.sql);
    assert.deepEqual(r.applied, [VECTOR_MIGRATION_VERSION]);
    assert.deepEqual(r.skipped, []);
    const row = (await pg.sql.query<{ seq: string; filled: boolean; cos: number }>(
      `SELECT seq::text AS seq, embedding IS NOT NULL AS filled, 1 - ((embedding::vector(${DIMS})) <=> $1::vector(${DIMS})) AS cos FROM agent_memory.memories WHERE id = 'pre-1'`,
      [vectorLiteral(axisVector(7))])).rows[0];
    assert.equal(row?.seq, seqBefore, 'filling a derived column is not a change to pull');
    assert.equal(row?.filled, true);
    assert.ok((row?.cos ?? 0) > 0.999, `decoded vector matches the pushed one (cosine ${row?.cos})`);
    const idx = await pg.sql.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'memories_embedding_default_idx'");
    assert.match(idx.rows[0]?.indexdef ?? '', /hnsw/);
    assert.deepEqual((await applyServerMigrations(pg.sql)).applied, [], 'init again applies nothing');
  });

  it('decodes both pushed vector layouts (int8 with scale, raw float32) through the trigger', async () => {
    const v = axisVector(11, 300);
    await insertAs(alice, { id: 'layout-int8', project: 'layouts', content: 'int8 layout', vector: v, layout: 'int8' });
    await insertAs(alice, { id: 'layout-f32', project: 'layouts', content: 'float32 layout', vector: v, layout: 'float32' });
    const rows = (await pg.sql.query<{ id: string; cos: number; norm: number }>(
      `SELECT id, 1 - ((embedding::vector(${DIMS})) <=> $1::vector(${DIMS})) AS cos, vector_norm(embedding) AS norm FROM agent_memory.memories WHERE project = 'layouts' ORDER BY id`,
      [vectorLiteral(v)])).rows;
    assert.equal(rows.length, 2);
    for (const r of rows) assert.ok(r.cos > 0.999, `${r.id}: cosine ${r.cos}`);
    const f32 = rows.find((r) => r.id === 'layout-f32');
    assert.ok(Math.abs((f32?.norm ?? 0) - Math.hypot(0.95, 0.312)) < 1e-5, 'float32 components decoded exactly');
  });

  describe('queries', () => {
    before(async () => {
      await applyServerMigrations(pg.sql); // idempotent: the first test may have been left out by a grep
      await insertAs(alice, { id: 'cache', project: 'web', content: 'The caching layer keeps rendered pages in Redis for ten minutes.', vector: axisVector(1) });
      await insertAs(alice, { id: 'queue', project: 'web', content: 'Background jobs run on a RabbitMQ queue with three workers.', vector: axisVector(2) });
      await insertAs(bob, { id: 'both', project: 'web', content: 'Cache invalidation events travel on the jobs queue.', vector: axisVector(3) });
      await insertAs(bob, { id: 'secret', project: 'payroll', content: 'The payroll caching layer is separate and never shared with web.', vector: axisVector(2) });
      // Same text words and the query's own vector, but another model or another dimension: never compared.
      await insertAs(bob, { id: 'other-model', project: 'web', content: 'Notes about the office plants.', vector: axisVector(2), model: 'other-model' });
      await insertAs(bob, { id: 'other-dims', project: 'web', content: 'Notes about the office chairs.', vector: axisVector(2, 3, 64) });
      await insertAs(alice, { id: 'gone', project: 'web', content: 'Caching layer notes that were forgotten.', vector: axisVector(1) });
      await alice.query("UPDATE agent_memory.memories SET deleted = true, content = '', vector = NULL WHERE id = 'gone'");
    });

    const request = (query: string, extra: Partial<ServerSearchRequest> = {}): ServerSearchRequest => ({ query, projects: ['web'], ...extra });

    it('lexical only: without a query vector, stemmed terms over the tsvector, majority of terms, tombstones and other projects excluded', async () => {
      const r = await searchTeamServer(bob, request('caching layer'), DEFAULT_SEARCH_CONFIG);
      assert.equal(r.vector, 'no-query-vector');
      assert.equal(r.lexicalTerms, 2);
      assert.deepEqual(ids(r), ['cache'], 'two-term query: both terms must hit; "Cache invalidation" hits one');
      assert.deepEqual(r.hits[0]?.sources, ['lexical']);
      assert.equal(r.hits[0]?.author, 'alice');
      assert.equal(r.hits[0]?.mine, false);
      assert.equal(r.hits[0]?.channels.semantic, 0);
      const stemmed = await searchTeamServer(bob, request('queues'), DEFAULT_SEARCH_CONFIG);
      assert.deepEqual(ids(stemmed).sort(), ['both', 'queue'], '"queues" finds "queue" (english stemming)');
    });

    it('vector only: nearest rows of the query model, other models and dimensions excluded', async () => {
      const r = await searchTeamServer(alice, request('zzz', { queryVector: { modelId: MODEL, vector: axisVector(2) } }), lexicalOff);
      assert.equal(r.vector, 'used');
      assert.equal(r.hits[0]?.id, 'queue');
      assert.deepEqual(r.hits[0]?.sources, ['vector']);
      assert.ok((r.hits[0]?.channels.semantic ?? 0) > 0.99);
      assert.ok(!ids(r).includes('other-model') && !ids(r).includes('other-dims'), `rows of other models are never compared: ${ids(r).join(', ')}`);
      assert.ok(!ids(r).includes('secret') && !ids(r).includes('gone'));
    });

    it('hybrid: both arms fused like local recall; a row found by both ranks first', async () => {
      // Lexical: "cache"/"queue" terms; vector: near 'both'.
      const r = await searchTeamServer(alice, request('cache queue', { queryVector: { modelId: MODEL, vector: axisVector(3) } }), DEFAULT_SEARCH_CONFIG);
      assert.equal(r.vector, 'used');
      assert.equal(r.hits[0]?.id, 'both');
      assert.deepEqual(r.hits[0]?.sources, ['lexical', 'vector']);
      assert.equal(r.hits[0]?.mine, false);
      const cfg = DEFAULT_SEARCH_CONFIG;
      const top = r.hits[0];
      // The fused score is shapeScore's: alpha · semantic (max-normalised) + (1 − alpha) · lexical.
      assert.ok(top && Math.abs(top.score - Math.min(1, cfg.alpha * 1 + (1 - cfg.alpha) * top.channels.lexical)) < 1e-6, `score ${top?.score}`);
      // A lexical-only hit still gets its cosine from the server (it has a vector of the model).
      const lexOnly = await searchTeamServer(alice, request('rendered pages', { queryVector: { modelId: MODEL, vector: axisVector(3) } }), DEFAULT_SEARCH_CONFIG);
      // (At alpha 0.5 it ties with 'both', the vector-only hit: which comes first is not the point.)
      const cacheHit = lexOnly.hits.find((h) => h.id === 'cache');
      assert.ok(cacheHit?.sources.includes('lexical'));
      assert.ok((cacheHit?.channels.semantic ?? -1) >= 0);
    });

    it('a model the server holds no vectors of falls back to lexical, saying so', async () => {
      const r = await searchTeamServer(alice, request('caching layer', { queryVector: { modelId: 'unknown-model', vector: axisVector(1) } }), DEFAULT_SEARCH_CONFIG);
      assert.deepEqual(ids(r), ['cache']);
      assert.ok(r.notes.some((n) => n.includes('unknown-model')));
      assert.equal(r.hits[0]?.mine, true, 'alice sees her own memory marked as hers');
    });

    it('searches only the given projects; another shared project is found when asked for', async () => {
      const web = await searchTeamServer(bob, request('payroll caching layer'), DEFAULT_SEARCH_CONFIG);
      assert.ok(!ids(web).includes('secret'));
      const payroll = await searchTeamServer(bob, request('payroll caching layer', { projects: ['payroll'] }), DEFAULT_SEARCH_CONFIG);
      assert.deepEqual(ids(payroll), ['secret']);
    });

    it('row-level security applies: a role outside the member group reads nothing', async () => {
      await assert.rejects(searchTeamServer(pg.as('mallory'), request('caching layer'), DEFAULT_SEARCH_CONFIG), (e: unknown) => (e as { code?: string }).code === '42501');
    });

    it('the vector statement can use the partial HNSW index (its predicate names the indexed model)', async () => {
      await pg.sql.query('BEGIN');
      try {
        // A table this small is cheaper to read through the project index; without it (dropped
        // inside this rolled-back transaction) and without sequential scans, the HNSW index must match.
        await pg.sql.query('DROP INDEX agent_memory.memories_project_seq_idx');
        await pg.sql.query("SELECT set_config('enable_seqscan', 'off', true)");
        const plan = await pg.sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${vectorArmStatement(MODEL, DIMS)}`, [vectorLiteral(axisVector(1)), ['web'], 10]);
        assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /memories_embedding_default_idx/);
      } finally {
        await pg.sql.query('ROLLBACK');
      }
    });

    it('refuses bad input with a specific error', async () => {
      await assert.rejects(searchTeamServer(alice, request('  '), DEFAULT_SEARCH_CONFIG), (e: unknown) => isMemoryError(e, 'E_USAGE'));
      await assert.rejects(searchTeamServer(alice, request('x', { projects: [] }), DEFAULT_SEARCH_CONFIG), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
      await assert.rejects(searchTeamServer(alice, request('x', { queryVector: { modelId: "x'; DROP TABLE y; --", vector: axisVector(1) } }), DEFAULT_SEARCH_CONFIG), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
    });
  });
});

describe('server-side search on a server without pgvector (PGlite without the extension)', function () {
  this.timeout(120_000);
  let pg: PgliteServer;
  before(async () => { pg = await startPglite(false); });
  after(async () => { await pg?.close(); });

  it('init skips the vector migration with the reason; search is lexical only and says the server lacks pgvector', async () => {
    const r = await applyServerMigrations(pg.sql);
    assert.deepEqual(r.applied, [1, 2]);
    assert.equal(r.skipped.length, 1);
    assert.equal(r.skipped[0]?.version, VECTOR_MIGRATION_VERSION);
    assert.match(r.skipped[0]?.reason ?? '', /"vector" extension/);
    await pg.sql.query(`CREATE ROLE alice LOGIN IN ROLE ${MEMBER_ROLE}`);
    const alice = pg.as('alice');
    await insertAs(alice, { id: 'a', project: 'web', content: 'The caching layer keeps rendered pages in Redis.', vector: axisVector(1) });
    const found = await searchTeamServer(alice, { query: 'caching layer', projects: ['web'], queryVector: { modelId: MODEL, vector: axisVector(1) } }, DEFAULT_SEARCH_CONFIG);
    assert.equal(found.vector, 'server-lacks-pgvector');
    assert.deepEqual(found.notes, [NO_PGVECTOR_NOTE]);
    assert.deepEqual(found.hits.map((h) => h.id), ['a']);
    assert.equal(found.hits[0]?.mine, true);
  });
});

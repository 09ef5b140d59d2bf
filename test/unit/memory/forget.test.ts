import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { isMemoryError } from '../../../src/core/errors';
import { heuristicExtract } from '../../../src/core/extraction/heuristicExtractor';
import { applyGraphOps } from '../../../src/core/graph/graphApply';
import { forgetMemory, softDeleteMemory } from '../../../src/core/memory/forget';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { storeEmbedding } from '../../../src/core/jobs/embedHandler';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

describe('delete and forget', () => {
  let store: MemoryStore;
  let clock: ManualClock;
  beforeEach(async () => { clock = new ManualClock(); store = await openMemoryStore({ clock }); });
  const n = (sql: string, p: string[] = []) => store.read((db) => db.get<{ n: number }>(sql, p)?.n ?? 0);

  async function seeded(text: string): Promise<string> {
    const r = await remember(store, { content: text }, defaultRememberDeps(clock));
    await applyGraphOps(store, { actor: 'test', reason: 'seed', clock }, [{ op: 'apply_extraction', sources: [r.id], payload: heuristicExtract(text, DEFAULT_EXTRACTION_CONFIG), origin: 'heuristic' }]);
    await store.write('t', (db) => {
      storeEmbedding(db, r.id, 'fake', new Float32Array([1, 0, 0]), '2026-01-01T00:00:00.000Z');
      db.run("INSERT INTO memory_hints (memory_id, hint, created_at) VALUES (?, 'which database does the api use', '2026-01-01T00:00:00.000Z')", [r.id]);
    });
    return r.id;
  }

  it('soft delete hides the memory, supersedes its attributes and drops pending jobs', async () => {
    const id = await seeded('The API uses PostgreSQL.');
    assert.equal(await softDeleteMemory(store, id, clock), true);
    assert.equal(n('SELECT is_deleted AS n FROM memories WHERE id = ?', [id]), 1);
    assert.equal(n("SELECT COUNT(*) AS n FROM entity_attributes WHERE status = 'active'"), 0);
    assert.equal(n("SELECT COUNT(*) AS n FROM memory_jobs WHERE status = 'pending'"), 0);
    assert.equal(await softDeleteMemory(store, id, clock), false);
    const again = await remember(store, { content: 'The API uses PostgreSQL.' }, defaultRememberDeps(clock));
    assert.notEqual(again.id, id, 'a deleted memory no longer dedups');
  });

  it('forget removes the row, its FTS row, vectors, hints, mentions, attributes, jobs and orphan entities', async () => {
    const keep = await seeded('The CLI uses Node.js.');
    const id = await seeded('The API uses PostgreSQL.');
    const before = n('SELECT COUNT(*) AS n FROM memories_fts WHERE memories_fts MATCH ?', ['postgresql']);
    assert.equal(before, 1);
    const hintsBefore = n('SELECT COUNT(*) AS n FROM memory_hints_fts WHERE memory_hints_fts MATCH ?', ['database']);
    const s = await forgetMemory(store, id, clock);
    assert.equal(s.vectorsRemoved, 1);
    assert.equal(s.hintsRemoved, 1);
    assert.ok(s.mentionsRemoved >= 2 && s.attributesRemoved === 1 && s.relationsRemoved === 1 && s.entitiesRemoved >= 1, JSON.stringify(s));
    assert.equal(n('SELECT COUNT(*) AS n FROM memories WHERE id = ?', [id]), 0);
    assert.equal(n('SELECT COUNT(*) AS n FROM memories_fts WHERE memories_fts MATCH ?', ['postgresql']), 0);
    assert.equal(n('SELECT COUNT(*) AS n FROM memory_hints_fts WHERE memory_hints_fts MATCH ?', ['database']), hintsBefore - 1);
    for (const t of ['embeddings', 'memory_hints', 'memory_entity_mentions', 'entity_attributes', 'memory_jobs']) {
      assert.equal(n(`SELECT COUNT(*) AS n FROM ${t} WHERE ${t === 'embeddings' ? 'source_id' : 'memory_id'} = ?`, [id]), 0, t);
    }
    assert.equal(n("SELECT COUNT(*) AS n FROM entities WHERE canonical_name = 'postgresql'"), 0);
    assert.equal(n('SELECT COUNT(*) AS n FROM memories WHERE id = ?', [keep]), 1);
    assert.equal(n("SELECT COUNT(*) AS n FROM entities WHERE canonical_name = 'cli'"), 1);
    assert.ok(n("SELECT COUNT(*) AS n FROM graph_ops WHERE op = 'attribute_delete' AND memory_id = ?", [id]) >= 1, 'audited');
  });

  it('forgetting the newer claim makes the older one current again', async () => {
    const old = await seeded('The API uses PostgreSQL.');
    clock.advance(60_000);
    const newer = await seeded('We migrated the API to MongoDB.');
    assert.equal(n("SELECT COUNT(*) AS n FROM entity_attributes WHERE memory_id = ? AND status = 'superseded'", [old]), 1);
    await forgetMemory(store, newer, clock);
    assert.equal(n("SELECT COUNT(*) AS n FROM entity_attributes WHERE memory_id = ? AND status = 'active'", [old]), 1);
  });

  it('reports an unknown id as E_NOT_FOUND', async () => {
    await assert.rejects(forgetMemory(store, 'nope', clock), (e: unknown) => isMemoryError(e, 'E_NOT_FOUND'));
    await assert.rejects(softDeleteMemory(store, 'nope', clock), (e: unknown) => isMemoryError(e, 'E_NOT_FOUND'));
  });
});

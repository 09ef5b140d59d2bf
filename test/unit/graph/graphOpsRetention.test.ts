import { strict as assert } from 'node:assert';
import { applyGraphOp } from '../../../src/core/graph/graphApply';
import { listGraphOps } from '../../../src/core/graph/graphAudit';
import { compactGraphOps, graphOpsPrunedTo } from '../../../src/core/graph/graphOpsRetention';
import { graphFixture } from './graphFixture';

describe('graph_ops retention', () => {
  it('keeps the last rows and live relation provenance, and forgetting an old memory still removes its relation', async () => {
    const f = await graphFixture();
    const ctx = f.ctx();
    const old = await f.memory('Orion uses Postgres for storage');
    await f.store.write('g', (db) => {
      applyGraphOp(db, ctx, { op: 'upsert_entity', name: 'Orion', type: 'project', memoryId: old });
      applyGraphOp(db, ctx, { op: 'upsert_entity', name: 'Postgres', type: 'tool', memoryId: old });
    });
    await f.store.write('g', (db) => applyGraphOp(db, ctx, { op: 'upsert_relation', from: 'Orion', to: 'Postgres', type: 'uses', confidence: 0.8, memoryId: old }));
    // Many later audit rows from other memories push the first ones out of a 50-row window.
    for (let i = 0; i < 30; i++) {
      const m = await f.memory(`note ${i} about Atlas${i}`);
      await f.store.write('g', (db) => applyGraphOp(db, ctx, { op: 'upsert_entity', name: `Atlas${i}`, type: 'project', memoryId: m }));
    }
    const before = f.count('SELECT COUNT(*) AS n FROM graph_ops');
    const deleted = await f.store.write('compact', (db) => compactGraphOps(db, { keep: 50, step: 10 }));
    const after = f.count('SELECT COUNT(*) AS n FROM graph_ops');
    assert.ok(deleted > 0 && after === before - deleted, `${before} → ${after}`);
    const max = f.count('SELECT MAX(rowid) AS n FROM graph_ops');
    assert.equal(f.count('SELECT COUNT(*) AS n FROM graph_ops WHERE rowid > ?', [max - 50]), 50, 'the last 50 rows are all kept');
    assert.equal(f.count("SELECT COUNT(*) AS n FROM graph_ops WHERE memory_id = ? AND op = 'relation_create'", [old]), 1, 'provenance of a live relation is kept');
    assert.equal(f.count("SELECT COUNT(*) AS n FROM graph_ops WHERE memory_id = ? AND op <> 'relation_create'", [old]), 0, 'other old rows are gone');
    assert.equal(f.store.read((db) => graphOpsPrunedTo(db)), max - 50);
    assert.equal(f.store.read((db) => listGraphOps(db)).length, after, 'what is kept stays queryable');
    // A second compaction with nothing new past the step does nothing.
    assert.equal(await f.store.write('compact', (db) => compactGraphOps(db, { keep: 50, step: 10 })), 0);
    const detached = await f.store.write('forget', (db) => applyGraphOp(db, ctx, { op: 'detach_memory', memoryId: old }));
    assert.equal((detached as { summary: { relationsRemoved: number } }).summary.relationsRemoved, 1);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM relations'), 0);
    await f.store.close();
  });

  it('runs by itself after graph writes once the window is exceeded by a step', async () => {
    const f = await graphFixture();
    const ctx = f.ctx();
    await f.store.write('g', (db) => {
      // Audit rows written directly (as pin/unpin do) then one graph op that triggers the check.
      for (let i = 0; i < 5_700; i++) db.run("INSERT INTO graph_ops (op, target_kind, target_id, actor, details, created_at) VALUES ('pin', 'entity', ?, 'test', '{}', '2026-01-01T00:00:00.000Z')", [`e-${i}`]);
      applyGraphOp(db, ctx, { op: 'upsert_entity', name: 'Vega', type: 'project' });
    });
    const n = f.count('SELECT COUNT(*) AS n FROM graph_ops');
    assert.ok(n <= 5_000 + 10, String(n));
    await f.store.close();
  });
});

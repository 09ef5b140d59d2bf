import { strict as assert } from 'node:assert';
import { applyGraphOp } from '../../../src/core/graph/graphApply';
import { listGraphOps } from '../../../src/core/graph/graphAudit';
import { MEMORY_CLAIM_GROUP } from '../../../src/core/graph/memorySupersessionWrites';
import { memorySupersessionsFor } from '../../../src/core/extraction/memorySupersessionScan';
import { loadAttributeStates } from '../../../src/core/recall/candidateGraphFacts';
import { graphFixture } from './graphFixture';
import type { GraphFixture } from './graphFixture';

const DAY = 86_400_000;

describe('memory-level supersession through the graph (supersede_memory)', () => {
  let f: GraphFixture;
  let older: string;
  let newer: string;
  beforeEach(async () => {
    f = await graphFixture();
    const t0 = f.clock.now();
    older = await f.memory('The admin API listens on port 9000.', t0);
    newer = await f.memory('Port 9000 was taken by the profiler, so the admin API now listens on 127.0.0.1:9100.', t0 + DAY);
  });

  it('finds the pair from either memory, by its words, and records it once with an audit trail', async () => {
    const fromNew = f.store.read((db) => memorySupersessionsFor(db, newer));
    const fromOld = f.store.read((db) => memorySupersessionsFor(db, older));
    assert.deepEqual(fromNew.map((x) => [x.olderId, x.newerId, x.kind]), [[older, newer, 'value_change']]);
    assert.deepEqual(fromOld, fromNew);
    const first = await f.store.write('t', (db) => applyGraphOp(db, f.ctx(), { op: 'supersede_memory', olderId: older, newerId: newer, why: 'port changed' }));
    const again = await f.store.write('t', (db) => applyGraphOp(db, f.ctx(), { op: 'supersede_memory', olderId: older, newerId: newer, why: 'port changed' }));
    assert.deepEqual([first, again], [{ op: 'supersede_memory', superseded: true }, { op: 'supersede_memory', superseded: false }]);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM entity_attributes WHERE group_key = ? AND entity_id IS NULL AND aspect_id IS NULL', [MEMORY_CLAIM_GROUP]), 2);
    const states = f.store.read((db) => loadAttributeStates(db, [older, newer]));
    assert.deepEqual(states.get(older), [{ status: 'superseded', content: 'The admin API listens on port 9000.', wholeMemory: true,
      replacement: 'Port 9000 was taken by the profiler, so the admin API now listens on 127.0.0.1:9100.', replacementMemoryId: newer }]);
    assert.equal(states.get(newer)?.[0]?.status, 'active');
    assert.ok(f.store.read((db) => listGraphOps(db)).some((o) => o.op === 'attribute_supersede' && o.details.why === 'port changed'));
  });

  it('refuses a reversed time order and a self-supersession, and restores the older memory when the newer is forgotten', async () => {
    assert.deepEqual(await f.store.write('t', (db) => applyGraphOp(db, f.ctx(), { op: 'supersede_memory', olderId: newer, newerId: older, why: 'x' })), { op: 'supersede_memory', superseded: false });
    await assert.rejects(() => f.store.write('t', (db) => applyGraphOp(db, f.ctx(), { op: 'supersede_memory', olderId: older, newerId: older, why: 'x' })), /cannot supersede itself/);
    await f.store.write('t', (db) => applyGraphOp(db, f.ctx(), { op: 'supersede_memory', olderId: older, newerId: newer, why: 'port changed' }));
    await f.store.write('t', (db) => applyGraphOp(db, f.ctx(), { op: 'detach_memory', memoryId: newer }));
    assert.equal(f.store.read((db) => loadAttributeStates(db, [older])).get(older)?.[0]?.status, 'active');
  });
});

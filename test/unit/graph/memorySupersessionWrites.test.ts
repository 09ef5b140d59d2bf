import { strict as assert } from 'node:assert';
import { applyGraphOp } from '../../../src/core/graph/graphApply';
import { listGraphOps } from '../../../src/core/graph/graphAudit';
import { MEMORY_CLAIM_GROUP } from '../../../src/core/graph/memorySupersessionWrites';
import { memorySupersessionsFor } from '../../../src/core/extraction/memorySupersessionScan';
import { analyseMemory, findMemorySupersessions, supersessionRole } from '../../../src/core/extraction/memorySupersession';
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

  it('the per-memory scan finds exactly the all-pairs findings that involve the memory, whichever is extracted last (the older-only shortcut loses none)', async () => {
    // A corpus with every role: memories that only state things (superseded only by a newer one),
    // ones that name what they replace, settings, a shared timestamp, and later memories that
    // supersede earlier ones in both directions of extraction order.
    const t0 = f.clock.now() + 10 * DAY;
    const texts = [
      'We store the sessions in the JSON file on disk.',
      'The billing service reads its rates from the legacy pricing table.',
      'The sync worker retries failed uploads every minute.',
      'Moved the sessions from the JSON file to SQLite, the JSON file is gone.',
      'The billing service now reads its rates from the pricing API instead of the legacy pricing table.',
      'The sync worker timeout is 30 s.',
      'The sync worker timeout is now 45 s after the upload failures.',
      'The docs site is built with Jekyll and deployed by hand.',
      'The docs site is built with Astro instead of Jekyll and deployed by hand.',
      'The admin API listens on port 7000 behind the proxy.',
      'The cache lives in Redis for the sessions of the web app.',
    ];
    const ids: string[] = [];
    for (const [i, text] of texts.entries()) ids.push(await f.memory(text, t0 + (i === 10 ? 9 : i) * DAY));
    const rows = f.store.read((db) => db.all<{ id: string; type: string; content: string; created_at: string }>('SELECT id, type, content, created_at FROM memories'));
    const memories = rows.map((r) => ({ id: r.id, type: r.type, content: r.content, createdAt: r.created_at }));
    const roles = new Set(memories.map((m) => supersessionRole(analyseMemory(m))));
    assert.ok(roles.has('olderOnly') && roles.has('any'), `the corpus covers both roles: ${[...roles].join(', ')}`);
    const all = findMemorySupersessions(memories).map((x) => `${x.olderId}>${x.newerId}:${x.kind}`);
    assert.ok(all.length >= 4, `the corpus has supersessions: ${all.length}`);
    // Extracted in any order from a bulk ingest (every memory pending first): each pair is found by
    // the scan of the one extracted last, so the union is exactly the all-pairs findings.
    const orders = { 'time order': [...memories], 'reverse time order': [...memories].reverse(), 'interleaved': [...memories].sort((a, b) => (a.id < b.id ? -1 : 1)) };
    for (const [name, order] of Object.entries(orders)) {
      await f.store.write('bulk', (db) => db.run("UPDATE memories SET extraction_status = 'pending'"));
      const found = new Set<string>();
      for (const m of order) {
        const fs = await f.store.write('extract', (db) => {
          db.run("UPDATE memories SET extraction_status = 'complete' WHERE id = ?", [m.id]);
          return memorySupersessionsFor(db, m.id);
        });
        for (const x of fs) found.add(`${x.olderId}>${x.newerId}:${x.kind}`);
      }
      assert.deepEqual([...found].sort(), [...all].sort(), name);
    }
    await f.store.write('settled', (db) => db.run("UPDATE memories SET extraction_status = 'none'"));
    let olderOnlyFindings = 0;
    for (const m of memories) {
      const expected = all.filter((k) => k.startsWith(`${m.id}>`) || k.includes(`>${m.id}:`)).sort();
      const found = f.store.read((db) => memorySupersessionsFor(db, m.id)).map((x) => `${x.olderId}>${x.newerId}:${x.kind}`).sort();
      assert.deepEqual(found, expected, m.content);
      if (supersessionRole(analyseMemory(m)) === 'olderOnly') olderOnlyFindings += found.length;
    }
    assert.ok(olderOnlyFindings > 0, 'an older-only memory still finds the newer memory that supersedes it');
  });
});

/**
 * A person resolves a conflict maintenance proposed (issue #27, "Conflicts a person can resolve"):
 * one row per answer, on the demo's port change remembered through the engine (the extractor has
 * already judged the newer memory current, as on the demo). Each answer goes through the audited
 * graph path and shows in the very next recall; "both are true" also teaches the detector.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { recordProposals } from '../../../src/core/consolidation/conflictRecords';
import type { ConflictChoice } from '../../../src/core/consolidation/conflictRecords';
import type { MemoryEngine } from '../../../src/core/engine/memoryEngine';
import { listGraphOps } from '../../../src/core/graph/graphAudit';
import { isMemoryError } from '../../../src/core/errors';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { engineOnStore } from '../helpers/testEngine';

const OLD = 'The server listens on port 8080.';
const NEW = "Port 8080 clashed with the user's local proxy, so the server now listens on 127.0.0.1:4310 (PORT in shelf/server.py).";
const QUERY = 'which port does the server listen on';

interface Case {
  readonly choice: ConflictChoice;
  /** Status of each memory's whole-memory claim afterwards. */
  readonly claims: { readonly older: string; readonly newer: string };
  /** The memory recall ranks first (both true: plain relevance decides), and which one it marks superseded (none: neither). */
  readonly first?: 'older' | 'newer';
  readonly marked: 'older' | 'newer' | 'none';
  readonly message: RegExp;
}

const CASES: readonly Case[] = [
  { choice: 'keep-newer', claims: { older: 'superseded', newer: 'active' }, first: 'newer', marked: 'older', message: /^Kept the newer memory "Port 8080 clashed.*\(2026-08-29\); the older one is marked superseded\.$/ },
  { choice: 'keep-older', claims: { older: 'active', newer: 'superseded' }, first: 'older', marked: 'newer', message: /^Kept the older memory "The server listens on port 8080\." \(2026-06-02\); the newer one is marked superseded\.$/ },
  { choice: 'both-true', claims: { older: 'active', newer: 'active' }, marked: 'none', message: /^Both memories stay current; this pair and copies of the same two statements will not be proposed again\.$/ },
];

interface World { store: MemoryStore; engine: MemoryEngine<MemoryStore>; older: string; newer: string; conflictId: string }

async function world(): Promise<World> {
  const clock = new ManualClock(Date.UTC(2026, 9, 1));
  const store = await openMemoryStore({ clock });
  let n = 0;
  const engine = engineOnStore(store, clock, {}, { newId: () => `id-${String(++n).padStart(4, '0')}` });
  const older = (await engine.remember({ content: OLD, type: 'fact', createdAt: '2026-06-02T09:00:00.000Z' })).id;
  await engine.remember({ content: 'Tests run with unittest, not pytest.', type: 'preference', createdAt: '2026-06-03T09:00:00.000Z' });
  const newer = (await engine.remember({ content: NEW, type: 'fact', createdAt: '2026-08-29T11:04:00.000Z' })).id;
  await engine.settle();
  await store.write('t', (db) => recordProposals(db, [{ olderId: older, newerId: newer, reason: 'value_change', detail: 'port', confidence: 0.8 }], '2026-10-01T00:00:00.000Z', () => 'conflict-1'));
  return { store, engine, older, newer, conflictId: 'conflict-1' };
}

const claimStatus = (w: World, id: string): string | undefined => w.store.read((db) => db.get<{ status: string }>(
  "SELECT status FROM entity_attributes WHERE memory_id = ? AND entity_id IS NULL AND group_key = 'memory'", [id])?.status);

describe('resolving a proposed conflict: keep newer, keep older, both are true', () => {
  it('starts from the demo state: the extractor judged the newer one current, and the pair is listed side by side', async () => {
    const w = await world();
    const [c] = w.engine.conflicts();
    assert.ok(c);
    assert.deepEqual([c.older.content, c.older.createdAt.slice(0, 10), c.newer.content, c.newer.createdAt.slice(0, 10)], [OLD, '2026-06-02', NEW, '2026-08-29']);
    assert.equal(c.reason, 'value change');
    assert.equal(c.current, 'newer');
    await w.engine.close();
  });

  for (const c of CASES) {
    it(`${c.choice}: audited as the user, current at once in recall`, async () => {
      const w = await world();
      const r = await w.engine.resolveConflict(w.conflictId, c.choice);
      assert.match(r.message, c.message);
      assert.deepEqual({ older: claimStatus(w, w.older), newer: claimStatus(w, w.newer) }, c.claims);
      // The newer memory's derived attributes follow its claim (and the older one's follow its own).
      const derived = (id: string) => w.store.read((db) => db.all<{ status: string }>('SELECT status FROM entity_attributes WHERE memory_id = ? AND entity_id IS NOT NULL', [id]).map((x) => x.status));
      if (c.claims.newer === 'superseded') assert.ok(derived(w.newer).every((s) => s === 'superseded'), 'the newer memory\'s facts are history');
      if (c.claims.older === 'active') assert.ok(derived(w.older).length === 0 || derived(w.older).some((s) => s === 'active'), 'the older memory\'s facts are current again');
      assert.equal(w.engine.conflicts().length, 0, 'no longer listed');
      const ops = w.store.read((db) => listGraphOps(db)).filter((o) => o.op === 'conflict_resolve');
      assert.deepEqual(ops.map((o) => [o.actor, o.details.choice]), [['user', c.choice]]);

      const results = await w.engine.recall({ query: QUERY, limit: 5 }, { track: false });
      const rank = (id: string) => results.findIndex((x) => x.id === id);
      assert.ok(rank(w.older) >= 0 && rank(w.newer) >= 0, 'both recalled');
      if (c.first) {
        const [first, second] = c.first === 'newer' ? [w.newer, w.older] : [w.older, w.newer];
        assert.ok(rank(first) < rank(second), `${c.first} ranks first: ${results.map((x) => x.content.slice(0, 30)).join(' | ')}`);
      }
      const marked = results.filter((x) => x.currentness?.status === 'superseded').map((x) => (x.id === w.older ? 'older' : x.id === w.newer ? 'newer' : x.id));
      assert.deepEqual(marked, c.marked === 'none' ? [] : [c.marked]);
      await assert.rejects(w.engine.resolveConflict(w.conflictId, 'keep-newer'), (e: unknown) => isMemoryError(e) && /already resolved/.test(e.message));
      await w.engine.close();
    });
  }

  it('both are true teaches the detector: the pair and copies of the two statements are not proposed again, another pair still is', async () => {
    const w = await world();
    await w.engine.resolveConflict(w.conflictId, 'both-true');
    const copy = (await w.engine.remember({ content: "port 8080 clashed with the user's local proxy -- so the server now listens on 127.0.0.1:4310 (PORT in shelf/server.py)", type: 'fact', createdAt: '2026-09-01T10:00:00.000Z' })).id;
    const other = (await w.engine.remember({ content: 'The server moved again and now listens on port 5000.', type: 'fact', createdAt: '2026-09-20T10:00:00.000Z' })).id;
    await w.engine.settle();
    // The extractor did not decide the copy's pair again: the older memory is still current after it.
    assert.equal(claimStatus(w, w.older) === 'superseded' && w.store.read((db) => db.get<{ x: number }>(
      "SELECT 1 AS x FROM entity_attributes a JOIN entity_attributes b ON b.id = a.superseded_by WHERE a.memory_id = ? AND a.group_key = 'memory' AND b.memory_id = ?", [w.older, copy])) !== undefined, false);
    const pair = (olderId: string, newerId: string) => ({ olderId, newerId, reason: 'value_change', detail: 'port', confidence: 0.8 });
    const table: { readonly what: string; readonly olderId: string; readonly newerId: string; readonly proposed: boolean }[] = [
      { what: 'the same pair', olderId: w.older, newerId: w.newer, proposed: false },
      { what: 'the same pair in the other order', olderId: w.newer, newerId: w.older, proposed: false },
      { what: 'the older memory and a copy of the newer statement', olderId: w.older, newerId: copy, proposed: false },
      { what: 'the older memory and a different newer statement', olderId: w.older, newerId: other, proposed: true },
    ];
    let k = 0;
    for (const t of table) {
      const kept = await w.store.write('t', (db) => recordProposals(db, [pair(t.olderId, t.newerId)], '2026-10-02T00:00:00.000Z', () => `c-${++k}`));
      assert.equal(kept.length === 1, t.proposed, t.what);
    }
    await w.engine.close();
  });

  it('refuses an unknown answer or a conflict that is not listed, with a clear message', async () => {
    const w = await world();
    await assert.rejects(w.engine.resolveConflict(w.conflictId, 'keep-both' as ConflictChoice), /Unknown answer 'keep-both': use keep-newer, keep-older or both-true\./);
    await assert.rejects(w.engine.resolveConflict('nope', 'keep-newer'), /no longer listed; run maintenance again/);
    await w.engine.close();
  });
});

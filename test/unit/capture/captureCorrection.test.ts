import { strict as assert } from 'node:assert';
import { markMemoryWrongInTransaction } from '../../../src/core/capture/captureCorrection';
import { MemoryError } from '../../../src/core/errors';
import { addAspect, addAttribute, addEntity, addMemory, openTestStore } from '../feedback/graphFixture';

describe('capture: wrong or outdated', () => {
  it('retires the memory keeping its row, supersedes its attributes and lowers its aspects (logged as feedback)', async () => {
    const { store, clock } = await openTestStore();
    try {
      const now = clock.now();
      const { memoryId, aspectId, attrId } = await store.write('seed', (db) => {
        const e = addEntity(db, now, 'ledger service');
        const a = addAspect(db, now, e, 'storage', 0.5);
        const m = addMemory(db, now, { content: 'The ledger service stores money as floats.' });
        return { memoryId: m, aspectId: a, attrId: addAttribute(db, now, e, a, m) };
      });
      const r = await store.write('wrong', (db) => markMemoryWrongInTransaction(db, memoryId, clock, { delta: 0.05, minWeight: 0.1 }));
      assert.deepEqual(r, { changed: true, aspectsLowered: 1 });
      const after = store.read((db) => ({
        memory: db.get<{ is_deleted: number }>('SELECT is_deleted FROM memories WHERE id = ?', [memoryId]),
        weight: db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ?', [aspectId])?.weight,
        attr: db.get<{ status: string }>('SELECT status FROM entity_attributes WHERE id = ?', [attrId])?.status,
        log: db.all<{ kind: string; weight_before: number; weight_after: number }>('SELECT kind, weight_before, weight_after FROM aspect_feedback_log'),
      }));
      assert.equal(after.memory?.is_deleted, 1, 'kept as history, out of recall');
      assert.ok(Math.abs((after.weight ?? 0) - 0.45) < 1e-9);
      assert.notEqual(after.attr, 'active');
      assert.deepEqual(after.log, [{ kind: 'wrong', weight_before: 0.5, weight_after: after.weight }]);
      assert.deepEqual(await store.write('again', (db) => markMemoryWrongInTransaction(db, memoryId, clock, { delta: 0.05, minWeight: 0.1 })), { changed: false, aspectsLowered: 0 });
      await assert.rejects(store.write('missing', (db) => markMemoryWrongInTransaction(db, 'nope', clock, { delta: 0.05, minWeight: 0.1 })), (e: unknown) => e instanceof MemoryError && e.code === 'E_NOT_FOUND');
    } finally {
      await store.close();
    }
  });
});

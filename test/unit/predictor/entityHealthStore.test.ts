import { strict as assert } from 'node:assert';
import { isoFromMs } from '../../../src/core/clock';
import { getEntityHealth } from '../../../src/core/predictor/entityHealth';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { CORE_MIGRATION } from '../../../src/core/store/schema/coreSchema';
import { openTestStore } from '../feedback/graphFixture';

describe('getEntityHealth on the store', () => {
  it('aggregates comparison rows: outcomes [0, 1, 1] give win rate 2/3, improving', async () => {
    const { store, clock } = await openTestStore();
    await store.write('t', (db) => {
      [0, 1, 1].forEach((won, i) => db.run(
        'INSERT INTO predictor_comparisons (id, session_key, agent_id, predictor_won, margin, focal_entity_id, focal_entity_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [`c${i}`, `s${i}`, 'default', won, won ? 0.2 : -0.1, 'e1', 'Auth', isoFromMs(clock.now() + i * 1000)]));
      db.run("INSERT INTO predictor_comparisons (id, session_key, agent_id, predictor_won, margin, focal_entity_id, created_at) VALUES ('w', 's0', 'default', 1, 0.5, NULL, ?)", [isoFromMs(clock.now())]);
      db.run("INSERT INTO predictor_comparisons (id, session_key, agent_id, predictor_won, margin, focal_entity_id, created_at) VALUES ('o', 's0', 'other', 1, 0.5, 'e1', ?)", [isoFromMs(clock.now())]);
    });
    const [h, ...rest] = store.read((db) => getEntityHealth(db, 'default'));
    assert.deepEqual(rest, []);
    assert.equal(h?.entityName, 'Auth');
    assert.equal(h?.comparisonCount, 3);
    assert.ok(Math.abs((h?.winRate ?? 0) - 2 / 3) < 1e-12);
    assert.equal(h?.trend, 'improving');
    assert.deepEqual(store.read((db) => getEntityHealth(db, 'default', isoFromMs(clock.now() + 500))), [], 'since leaves two rows, below the minimum');
    assert.equal(store.read((db) => getEntityHealth(db, 'default', isoFromMs(clock.now() + 500), 2)).length, 1);
    await store.close();
  });

  it('returns [] without the predictor_comparisons table', async () => {
    const store = await openMemoryStore({ migrations: [CORE_MIGRATION] });
    assert.deepEqual(store.read((db) => getEntityHealth(db, 'default')), []);
    await store.close();
  });
});

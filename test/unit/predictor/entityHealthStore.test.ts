import { strict as assert } from 'node:assert';
import { isoFromMs } from '../../../src/core/clock';
import { getEntityHealth } from '../../../src/core/predictor/entityHealth';
import { healthEmptyReason } from '../../../src/core/predictor/healthEmptyReason';
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

  it('explains an empty result: no rows, no focal entity, too few per entity, or a late --since', async () => {
    const { store, clock } = await openTestStore();
    const reason = (since?: string, min = 3) => store.read((db) => healthEmptyReason(db, 'default', since, min));
    assert.equal(reason(), 'No predictor comparisons for agent "default" yet: they are recorded when a session with recalled memories ends.');
    await store.write('t', (db) => db.run("INSERT INTO predictor_comparisons (id, session_key, agent_id, predictor_won, margin, focal_entity_id, created_at) VALUES ('w', 's0', 'default', 1, 0.5, NULL, ?)", [isoFromMs(clock.now())]));
    assert.equal(reason(), 'None of the 1 predictor comparison had a focal entity: entities become focal once memories mention them (or when pinned).');
    await store.write('t', (db) => [0, 1].forEach((won, i) => db.run(
      'INSERT INTO predictor_comparisons (id, session_key, agent_id, predictor_won, margin, focal_entity_id, focal_entity_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [`c${i}`, `s${i}`, 'default', won, 0, 'e1', 'Auth', isoFromMs(clock.now() + i * 1000)])));
    assert.equal(reason(), 'No entity has 3+ comparisons yet (the most is 2); lower --min to see them.');
    const late = isoFromMs(clock.now() + 10_000);
    assert.equal(reason(late), `No predictor comparison with a focal entity since ${late}: 3 comparisons in all; try an earlier --since.`);
    await store.close();
  });
});

import { strict as assert } from 'node:assert';
import { isoFromMs } from '../../../src/core/clock';
import { resolveSessionConfig } from '../../../src/core/config/sessionConfig';
import { getEntityHealth } from '../../../src/core/predictor/entityHealth';
import { loadPredictorModel } from '../../../src/core/predictor/predictorStore';
import type { SqlWriter } from '../../../src/core/store/storeTypes';
import { addAspect, addAttribute, addEntity, addMemory, openTestStore } from '../feedback/graphFixture';
import { makeService } from './sessionFixture';

const DAY = 86_400_000;
const SESSIONS = 30;

function mention(db: SqlWriter, memoryId: string, entityId: string): void {
  db.run('INSERT INTO memory_entity_mentions (memory_id, entity_id, mention_text) VALUES (?, ?, ?)', [memoryId, entityId, 'webshop']);
}

/**
 * 30 scripted sessions in one project. Every session the user searches for the two "auth tokens"
 * memories (FTS hits, as recall records them) and talks about them; the baseline ranks them last
 * (lowest importance) below "auth history" and "legacy build" memories that never pay off.
 * Expected: the confirmed aspect rises to the ceiling, the ignored ones decay, and the learned
 * ranker starts beating the baseline, so entity health shows a rising win rate.
 */
describe('feedback loop simulation (30 scripted sessions)', function () {
  this.timeout(60_000);

  it('moves aspect weights and entity health the expected way', async () => {
    const { store, clock } = await openTestStore();
    const t0 = clock.now();
    const g = await store.write('graph', (db) => {
      const auth = addEntity(db, t0, 'Auth');
      const legacy = addEntity(db, t0, 'Legacy');
      const shop = addEntity(db, t0, 'webshop', { type: 'project', mentions: 5 });
      const tokens = addAspect(db, t0, auth, 'tokens', 0.5);
      const history = addAspect(db, t0, auth, 'history', 0.5);
      const build = addAspect(db, t0, legacy, 'build', 0.5);
      const mem = (content: string, importance: number, entity: string, aspect: string): string => {
        const id = addMemory(db, t0, { content, importance, project: '/src/webshop' });
        addAttribute(db, t0, entity, aspect, id, { importance });
        mention(db, id, shop);
        return id;
      };
      return {
        auth, legacy, shop, tokens, history, build,
        paying: [mem('auth tokens refresh every 15 minutes via the refresh endpoint', 0.4, auth, tokens), mem('auth tokens are signed with the rotating jwks key', 0.35, auth, tokens)],
        idle: [mem('auth moved from sessions to jwt in 2023', 0.7, auth, history), mem('the old auth service lived in a perl monolith', 0.65, auth, history),
          mem('legacy build used grunt and bower', 0.8, legacy, build), mem('legacy build artifacts went to an ftp server', 0.75, legacy, build)],
      };
    });
    const { service, logger } = makeService(store, clock, { session: resolveSessionConfig({ recencyBase: 1 }) });
    const weights: Record<string, number>[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const key = `sim-${i}`;
      const start = await service.start({ sessionKey: key, project: '/src/webshop' });
      assert.equal(start.candidateCount, 6);
      await store.write('recall hits', (db) => { for (const m of g.paying) db.run('UPDATE session_memories SET fts_hit_count = fts_hit_count + 1 WHERE session_key = ? AND memory_id = ?', [key, m]); });
      await service.turn(key, 'user', 'the auth tokens refresh fails: is the jwks key rotating and the refresh endpoint every 15 minutes?');
      await service.end(key);
      weights.push(store.read((db) => Object.fromEntries(db.all<{ id: string; weight: number }>('SELECT id, weight FROM entity_aspects').map((r) => [r.id, r.weight]))));
      clock.advance(DAY);
    }
    const w = (i: number, id: string): number => weights[i]?.[id] ?? Number.NaN;
    // confirmed aspect: +0.02 per hit, two hits a session, clamped at the ceiling
    assert.ok(Math.abs(w(0, g.tokens) - 0.54) < 1e-9);
    assert.equal(w(SESSIONS - 1, g.tokens), 1);
    // ignored aspects: unchanged until stale (14 days), then decayed, never below the floor
    assert.equal(w(10, g.history), 0.5);
    assert.ok(w(SESSIONS - 1, g.history) < 0.5 && w(SESSIONS - 1, g.history) >= 0.1);
    assert.ok(w(SESSIONS - 1, g.build) < 0.5);
    // the learned ranker trained on every session and went live
    assert.equal(store.read((db) => loadPredictorModel(db, 'default')).sessionsTrained, SESSIONS);
    // entity health: Auth and the project slice both have comparisons whose win rate rises
    const health = store.read((db) => getEntityHealth(db, 'default'));
    const byName = new Map(health.map((h) => [h.entityName, h]));
    for (const name of ['Auth', 'webshop']) {
      const h = byName.get(name);
      assert.ok(h, `${name} has health`);
      assert.equal(h.comparisonCount, SESSIONS);
      assert.equal(h.trend, 'improving');
      assert.ok(h.winRate > 0.5, `${name} win rate ${h.winRate}`);
      assert.ok(h.avgMargin > 0);
    }
    assert.ok(!byName.has('Legacy'), 'nothing linked to Legacy ever paid off, so it has no comparisons');
    const late = store.read((db) => getEntityHealth(db, 'default', isoFromMs(t0 + 20 * DAY)));
    assert.ok(late.every((h) => h.winRate === 1), 'after training, the ranker wins every late session');
    assert.ok(logger.lines.filter((l) => /^session end sim-/.test(l.message)).length === SESSIONS);
  });
});

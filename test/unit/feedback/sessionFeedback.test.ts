import { strict as assert } from 'node:assert';
import { resolveFeedbackConfig } from '../../../src/core/config/feedbackConfig';
import { decayDue } from '../../../src/core/feedback/feedbackCounters';
import { runSessionFeedback } from '../../../src/core/feedback/sessionFeedback';
import { addAspect, addAttribute, addEntity, addMemory, addSessionMemory, openTestStore } from './graphFixture';

const DAY = 86_400_000;

async function confirmedSession() {
  const { store, clock } = await openTestStore();
  const a = await store.write('t', (db) => {
    const now = clock.now();
    const e = addEntity(db, now, 'Build');
    const a = addAspect(db, now, e, 'tooling', 0.5);
    const m = addMemory(db, now);
    addAttribute(db, now, e, a, m);
    addSessionMemory(db, now, 's1', m, { ftsHits: 2 });
    return a;
  });
  const weight = () => store.read((db) => db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ?', [a])?.weight);
  return { store, clock, weight };
}

describe('session feedback pass', () => {
  it('respects feedback.enabled = false', async () => {
    const { store, clock, weight } = await confirmedSession();
    const r = await store.write('fb', (db) => runSessionFeedback(db, { sessionKey: 's1', agentId: 'default', config: resolveFeedbackConfig({ enabled: false }), graphEnabled: true, nowMs: clock.now(), propagate: undefined }));
    assert.equal(r.skipped, 'feedback is disabled');
    assert.equal(weight(), 0.5);
    await store.close();
  });

  it('runs only when the graph is enabled too', async () => {
    const { store, clock, weight } = await confirmedSession();
    const r = await store.write('fb', (db) => runSessionFeedback(db, { sessionKey: 's1', agentId: 'default', config: resolveFeedbackConfig(), graphEnabled: false, nowMs: clock.now(), propagate: undefined }));
    assert.equal(r.skipped, 'the knowledge graph is disabled');
    assert.equal(weight(), 0.5);
    await store.close();
  });

  it('applies feedback, calls propagation and reports telemetry counts', async () => {
    const { store, clock, weight } = await confirmedSession();
    let propagated = 0;
    const r = await store.write('fb', (db) => runSessionFeedback(db, { sessionKey: 's1', agentId: 'default', config: resolveFeedbackConfig(), graphEnabled: true, nowMs: clock.now(), propagate: () => { propagated++; return 3; } }));
    assert.deepEqual([r.feedbackAspectsUpdated, r.feedbackFtsConfirmations, r.feedbackPropagatedAttributes, propagated], [1, 2, 3, 1]);
    assert.ok(Math.abs((weight() ?? 0) - 0.54) < 1e-12);
    await store.close();
  });

  it('decays every N sessions or daily, whichever comes first', () => {
    assert.equal(decayDue(9, 1, 1 + DAY - 1, 10), false);
    assert.equal(decayDue(10, 1, 2, 10), true);
    assert.equal(decayDue(1, 1, 1 + DAY, 10), true);
  });

  it('counts sessions towards the decay interval and decays on the Nth', async () => {
    const { store, clock } = await openTestStore();
    const stale = await store.write('t', (db) => addAspect(db, clock.now() - 30 * DAY, addEntity(db, clock.now(), 'Old'), 'x', 0.5, { updatedAt: new Date(clock.now() - 30 * DAY).toISOString() }));
    const cfg = resolveFeedbackConfig({ decayIntervalSessions: 3 });
    const decayed: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await store.write('fb', (db) => runSessionFeedback(db, { sessionKey: `s${i}`, agentId: 'default', config: cfg, graphEnabled: true, nowMs: clock.now(), propagate: undefined }));
      decayed.push(r.decayed);
      clock.advance(60_000);
    }
    assert.deepEqual(decayed, [false, false, true]);
    assert.ok(Math.abs((store.read((db) => db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ?', [stale])?.weight) ?? 0) - 0.495) < 1e-12);
    await store.close();
  });
});

import { strict as assert } from 'node:assert';
import { isoFromMs } from '../../../src/core/clock';
import { applyFtsOverlapFeedback, decayAspectWeights } from '../../../src/core/feedback/aspectFeedback';
import { knowledgeStats } from '../../../src/core/feedback/knowledgeStats';
import { FeedbackTelemetry } from '../../../src/core/feedback/feedbackTelemetry';
import { resolveFeedbackConfig } from '../../../src/core/config/feedbackConfig';
import { addAspect, addAttribute, addEntity, addMemory, addSessionMemory, openTestStore } from './graphFixture';

const OPTS = { delta: 0.02, minWeight: 0.1, maxWeight: 1.0 };
const DAY = 86_400_000;

async function graphWithHits(weight: number, hits: number) {
  const { store, clock } = await openTestStore();
  const ids = await store.write('t', (db) => {
    const now = clock.now();
    const e = addEntity(db, now, 'Build');
    const a = addAspect(db, now, e, 'tooling', weight);
    const m = addMemory(db, now);
    addAttribute(db, now, e, a, m);
    addSessionMemory(db, now, 's1', m, { ftsHits: hits });
    return { e, a, m };
  });
  return { store, clock, ...ids };
}

const weightOf = (store: Awaited<ReturnType<typeof openTestStore>>['store'], id: string) => store.read((db) => db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ?', [id])?.weight);

describe('aspect feedback from FTS overlap', () => {
  it('raises a confirmed aspect 0.5 with 2 hits to 0.54', async () => {
    const { store, clock, a } = await graphWithHits(0.5, 2);
    const r = await store.write('fb', (db) => applyFtsOverlapFeedback(db, 's1', 'default', OPTS, isoFromMs(clock.now())));
    assert.deepEqual(r, { aspectsUpdated: 1, totalFtsConfirmations: 2 });
    assert.ok(Math.abs((weightOf(store, a) ?? 0) - 0.54) < 1e-12);
    await store.close();
  });

  it('clamps the weight at the maximum 1.0', async () => {
    const { store, clock, a } = await graphWithHits(0.99, 5);
    await store.write('fb', (db) => applyFtsOverlapFeedback(db, 's1', 'default', OPTS, isoFromMs(clock.now())));
    assert.equal(weightOf(store, a), 1.0);
    await store.close();
  });

  it('clamps a weight below the floor up to 0.1', async () => {
    const { store, clock, a } = await graphWithHits(0.01, 1);
    await store.write('fb', (db) => applyFtsOverlapFeedback(db, 's1', 'default', OPTS, isoFromMs(clock.now())));
    assert.equal(weightOf(store, a), 0.1);
    await store.close();
  });

  it('changes nothing when the session has no FTS hits', async () => {
    const { store, clock, a } = await graphWithHits(0.5, 0);
    const r = await store.write('fb', (db) => applyFtsOverlapFeedback(db, 's1', 'default', OPTS, isoFromMs(clock.now())));
    assert.deepEqual(r, { aspectsUpdated: 0, totalFtsConfirmations: 0 });
    assert.equal(weightOf(store, a), 0.5);
    await store.close();
  });

  it('sums confirmations per aspect and ignores superseded attributes and other agents', async () => {
    const { store, clock } = await openTestStore();
    const { a, b } = await store.write('t', (db) => {
      const now = clock.now();
      const e = addEntity(db, now, 'Repo');
      const a = addAspect(db, now, e, 'ci', 0.5);
      const b = addAspect(db, now, e, 'docs', 0.5);
      const m1 = addMemory(db, now); const m2 = addMemory(db, now); const m3 = addMemory(db, now);
      addAttribute(db, now, e, a, m1); addAttribute(db, now, e, a, m2); addAttribute(db, now, e, b, m3, { status: 'superseded' });
      addSessionMemory(db, now, 's1', m1, { ftsHits: 1 }); addSessionMemory(db, now, 's1', m2, { ftsHits: 2, rank: 1 }); addSessionMemory(db, now, 's1', m3, { ftsHits: 4, rank: 2 });
      addSessionMemory(db, now, 's1', m1, { ftsHits: 9, agentId: 'other' });
      return { a, b };
    });
    const r = await store.write('fb', (db) => applyFtsOverlapFeedback(db, 's1', 'default', OPTS, isoFromMs(clock.now())));
    assert.deepEqual(r, { aspectsUpdated: 1, totalFtsConfirmations: 3 });
    assert.ok(Math.abs((weightOf(store, a) ?? 0) - 0.56) < 1e-12);
    assert.equal(weightOf(store, b), 0.5);
    await store.close();
  });
});

describe('aspect decay', () => {
  it('decays a stale aspect down to the floor (0.11 − 0.05 → 0.10)', async () => {
    const { store, clock } = await openTestStore();
    const start = clock.now();
    const a = await store.write('t', (db) => addAspect(db, start, addEntity(db, start, 'Old'), 'legacy', 0.11));
    clock.advance(15 * DAY);
    const n = await store.write('d', (db) => decayAspectWeights(db, 'default', { decayRate: 0.05, minWeight: 0.1, staleDays: 14 }, clock.now()));
    assert.equal(n, 1);
    assert.equal(weightOf(store, a), 0.1);
    await store.close();
  });

  it('leaves fresh aspects and aspects at the floor alone', async () => {
    const { store, clock } = await openTestStore();
    const start = clock.now();
    const { fresh, floor } = await store.write('t', (db) => {
      const e = addEntity(db, start, 'Mixed');
      return { fresh: addAspect(db, start + 10 * DAY, e, 'fresh', 0.5), floor: addAspect(db, start, e, 'floor', 0.1) };
    });
    clock.advance(15 * DAY);
    const n = await store.write('d', (db) => decayAspectWeights(db, 'default', { decayRate: 0.005, minWeight: 0.1, staleDays: 14 }, clock.now()));
    assert.equal(n, 0);
    assert.equal(weightOf(store, fresh), 0.5);
    assert.equal(weightOf(store, floor), 0.1);
    await store.close();
  });

  it('decays an aspect at most once per stale window', async () => {
    const { store, clock } = await openTestStore();
    const start = clock.now();
    const a = await store.write('t', (db) => addAspect(db, start, addEntity(db, start, 'Once'), 'x', 0.5));
    clock.advance(15 * DAY);
    const cfg = { decayRate: 0.005, minWeight: 0.1, staleDays: 14 };
    assert.equal(await store.write('d', (db) => decayAspectWeights(db, 'default', cfg, clock.now())), 1);
    clock.advance(DAY);
    assert.equal(await store.write('d', (db) => decayAspectWeights(db, 'default', cfg, clock.now())), 0);
    clock.advance(14 * DAY);
    assert.equal(await store.write('d', (db) => decayAspectWeights(db, 'default', cfg, clock.now())), 1);
    assert.ok(Math.abs((weightOf(store, a) ?? 0) - 0.49) < 1e-12);
    await store.close();
  });
});

describe('feedback knowledge stats and telemetry', () => {
  it('counts aspects updated by feedback in the last 7 days, average weight, at max and at min', async () => {
    const { store, clock } = await openTestStore();
    const now = clock.now();
    await store.write('t', (db) => {
      const e = addEntity(db, now, 'Stats');
      const a = addAspect(db, now, e, 'a', 0.98);
      addAspect(db, now, e, 'b', 0.1);
      addAspect(db, now, e, 'c', 0.52);
      const m = addMemory(db, now);
      addAttribute(db, now, e, a, m);
      addSessionMemory(db, now, 's1', m, { ftsHits: 1 });
    });
    await store.write('fb', (db) => applyFtsOverlapFeedback(db, 's1', 'default', OPTS, isoFromMs(now)));
    const s = store.read((db) => knowledgeStats(db, { agentId: 'default', nowMs: now, minWeight: 0.1, maxWeight: 1 }));
    assert.equal(s.aspectCount, 3);
    assert.equal(s.aspectsUpdatedByFeedback, 1);
    assert.equal(s.aspectsAtMax, 1);
    assert.equal(s.aspectsAtMin, 1);
    assert.ok(Math.abs(s.avgAspectWeight - (1 + 0.1 + 0.52) / 3) < 1e-12);
    const later = store.read((db) => knowledgeStats(db, { agentId: 'default', nowMs: now + 8 * DAY, minWeight: 0.1, maxWeight: 1 }));
    assert.equal(later.aspectsUpdatedByFeedback, 0);
    await store.close();
  });

  it('accumulates telemetry across runs', () => {
    const t = new FeedbackTelemetry();
    t.record({ feedbackAspectsUpdated: 2, feedbackFtsConfirmations: 3 }, 'a');
    const s = t.record({ feedbackDecayedAspects: 1, feedbackPropagatedAttributes: 4, feedbackAspectsUpdated: 1 }, 'b');
    assert.deepEqual(s, { lastRunAt: 'b', feedbackAspectsUpdated: 3, feedbackFtsConfirmations: 3, feedbackDecayedAspects: 1, feedbackPropagatedAttributes: 4 });
  });

  it('clamps the feedback settings and keeps min <= max', () => {
    const c = resolveFeedbackConfig({ minAspectWeight: 0.9, maxAspectWeight: 0.2, ftsWeightDelta: 5 });
    assert.deepEqual([c.minAspectWeight, c.maxAspectWeight, c.ftsWeightDelta], [0.2, 0.9, 1]);
    assert.equal(resolveFeedbackConfig().decayIntervalSessions, 10);
  });
});

import { strict as assert } from 'node:assert';
import { featureVector } from '../../../src/core/predictor/features';
import { deserializeModel, initialModel, predict, serializeModel, trainOnSession } from '../../../src/core/predictor/logisticModel';
import { compareSession, meanReciprocalRank } from '../../../src/core/predictor/rankingComparison';
import { computeEntityHealth } from '../../../src/core/predictor/entityHealthCalc';
import { isMemoryError } from '../../../src/core/errors';

const sig = (over: Partial<Parameters<typeof featureVector>[0]> = {}) => featureVector({ fusedScore: 0.5, ageDays: 0, accessCount: 0, importance: 0.5, aspectWeights: [], linkedToPinned: false, pastRelevance: undefined, ...over });

describe('predictor model', () => {
  it('starts ranking like the baseline (monotone in the fused score)', () => {
    const m = initialModel();
    assert.ok(predict(m, sig({ fusedScore: 0.9 })) > predict(m, sig({ fusedScore: 0.3 })));
    assert.equal(predict(m, sig({ linkedToPinned: true })), predict(m, sig()));
  });

  it('learns a feature that predicts payoff, deterministically', () => {
    let a = initialModel();
    let b = initialModel();
    for (let i = 0; i < 40; i++) {
      const samples = [
        { features: sig({ aspectWeights: [0.9], fusedScore: 0.4 }), label: 1 },
        { features: sig({ aspectWeights: [0.1], fusedScore: 0.6 }), label: 0 },
      ];
      a = trainOnSession(a, samples, 0.1, 0.001);
      b = trainOnSession(b, samples, 0.1, 0.001);
    }
    assert.deepEqual(a, b);
    assert.equal(a.sessionsTrained, 40);
    assert.ok(predict(a, sig({ aspectWeights: [0.9], fusedScore: 0.4 })) > predict(a, sig({ aspectWeights: [0.1], fusedScore: 0.6 })));
  });

  it('round-trips through JSON and rejects a foreign shape', () => {
    const m = trainOnSession(initialModel(), [{ features: sig(), label: 1 }], 0.1, 0);
    assert.deepEqual(deserializeModel(serializeModel(m)), m);
    assert.throws(() => deserializeModel('{"version":1,"weights":[1]}'), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
    assert.throws(() => deserializeModel('not json'), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
  });

  it('scales features into [0, 1]', () => {
    for (const v of sig({ fusedScore: 7, ageDays: -3, accessCount: 1e9, importance: -1 })) assert.ok(v >= 0 && v <= 1);
  });
});

describe('predictor comparison', () => {
  it('computes the mean reciprocal rank of paid-off candidates', () => {
    assert.equal(meanReciprocalRank([{ paidOff: false }, { paidOff: true }, { paidOff: false }, { paidOff: true }]), (1 / 2 + 1 / 4) / 2);
    assert.equal(meanReciprocalRank([{ paidOff: false }]), 0);
  });

  it('compares the whole session and slices per linked entity', () => {
    const cands = [
      { memoryId: 'm1', baselineRank: 0, predictorScore: 0.2, paidOff: false, entityIds: ['e1'] },
      { memoryId: 'm2', baselineRank: 1, predictorScore: 0.9, paidOff: true, entityIds: ['e1', 'e2'] },
      { memoryId: 'm3', baselineRank: 2, predictorScore: 0.1, paidOff: false, entityIds: ['e3'] },
    ];
    const slices = compareSession(cands);
    assert.deepEqual(slices.map((s) => s.entityId), [undefined, 'e1', 'e2']);
    const whole = slices[0];
    assert.ok(whole);
    assert.equal(whole.predictorMrr, 1);
    assert.equal(whole.baselineMrr, 0.5);
    assert.ok(whole.won);
    assert.equal(whole.margin, 0.5);
    assert.equal(slices[2]?.won, false, 'a one-candidate slice ties, which is not a win');
  });

  it('makes no comparison when nothing paid off', () => {
    assert.deepEqual(compareSession([{ memoryId: 'm', baselineRank: 0, predictorScore: 1, paidOff: false, entityIds: ['e'] }]), []);
  });
});

describe('entity health', () => {
  const row = (won: boolean, t: number, margin = 0) => ({ entityId: 'e1', entityName: 'Auth', won, margin, createdAt: t });

  it('computes win rate 2/3 and an improving trend from outcomes [0, 1, 1]', () => {
    const [h] = computeEntityHealth([row(false, 1, -0.1), row(true, 2, 0.2), row(true, 3, 0.2)]);
    assert.ok(h);
    assert.equal(h.comparisonCount, 3);
    assert.ok(Math.abs(h.winRate - 2 / 3) < 1e-12);
    assert.ok(Math.abs(h.avgMargin - 0.1) < 1e-12);
    assert.equal(h.trend, 'improving');
  });

  it('reports declining and stable trends', () => {
    assert.equal(computeEntityHealth([row(true, 1), row(true, 2), row(false, 3), row(false, 4)])[0]?.trend, 'declining');
    assert.equal(computeEntityHealth([row(true, 1), row(false, 2), row(true, 3), row(false, 4)])[0]?.trend, 'stable');
  });

  it('orders by time regardless of input order', () => {
    assert.equal(computeEntityHealth([row(true, 3), row(false, 1), row(true, 2)])[0]?.trend, 'improving');
  });

  it('leaves out entities below minComparisons', () => {
    assert.deepEqual(computeEntityHealth([row(true, 1), row(true, 2)]), []);
    assert.equal(computeEntityHealth([row(true, 1), row(true, 2)], 2).length, 1);
  });

  it('sorts by win rate then count', () => {
    const rows = [
      ...[1, 2, 3].map((t) => ({ entityId: 'low', entityName: 'Low', won: false, margin: 0, createdAt: t })),
      ...[1, 2, 3].map((t) => ({ entityId: 'high', entityName: 'High', won: true, margin: 0, createdAt: t })),
    ];
    assert.deepEqual(computeEntityHealth(rows).map((h) => h.entityId), ['high', 'low']);
  });
});

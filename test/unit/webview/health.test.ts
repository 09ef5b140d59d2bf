import { strict as assert } from 'node:assert';
import { HEALTH_LEGEND, healthLabel, healthLevel, healthReason } from '../../../webview/health';
import type { EntityHealthView } from '../../../src/shared/knowledgeProtocolTypes';

const h = (trend: EntityHealthView['trend'], winRate: number, avgMargin = 0, comparisonCount = 12): EntityHealthView => ({ trend, winRate, avgMargin, comparisonCount });

describe('Knowledge panel health dot', () => {
  it('has no dot without data', () => {
    assert.equal(healthLevel(null), 'none');
    assert.equal(healthLevel(h('stable', 0.5, 0, 0)), 'none');
    assert.equal(healthReason(null), 'no predictor comparisons yet');
  });

  it('has no dot until there is enough evidence, and says so', () => {
    assert.equal(healthLevel(h('stable', 0, 0, 3)), 'none');
    assert.equal(healthLevel(h('declining', 0, -0.5, 9)), 'none');
    assert.equal(healthLevel(h('declining', 0, -0.5, 10)), 'bad');
    assert.equal(healthLabel(h('stable', 0, 0, 3)), 'Not enough evidence yet: 3 of 10 comparisons needed for a colour');
    assert.equal(healthReason(h('stable', 0, 0, 3)), 'no dot until 10 comparisons');
  });

  it('follows the legend: the trend decides first (green improving, yellow stable, red declining)', () => {
    // The two cases the legend contradicted before: they were red.
    assert.equal(healthLevel(h('stable', 0, 0)), 'stable');
    assert.equal(healthLevel(h('improving', 1 / 3, -0.2)), 'good');
    assert.equal(healthLevel(h('improving', 0.1, -0.5)), 'good');
    assert.equal(healthLevel(h('declining', 0.9, 0.3)), 'bad');
    assert.equal(healthLevel(h('stable', 0.5, 0.1)), 'stable');
  });

  it('a stable trend is green with a high win rate and red only when rarely winning and behind the baseline', () => {
    assert.equal(healthLevel(h('stable', 0.65)), 'good');
    assert.equal(healthLevel(h('stable', 0.64)), 'stable');
    assert.equal(healthLevel(h('stable', 0.39, -0.1)), 'bad');
    assert.equal(healthLevel(h('stable', 0.4, -0.1)), 'stable');
    // Ties count as "not won": a 0 % win rate with no margin is no evidence against the predictor.
    assert.equal(healthLevel(h('stable', 0.39, 0)), 'stable');
  });

  it('explains the colour in the tooltip words and lists every level in the legend', () => {
    assert.equal(healthLabel(h('stable', 0, 0, 14)), 'Health: stable, win rate 0% over 14 comparisons');
    assert.equal(healthReason(h('improving', 0.33)), 'green: improving');
    assert.equal(healthReason(h('stable', 0.7)), 'green: high win rate');
    assert.equal(healthReason(h('declining', 0.7)), 'red: declining');
    assert.equal(healthReason(h('stable', 0.1, -0.2)), 'red: low win rate, the baseline ranks better');
    assert.equal(healthReason(h('stable', 0)), 'yellow: stable');
    assert.deepEqual(HEALTH_LEGEND.map(([level]) => level), ['good', 'stable', 'bad', 'none']);
  });
});

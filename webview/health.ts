/**
 * The health dot of an entity and its legend (README "Knowledge panel"): the trend of the learned
 * ranker's bets on the entity decides the colour first, because it is what the legend promises —
 * green improving, yellow stable, red declining. A stable entity turns green when it wins often,
 * and red only when it wins rarely *and* the baseline actually beat it on average: a comparison
 * the predictor ties counts as "not won" (entityHealthCalc), so a 0 % win rate of ties is still
 * "stable", not a failure.
 */
import type { EntityHealthView } from '../src/shared/knowledgeProtocolTypes';
import { PANEL_CONFIG } from './panelConfig';

export type HealthLevel = 'good' | 'stable' | 'bad' | 'none';

export function healthLevel(health: EntityHealthView | null): HealthLevel {
  if (!health || health.comparisonCount < PANEL_CONFIG.healthMinComparisons) return 'none';
  if (health.trend === 'declining') return 'bad';
  if (health.trend === 'improving') return 'good';
  if (health.winRate >= PANEL_CONFIG.healthHighWinRate) return 'good';
  if (health.winRate < PANEL_CONFIG.healthLowWinRate && health.avgMargin < 0) return 'bad';
  return 'stable';
}

/** A sentence for screen readers and tooltips. */
export function healthLabel(health: EntityHealthView | null): string {
  if (!health || health.comparisonCount === 0) return 'No health data yet';
  if (health.comparisonCount < PANEL_CONFIG.healthMinComparisons) return `Not enough evidence yet: ${health.comparisonCount} of ${PANEL_CONFIG.healthMinComparisons} comparisons needed for a colour`;
  const rate = Math.round(health.winRate * 100);
  return `Health: ${health.trend}, win rate ${rate}% over ${health.comparisonCount} comparisons`;
}

/** Why the dot has its colour, in the words of the legend (shown in tooltips after the label). */
export function healthReason(health: EntityHealthView | null): string {
  switch (healthLevel(health)) {
    case 'none': return health && health.comparisonCount > 0 ? `no dot until ${PANEL_CONFIG.healthMinComparisons} comparisons` : 'no predictor comparisons yet';
    case 'good': return health?.trend === 'improving' ? 'green: improving' : 'green: high win rate';
    case 'bad': return health?.trend === 'declining' ? 'red: declining' : 'red: low win rate, the baseline ranks better';
    case 'stable': return 'yellow: stable';
  }
}

/** The legend shown in the panel, one entry per level, in the order good, stable, bad, none. */
export const HEALTH_LEGEND: readonly (readonly [HealthLevel, string])[] = [
  ['good', `improving, or win rate ≥ ${Math.round(PANEL_CONFIG.healthHighWinRate * 100)}%`],
  ['stable', 'stable'],
  ['bad', `declining, or win rate < ${Math.round(PANEL_CONFIG.healthLowWinRate * 100)}% and losing to the baseline`],
  ['none', `fewer than ${PANEL_CONFIG.healthMinComparisons} comparisons: not enough evidence yet`],
];

/**
 * The health dot of an entity (issue 8, seed 003 §4): green when its predictor bets are improving
 * or winning often, red when declining or winning rarely, yellow otherwise, none without data.
 */
import type { EntityHealthView } from './protocolTypes';
import { PANEL_CONFIG } from './panelConfig';

export type HealthLevel = 'good' | 'stable' | 'bad' | 'none';

export function healthLevel(health: EntityHealthView | null): HealthLevel {
  if (!health || health.comparisonCount === 0) return 'none';
  if (health.trend === 'declining' || health.winRate < PANEL_CONFIG.healthLowWinRate) return 'bad';
  if (health.trend === 'improving' || health.winRate >= PANEL_CONFIG.healthHighWinRate) return 'good';
  return 'stable';
}

/** A sentence for screen readers and tooltips. */
export function healthLabel(health: EntityHealthView | null): string {
  if (!health || health.comparisonCount === 0) return 'No health data yet';
  const rate = Math.round(health.winRate * 100);
  return `Health: ${health.trend}, win rate ${rate}% over ${health.comparisonCount} comparisons`;
}

/** Per-entity predictor health from comparison slices. */
export type HealthTrend = 'improving' | 'stable' | 'declining';

export interface EntityHealth {
  readonly entityId: string;
  readonly entityName: string;
  readonly comparisonCount: number;
  readonly winRate: number;
  readonly avgMargin: number;
  readonly trend: HealthTrend;
}

export interface ComparisonOutcome {
  readonly entityId: string;
  readonly entityName: string;
  readonly won: boolean;
  readonly margin: number;
  /** Sort key for time order (ISO string or epoch ms). */
  readonly createdAt: string | number;
}

/** Win-rate change between the halves beyond which the trend is not "stable" (default 10 %). */
export const TREND_THRESHOLD = 0.1;
export const DEFAULT_MIN_COMPARISONS = 3;

function rate(xs: readonly ComparisonOutcome[]): number {
  return xs.length ? xs.filter((x) => x.won).length / xs.length : 0;
}

/** Trend: split at mid = max(1, floor(n/2)); second-half win rate minus first-half. */
export function trendOf(ordered: readonly ComparisonOutcome[]): HealthTrend {
  const mid = Math.max(1, Math.floor(ordered.length / 2));
  const delta = rate(ordered.slice(mid)) - rate(ordered.slice(0, mid));
  return delta > TREND_THRESHOLD ? 'improving' : delta < -TREND_THRESHOLD ? 'declining' : 'stable';
}

/** Entities with at least minComparisons rows, by win rate then count (descending). */
export function computeEntityHealth(rows: readonly ComparisonOutcome[], minComparisons = DEFAULT_MIN_COMPARISONS): EntityHealth[] {
  const byEntity = new Map<string, ComparisonOutcome[]>();
  for (const r of rows) {
    const list = byEntity.get(r.entityId) ?? [];
    list.push(r);
    byEntity.set(r.entityId, list);
  }
  const out: EntityHealth[] = [];
  for (const [entityId, list] of byEntity) {
    if (list.length < Math.max(1, minComparisons)) continue;
    const ordered = [...list].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    out.push({
      entityId,
      entityName: ordered[ordered.length - 1]?.entityName ?? entityId,
      comparisonCount: ordered.length,
      winRate: rate(ordered),
      avgMargin: ordered.reduce((s, r) => s + r.margin, 0) / ordered.length,
      trend: trendOf(ordered),
    });
  }
  return out.sort((a, b) => b.winRate - a.winRate || b.comparisonCount - a.comparisonCount || a.entityId.localeCompare(b.entityId));
}

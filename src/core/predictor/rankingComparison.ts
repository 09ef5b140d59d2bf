/**
 * Predictor-vs-baseline comparison of one session's candidates.
 *
 * Metric: the mean reciprocal rank of the candidates that paid off (each paid-off candidate
 * contributes 1/rank, averaged). The predictor wins a comparison when its metric is strictly
 * higher; the margin is the difference. Slices repeat this within the candidates linked to each
 * entity (ranks renumbered within the slice).
 */
export interface RankedCandidate {
  readonly memoryId: string;
  /** Baseline order (0-based rank at session start). */
  readonly baselineRank: number;
  readonly predictorScore: number;
  readonly paidOff: boolean;
  readonly entityIds: readonly string[];
}

export interface ComparisonSlice {
  /** Undefined for the whole-session comparison. */
  readonly entityId: string | undefined;
  readonly predictorMrr: number;
  readonly baselineMrr: number;
  readonly won: boolean;
  readonly margin: number;
  readonly candidateCount: number;
  readonly paidOffCount: number;
  readonly predictorTopIds: readonly string[];
  readonly baselineTopIds: readonly string[];
}

const TOP_IDS = 10;

/** Mean of 1/(position+1) over the paid-off entries of an ordered list; 0 when none paid off. */
export function meanReciprocalRank(ordered: readonly { paidOff: boolean }[]): number {
  let sum = 0;
  let n = 0;
  ordered.forEach((c, i) => { if (c.paidOff) { sum += 1 / (i + 1); n++; } });
  return n ? sum / n : 0;
}

export function baselineOrder<T extends RankedCandidate>(cands: readonly T[]): T[] {
  return [...cands].sort((a, b) => a.baselineRank - b.baselineRank);
}

/** Predictor order: higher score first, ties kept in baseline order (deterministic). */
export function predictorOrder<T extends RankedCandidate>(cands: readonly T[]): T[] {
  return [...cands].sort((a, b) => b.predictorScore - a.predictorScore || a.baselineRank - b.baselineRank);
}

export function compareSlice(cands: readonly RankedCandidate[], entityId: string | undefined): ComparisonSlice | undefined {
  const paidOffCount = cands.filter((c) => c.paidOff).length;
  if (!paidOffCount) return undefined;
  const base = baselineOrder(cands);
  const pred = predictorOrder(cands);
  const baselineMrr = meanReciprocalRank(base);
  const predictorMrr = meanReciprocalRank(pred);
  return {
    entityId,
    predictorMrr,
    baselineMrr,
    won: predictorMrr > baselineMrr,
    margin: predictorMrr - baselineMrr,
    candidateCount: cands.length,
    paidOffCount,
    predictorTopIds: pred.slice(0, TOP_IDS).map((c) => c.memoryId),
    baselineTopIds: base.slice(0, TOP_IDS).map((c) => c.memoryId),
  };
}

/** The whole-session comparison first, then one per linked entity that had a paid-off candidate. */
export function compareSession(cands: readonly RankedCandidate[]): ComparisonSlice[] {
  const out: ComparisonSlice[] = [];
  const whole = compareSlice(cands, undefined);
  if (whole) out.push(whole);
  const entities = [...new Set(cands.flatMap((c) => c.entityIds))].sort();
  for (const e of entities) {
    const slice = compareSlice(cands.filter((c) => c.entityIds.includes(e)), e);
    if (slice) out.push(slice);
  }
  return out;
}

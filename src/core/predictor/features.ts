/**
 * Features of a session candidate for the learned ranker. Every feature is
 * scaled to [0, 1] so the weights stay comparable and training is stable.
 */
export interface CandidateSignals {
  /** Baseline score the candidate was ranked by (effective/fused score). */
  readonly fusedScore: number;
  /** Age of the memory in days at session start. */
  readonly ageDays: number;
  readonly accessCount: number;
  readonly importance: number;
  /** Weights of the aspects its active attributes belong to (empty when none). */
  readonly aspectWeights: readonly number[];
  /** Linked (via attributes or mentions) to a pinned entity. */
  readonly linkedToPinned: boolean;
  /** Mean past outcome of this memory in earlier sessions (1 paid off, 0 not); undefined when never a candidate. */
  readonly pastRelevance: number | undefined;
}

export const FEATURE_NAMES = ['fusedScore', 'recency', 'accessCount', 'importance', 'aspectWeight', 'pinnedLink', 'pastRelevance'] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** Half-life in days of the recency feature (the 0.95^days session-start decay). */
export const RECENCY_BASE = 0.95;
/** Access counts saturate here (log scale). */
export const ACCESS_SATURATION = 50;
/** Neutral past relevance for a memory never seen as a candidate. */
export const PAST_RELEVANCE_PRIOR = 0.5;

function clamp01(v: number): number {
  return Number.isFinite(v) ? (v < 0 ? 0 : v > 1 ? 1 : v) : 0;
}

export function featureVector(s: CandidateSignals): number[] {
  const aspect = s.aspectWeights.length ? Math.max(...s.aspectWeights) : 0;
  return [
    clamp01(s.fusedScore),
    clamp01(Math.pow(RECENCY_BASE, Math.max(0, s.ageDays))),
    clamp01(Math.log1p(Math.max(0, s.accessCount)) / Math.log1p(ACCESS_SATURATION)),
    clamp01(s.importance),
    clamp01(aspect),
    s.linkedToPinned ? 1 : 0,
    clamp01(s.pastRelevance ?? PAST_RELEVANCE_PRIOR),
  ];
}

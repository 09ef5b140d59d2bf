/**
 * Feedback loop settings (docs/recall-design.md, "Aspect feedback and decay") and the
 * learned ranker that replaces the removed upstream predictor.
 */
export interface FeedbackConfig {
  /** Master switch for aspect feedback; feedback also needs the graph enabled. */
  readonly enabled: boolean;
  /** Weight added per FTS confirmation (default 0.02). */
  readonly ftsWeightDelta: number;
  /** Ceiling of aspect weights (default 1.0). */
  readonly maxAspectWeight: number;
  /** Floor of aspect weights (default 0.1). */
  readonly minAspectWeight: number;
  readonly decayEnabled: boolean;
  /** Weight lost by a stale aspect per decay run (default 0.005). */
  readonly decayRate: number;
  /** An aspect not updated for this many days is stale (default 14). */
  readonly staleDays: number;
  /** Decay runs every N ended sessions (default 10), or daily via maintenance. */
  readonly decayIntervalSessions: number;
  /** The learned ranker enters live ranking only when enabled... */
  readonly predictorEnabled: boolean;
  /** ...and trained on at least this many sessions. */
  readonly predictorMinSessions: number;
  /** SGD step size of the online logistic regression. */
  readonly predictorLearningRate: number;
  /** L2 penalty per step, keeps weights small and the model stable. */
  readonly predictorL2: number;
  /** Continuity relevance at or above which a candidate "paid off" (default 0.5). */
  readonly paidOffRelevance: number;
  /** Training target of an unconfirmed candidate linked to a pinned entity: pins are a positive bet. */
  readonly predictorPinLabel: number;
}

export const DEFAULT_FEEDBACK_CONFIG: FeedbackConfig = {
  enabled: true,
  ftsWeightDelta: 0.02,
  maxAspectWeight: 1.0,
  minAspectWeight: 0.1,
  decayEnabled: true,
  decayRate: 0.005,
  staleDays: 14,
  decayIntervalSessions: 10,
  predictorEnabled: true,
  predictorMinSessions: 5,
  predictorLearningRate: 0.1,
  predictorL2: 0.001,
  paidOffRelevance: 0.5,
  predictorPinLabel: 0.6,
};

function num(v: unknown, def: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : def;
}

function int(v: unknown, def: number, min: number, max: number): number {
  return Math.round(num(v, def, min, max));
}

/** Clamps user values into range; min and max weights are clamped to [0, 1] with min <= max. */
export function resolveFeedbackConfig(partial: Partial<FeedbackConfig> = {}): FeedbackConfig {
  const d = DEFAULT_FEEDBACK_CONFIG;
  const minW = num(partial.minAspectWeight, d.minAspectWeight, 0, 1);
  const maxW = num(partial.maxAspectWeight, d.maxAspectWeight, 0, 1);
  return {
    enabled: typeof partial.enabled === 'boolean' ? partial.enabled : d.enabled,
    ftsWeightDelta: num(partial.ftsWeightDelta, d.ftsWeightDelta, 0, 1),
    maxAspectWeight: Math.max(minW, maxW),
    minAspectWeight: Math.min(minW, maxW),
    decayEnabled: typeof partial.decayEnabled === 'boolean' ? partial.decayEnabled : d.decayEnabled,
    decayRate: num(partial.decayRate, d.decayRate, 0, 1),
    staleDays: num(partial.staleDays, d.staleDays, 1, 3650),
    decayIntervalSessions: int(partial.decayIntervalSessions, d.decayIntervalSessions, 1, 1000),
    predictorEnabled: typeof partial.predictorEnabled === 'boolean' ? partial.predictorEnabled : d.predictorEnabled,
    predictorMinSessions: int(partial.predictorMinSessions, d.predictorMinSessions, 1, 1000),
    predictorLearningRate: num(partial.predictorLearningRate, d.predictorLearningRate, 0.0001, 1),
    predictorL2: num(partial.predictorL2, d.predictorL2, 0, 0.1),
    paidOffRelevance: num(partial.paidOffRelevance, d.paidOffRelevance, 0, 1),
    predictorPinLabel: num(partial.predictorPinLabel, d.predictorPinLabel, 0, 1),
  };
}

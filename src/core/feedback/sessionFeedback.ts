import type { FeedbackConfig } from '../config/feedbackConfig';
import type { SqlWriter } from '../store/storeTypes';
import { applyFtsOverlapFeedback, decayAspectWeights } from './aspectFeedback';
import { decayDue, LAST_DECAY_AT_MS, readCounter, SESSIONS_SINCE_DECAY, writeCounter } from './feedbackCounters';
import type { FeedbackTelemetryDelta } from './feedbackTelemetry';

/** Marks attributes of deleted/missing memories superseded; returns the count (graph module's propagateMemoryStatus). */
export type PropagateMemoryStatus = (db: SqlWriter, agentId: string, nowIso: string) => number;

export interface SessionFeedbackResult extends FeedbackTelemetryDelta {
  /** Why nothing ran, when nothing did. */
  readonly skipped?: string;
  readonly decayed: boolean;
}

/**
 * The session-end feedback pass: FTS overlap
 * feedback, then decay when due (every N sessions or daily), then status propagation. Runs only
 * when feedback and the graph are enabled and the graph tables exist.
 */
export function runSessionFeedback(db: SqlWriter, options: {
  sessionKey: string;
  agentId: string;
  config: FeedbackConfig;
  graphEnabled: boolean;
  nowMs: number;
  propagate: PropagateMemoryStatus | undefined;
}): SessionFeedbackResult {
  const { config } = options;
  if (!config.enabled) return { skipped: 'feedback is disabled', decayed: false };
  if (!options.graphEnabled) return { skipped: 'the knowledge graph is disabled', decayed: false };
  const nowIso = new Date(options.nowMs).toISOString();
  const fb = applyFtsOverlapFeedback(db, options.sessionKey, options.agentId, { delta: config.ftsWeightDelta, minWeight: config.minAspectWeight, maxWeight: config.maxAspectWeight }, nowIso);
  let decayedAspects = 0;
  let decayed = false;
  if (config.decayEnabled) {
    const count = readCounter(db, options.agentId, SESSIONS_SINCE_DECAY) + 1;
    let last = readCounter(db, options.agentId, LAST_DECAY_AT_MS);
    if (last === 0) {
      last = options.nowMs;
      writeCounter(db, options.agentId, LAST_DECAY_AT_MS, last, nowIso);
    }
    if (decayDue(count, last, options.nowMs, config.decayIntervalSessions)) {
      decayedAspects = decayAspectWeights(db, options.agentId, { decayRate: config.decayRate, minWeight: config.minAspectWeight, staleDays: config.staleDays }, options.nowMs);
      decayed = true;
      writeCounter(db, options.agentId, SESSIONS_SINCE_DECAY, 0, nowIso);
      writeCounter(db, options.agentId, LAST_DECAY_AT_MS, options.nowMs, nowIso);
    } else {
      writeCounter(db, options.agentId, SESSIONS_SINCE_DECAY, count, nowIso);
    }
  }
  const propagated = options.propagate ? options.propagate(db, options.agentId, nowIso) : 0;
  return {
    decayed,
    feedbackAspectsUpdated: fb.aspectsUpdated,
    feedbackFtsConfirmations: fb.totalFtsConfirmations,
    feedbackDecayedAspects: decayedAspects,
    feedbackPropagatedAttributes: propagated,
  };
}

/** Maintenance decay for every agent with aspects; resets each agent's session counter. */
export function runScheduledDecay(db: SqlWriter, agentId: string, config: FeedbackConfig, nowMs: number): number {
  if (!config.decayEnabled) return 0;
  const nowIso = new Date(nowMs).toISOString();
  const n = decayAspectWeights(db, agentId, { decayRate: config.decayRate, minWeight: config.minAspectWeight, staleDays: config.staleDays }, nowMs);
  writeCounter(db, agentId, SESSIONS_SINCE_DECAY, 0, nowIso);
  writeCounter(db, agentId, LAST_DECAY_AT_MS, nowMs, nowIso);
  return n;
}

import type { FeedbackTelemetrySnapshot } from '../feedback/feedbackTelemetry';
import { knowledgeStats } from '../feedback/knowledgeStats';
import type { FeedbackKnowledgeStats } from '../feedback/knowledgeStats';
import type { HintsStatus } from '../hints/hintsJobHandler';
import { loadPredictorModel, predictorIsLive } from '../predictor/predictorStore';
import { openSessions } from './sessionRecords';
import type { FeedbackLoop } from './feedbackLoop';

/** What the status view shows about the feedback loop. */
export interface FeedbackLoopStatus {
  readonly telemetry: FeedbackTelemetrySnapshot;
  readonly hints: HintsStatus;
  readonly predictor: { readonly sessionsTrained: number; readonly live: boolean; readonly minSessions: number; readonly enabled: boolean };
  readonly openSessions: number;
  readonly knowledge: FeedbackKnowledgeStats;
}

export function feedbackLoopStatus(loop: FeedbackLoop, options: { agentId?: string; nowMs: number }): FeedbackLoopStatus {
  const agentId = options.agentId ?? 'default';
  const fb = loop.config.feedback;
  const { model, open, knowledge } = loop.sessions.store.read((db) => ({
    model: loadPredictorModel(db, agentId),
    open: openSessions(db, agentId).length,
    knowledge: knowledgeStats(db, { agentId, nowMs: options.nowMs, minWeight: fb.minAspectWeight, maxWeight: fb.maxAspectWeight }),
  }));
  return {
    telemetry: loop.telemetry.snapshot(),
    hints: loop.hints.status(),
    predictor: { sessionsTrained: model.sessionsTrained, live: predictorIsLive(model, fb), minSessions: fb.predictorMinSessions, enabled: fb.predictorEnabled },
    openSessions: open,
    knowledge,
  };
}

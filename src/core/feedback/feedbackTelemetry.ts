/**
 * In-process feedback telemetry: cumulative counters since the
 * process started, logged at every session end and exposed by the status.
 */
export interface FeedbackTelemetrySnapshot {
  readonly lastRunAt: string | null;
  readonly feedbackAspectsUpdated: number;
  readonly feedbackFtsConfirmations: number;
  readonly feedbackDecayedAspects: number;
  readonly feedbackPropagatedAttributes: number;
}

export type FeedbackTelemetryDelta = Partial<Omit<FeedbackTelemetrySnapshot, 'lastRunAt'>>;

export class FeedbackTelemetry {
  private state: FeedbackTelemetrySnapshot = {
    lastRunAt: null,
    feedbackAspectsUpdated: 0,
    feedbackFtsConfirmations: 0,
    feedbackDecayedAspects: 0,
    feedbackPropagatedAttributes: 0,
  };

  record(delta: FeedbackTelemetryDelta, atIso: string): FeedbackTelemetrySnapshot {
    const s = this.state;
    this.state = {
      lastRunAt: atIso,
      feedbackAspectsUpdated: s.feedbackAspectsUpdated + (delta.feedbackAspectsUpdated ?? 0),
      feedbackFtsConfirmations: s.feedbackFtsConfirmations + (delta.feedbackFtsConfirmations ?? 0),
      feedbackDecayedAspects: s.feedbackDecayedAspects + (delta.feedbackDecayedAspects ?? 0),
      feedbackPropagatedAttributes: s.feedbackPropagatedAttributes + (delta.feedbackPropagatedAttributes ?? 0),
    };
    return this.state;
  }

  snapshot(): FeedbackTelemetrySnapshot {
    return this.state;
  }
}

/** The process-wide counters (one per extension host or CLI process). */
export const processFeedbackTelemetry = new FeedbackTelemetry();

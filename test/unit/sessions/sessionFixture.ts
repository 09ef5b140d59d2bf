import { resolveFeedbackConfig } from '../../../src/core/config/feedbackConfig';
import type { FeedbackConfig } from '../../../src/core/config/feedbackConfig';
import { resolveHintsConfig } from '../../../src/core/config/hintsConfig';
import { resolveSessionConfig } from '../../../src/core/config/sessionConfig';
import type { ManualClock } from '../../../src/core/clock';
import type { LlmClient } from '../../../src/core/hostContext';
import { createRecordingLogger } from '../../../src/core/logger';
import { FeedbackTelemetry } from '../../../src/core/feedback/feedbackTelemetry';
import { SessionService } from '../../../src/core/sessions/sessionService';
import type { SessionServiceDeps } from '../../../src/core/sessions/sessionService';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

let n = 0;
export function seqId(): string {
  n++;
  return `id-${String(n).padStart(10, '0')}`;
}

export function makeService(store: MemoryStore, clock: ManualClock, over: Partial<SessionServiceDeps> & { feedbackOver?: Partial<FeedbackConfig> } = {}) {
  const logger = createRecordingLogger();
  const telemetry = new FeedbackTelemetry();
  const service = new SessionService({
    store, clock, logger, llm: undefined as LlmClient | undefined,
    session: resolveSessionConfig({}),
    feedback: resolveFeedbackConfig(over.feedbackOver ?? {}),
    hints: resolveHintsConfig({}),
    graphEnabled: true,
    telemetry,
    newId: seqId,
    ...over,
  });
  return { service, logger, telemetry };
}

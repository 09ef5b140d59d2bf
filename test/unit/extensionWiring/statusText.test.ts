import { strict as assert } from 'node:assert';
import { statusDocument } from '../../../src/extension/status/statusText';
import type { StatusFeedback } from '../../../src/extension/status/statusText';
import type { EngineStatus } from '../../../src/core/engine/memoryEngine';

const status: EngineStatus = { memories: 12, pendingJobs: 0, deadJobs: 0, model: { state: 'ready', model: 'use-lite' }, llm: undefined, storeDir: '/store', storeRecovery: undefined };
const noTelemetry = { lastRunAt: null, feedbackAspectsUpdated: 0, feedbackFtsConfirmations: 0, feedbackDecayedAspects: 0, feedbackPropagatedAttributes: 0 };
const emptyFeedback: StatusFeedback = {
  feedback: { aspectCount: 0, aspectsUpdatedByFeedback: 0, avgAspectWeight: 0, aspectsAtMax: 0, aspectsAtMin: 0 },
  telemetry: noTelemetry, health: [], healthReason: 'No predictor comparisons yet: they are recorded when a session ends.', minComparisons: 3,
};

describe('Show Status document', () => {
  it('renders headings and lists (not raw bold text) and explains empty feedback and health', () => {
    const md = statusDocument(status, 'off', true, emptyFeedback);
    assert.match(md, /^# Agent Memory status\n\n- Memories: 12\n/);
    assert.doesNotMatch(md, /\*\*/);
    assert.match(md, /## Aspect weights \(feedback\)\n\nNo aspects yet, so no feedback/);
    assert.match(md, /## Feedback loop \(this window\)\n\nNo session has ended in this window yet/);
    assert.match(md, /## Entity health .*\n\nNo predictor comparisons yet: they are recorded when a session ends\.\n$/);
  });

  it('reports the feedback statistics, the loop counters and health by colour, naming red entities', () => {
    const md = statusDocument(status, 'off', false, {
      feedback: { aspectCount: 8, aspectsUpdatedByFeedback: 1, avgAspectWeight: 0.625, aspectsAtMax: 2, aspectsAtMin: 0 },
      telemetry: { lastRunAt: '2026-12-01T02:00:00.000Z', feedbackAspectsUpdated: 3, feedbackFtsConfirmations: 2, feedbackDecayedAspects: 1, feedbackPropagatedAttributes: 0 },
      health: [
        { entityId: 'a', entityName: 'SQLite', comparisonCount: 12, winRate: 0.75, avgMargin: 0.2, trend: 'improving' },
        { entityId: 'b', entityName: 'JSON file', comparisonCount: 12, winRate: 0, avgMargin: 0, trend: 'stable' },
        { entityId: 'c', entityName: 'port 8080', comparisonCount: 14, winRate: 0.5, avgMargin: -0.1, trend: 'declining' },
        { entityId: 'd', entityName: 'NATS', comparisonCount: 4, winRate: 0.1, avgMargin: -0.3, trend: 'declining' },
      ],
      healthReason: undefined, minComparisons: 3,
    });
    assert.match(md, /- Aspects: 8, average weight 0\.63\n- Raised by feedback in the last 7 days: 1 aspect\n- At the maximum weight: 2 · at the minimum: 0\n/);
    assert.match(md, /- Last session end: 2026-12-01T02:00:00\.000Z\n- Aspects updated: 3 \(FTS confirmations 2\)\n- Aspects decayed: 1\n/);
    assert.match(md, /4 entities with 3\+ comparisons: 1 green \(improving or high win rate\), 1 yellow \(stable\), 1 red \(declining or losing\), 1 without a colour yet \(fewer than 10 comparisons\)\./);
    assert.match(md, /Red:\n\n- port 8080: declining, win rate 50% over 14 comparisons\n$/);
  });
});

import type { FeedbackConfig } from '../config/feedbackConfig';
import type { HintsConfig } from '../config/hintsConfig';
import type { JobsConfig } from '../config/jobsConfig';
import type { SessionConfig } from '../config/sessionConfig';
import type { Clock } from '../clock';
import { userMessage } from '../errors';
import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import type { MemoryStore } from '../store/storeTypes';
import { runSessionFeedback } from '../feedback/sessionFeedback';
import type { PropagateMemoryStatus, SessionFeedbackResult } from '../feedback/sessionFeedback';
import type { FeedbackTelemetry, FeedbackTelemetrySnapshot } from '../feedback/feedbackTelemetry';
import { enqueueHintsJob } from '../hints/hintsJobs';
import { runPredictorComparison } from '../predictor/sessionComparison';
import type { PredictorSessionResult } from '../predictor/sessionComparison';
import { ANSWER_EVIDENCE_HARNESSES, answerEvidenceScore } from '../feedback/answerUsage';
import { loadInjectedMemories, scoreContinuity, writeContinuity } from './continuityStep';
import type { ContinuityResult } from './continuityScore';
import { getSession, loadTranscript, markEnded, setEndStep } from './sessionRecords';

/**
 * Session-end processing, in resumable steps; sessions.end_step records the last
 * one completed, so a window that closes half-way resumes where it stopped:
 *   capture → continuity → feedback → predictor → hints → done.
 */
export const END_STEPS = ['capture', 'continuity', 'feedback', 'predictor', 'hints'] as const;
export type EndStep = (typeof END_STEPS)[number];

/**
 * Summary and extraction of a transcript into memories (the graph module's remember + extractor).
 * Memories it writes must carry memories.session_key = sessionKey (a resumed end finds them so).
 */
export interface SessionCapture {
  capture(input: { sessionKey: string; agentId: string; project: string | null; transcript: string }): Promise<{ summary: string; memoryIds: readonly string[] }>;
}

export interface SessionEndDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly llm: LlmClient | undefined;
  readonly session: SessionConfig;
  readonly feedback: FeedbackConfig;
  readonly hints: HintsConfig;
  readonly jobs: JobsConfig;
  readonly graphEnabled: boolean;
  readonly capture: SessionCapture | undefined;
  readonly propagate: PropagateMemoryStatus | undefined;
  readonly telemetry: FeedbackTelemetry;
  readonly newId: () => string;
}

export interface SessionEndReport {
  readonly sessionKey: string;
  readonly reason: string | null;
  readonly resumedFrom: string | null;
  readonly capture: { readonly memoryIds: readonly string[]; readonly skipped?: string } | undefined;
  readonly continuity: { readonly method: ContinuityResult['method']; readonly score: number; readonly injected: number } | undefined;
  readonly feedback: SessionFeedbackResult | undefined;
  readonly predictor: PredictorSessionResult | undefined;
  readonly hintsEnqueued: number;
  readonly telemetry: FeedbackTelemetrySnapshot;
}

function stepIndex(step: string | null): number {
  return step === null ? -1 : END_STEPS.indexOf(step as EndStep);
}

/** A heuristic summary when no capture function (or LLM) produced one. */
export function heuristicSummary(transcript: string): string {
  const users = transcript.split('\n').filter((l) => l.startsWith('User: ')).map((l) => l.slice(6).trim()).filter(Boolean);
  if (!users.length) return '';
  return `${users.length} user turn(s). First: ${(users[0] as string).slice(0, 200)}`;
}

/** Runs the remaining end steps of a session already marked 'ending'. */
export async function finishSessionEnd(sessionKey: string, deps: SessionEndDeps): Promise<SessionEndReport> {
  const { store, clock } = deps;
  const iso = (): string => new Date(clock.now()).toISOString();
  const row = store.read((db) => getSession(db, sessionKey));
  if (!row) throw new Error(`session ${sessionKey} vanished while ending`);
  const done = stepIndex(row.end_step);
  const transcript = store.read((db) => loadTranscript(db, sessionKey, deps.session.maxTranscriptChars));
  let summary = row.summary ?? '';
  let capture: SessionEndReport['capture'];
  let memoryIds: readonly string[] = [];
  if (done < 0) {
    if (!deps.capture) capture = { memoryIds: [], skipped: 'no capture function is wired' };
    else if (transcript.length < deps.session.minTranscriptChars) capture = { memoryIds: [], skipped: `transcript shorter than ${deps.session.minTranscriptChars} characters` };
    else {
      try {
        const r = await deps.capture.capture({ sessionKey, agentId: row.agent_id, project: row.project, transcript });
        summary = r.summary;
        memoryIds = r.memoryIds;
        capture = { memoryIds };
      } catch (e) {
        deps.logger.warn(`session ${sessionKey}: capture failed (${userMessage(e)}); continuing without new memories`);
        capture = { memoryIds: [], skipped: `capture failed: ${userMessage(e)}` };
      }
    }
    if (!summary) summary = heuristicSummary(transcript);
    await store.write('session-end', (db) => setEndStep(db, sessionKey, 'capture', iso(), summary));
  } else {
    // resumed after capture: the captured memories carry the session key
    memoryIds = store.read((db) => db.all<{ id: string }>('SELECT id FROM memories WHERE session_key = ? AND is_deleted = 0 ORDER BY id', [sessionKey]).map((r) => r.id));
  }
  let continuity: SessionEndReport['continuity'];
  if (done < stepIndex('continuity') && ANSWER_EVIDENCE_HARNESSES.has(row.harness ?? '')) {
    // Chat answers already wrote their evidence turn by turn, and explicit actions theirs
    // (answerUsage.ts, userFeedback.ts): no transcript overlap may overwrite them.
    const ev = store.read((db) => answerEvidenceScore(db, sessionKey, row.agent_id, deps.feedback.paidOffRelevance));
    const result: ContinuityResult = { method: 'usage', score: ev.score, confidence: ev.injected ? 1 : 0, memoriesUsed: ev.used, novelContextCount: 0, reasoning: ev.reasoning, perMemory: new Map() };
    await store.write('session-end', (db) => {
      writeContinuity(db, { sessionKey, agentId: row.agent_id, project: row.project, harness: row.harness, injectedCount: ev.injected, result, nowIso: iso(), id: deps.newId() });
      setEndStep(db, sessionKey, 'continuity', iso());
    });
    continuity = { method: result.method, score: result.score, injected: ev.injected };
  } else if (done < stepIndex('continuity')) {
    const injected = store.read((db) => loadInjectedMemories(db, sessionKey, row.agent_id, deps.session.continuityMaxMemories));
    const result = await scoreContinuity(injected, summary, transcript, { llm: deps.llm, config: deps.session, logger: deps.logger });
    await store.write('session-end', (db) => {
      writeContinuity(db, { sessionKey, agentId: row.agent_id, project: row.project, harness: row.harness, injectedCount: injected.length, result, nowIso: iso(), id: deps.newId() });
      setEndStep(db, sessionKey, 'continuity', iso());
    });
    continuity = { method: result.method, score: result.score, injected: injected.length };
  }
  let feedback: SessionFeedbackResult | undefined;
  if (done < stepIndex('feedback')) {
    feedback = await store.write('session-end', (db) => {
      const r = runSessionFeedback(db, { sessionKey, agentId: row.agent_id, config: deps.feedback, graphEnabled: deps.graphEnabled, nowMs: clock.now(), propagate: deps.propagate });
      setEndStep(db, sessionKey, 'feedback', iso());
      return r;
    });
    deps.telemetry.record(feedback, iso());
  }
  let predictor: PredictorSessionResult | undefined;
  if (done < stepIndex('predictor')) {
    predictor = await store.write('session-end', (db) => {
      const r = runPredictorComparison(db, { sessionKey, agentId: row.agent_id, project: row.project, sessionStartedAt: row.started_at, nowMs: clock.now(), config: deps.feedback, newId: deps.newId });
      setEndStep(db, sessionKey, 'predictor', iso());
      return r;
    });
  }
  let hintsEnqueued = 0;
  if (done < stepIndex('hints')) {
    hintsEnqueued = await store.write('session-end', (db) => {
      let n = 0;
      if (deps.hints.enabled) for (const id of memoryIds) if (enqueueHintsJob(db, id, row.agent_id, clock.now(), deps.newId, deps.jobs)) n++;
      markEnded(db, sessionKey, iso());
      return n;
    });
  }
  const telemetry = deps.telemetry.snapshot();
  deps.logger.info(`session end ${sessionKey}: feedbackAspectsUpdated=${feedback?.feedbackAspectsUpdated ?? 0} feedbackFtsConfirmations=${feedback?.feedbackFtsConfirmations ?? 0} `
    + `feedbackDecayedAspects=${feedback?.feedbackDecayedAspects ?? 0} feedbackPropagatedAttributes=${feedback?.feedbackPropagatedAttributes ?? 0}`
    + (feedback?.skipped ? ` (feedback skipped: ${feedback.skipped})` : ''), { telemetry });
  return { sessionKey, reason: row.end_reason, resumedFrom: row.end_step, capture, continuity, feedback, predictor, hintsEnqueued, telemetry };
}

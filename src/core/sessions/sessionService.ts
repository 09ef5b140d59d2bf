import { DEFAULT_REDACTION_CONFIG } from '../config/redactionConfig';
import type { RedactionConfig } from '../config/redactionConfig';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { FeedbackConfig } from '../config/feedbackConfig';
import type { HintsConfig } from '../config/hintsConfig';
import { resolveJobsConfig } from '../config/jobsConfig';
import type { JobsConfig } from '../config/jobsConfig';
import type { SessionConfig } from '../config/sessionConfig';
import { MemoryError, userMessage } from '../errors';
import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import type { MemoryStore } from '../store/storeTypes';
import { processFeedbackTelemetry } from '../feedback/feedbackTelemetry';
import type { FeedbackTelemetry, FeedbackTelemetrySnapshot } from '../feedback/feedbackTelemetry';
import type { PropagateMemoryStatus } from '../feedback/sessionFeedback';
import { ANSWER_EVIDENCE_HARNESSES, recordAnswerUsage } from '../feedback/answerUsage';
import type { UsageVerdict } from '../hooks/hookUsage';
import { applyUserFeedback } from '../feedback/userFeedback';
import type { UserFeedbackInput, UserFeedbackResult } from '../feedback/userFeedback';
import type { FocalEntities } from '../pinning/pinnedFocal';
import { finishSessionEnd } from './sessionEnd';
import type { SessionCapture, SessionEndReport } from './sessionEnd';
import { appendTurn, getSession, markEnding, openSessions, validateSessionKey } from './sessionRecords';
import type { EndReason } from './sessionRecords';
import { recallFocalResolver } from './defaultResolvers';
import { buildSessionStart } from './sessionStart';
import type { FocalResolver, InjectedCandidate } from './sessionStart';

/**
 * The session lifecycle the extension and the CLI drive:
 * start → turn* → end (explicit, idle timeout, superseded by a new session, or shutdown), with
 * session-end processing resumable across windows (sessions.status 'ending' + end_step).
 */
export interface SessionServiceDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly llm: LlmClient | undefined;
  readonly session: SessionConfig;
  readonly feedback: FeedbackConfig;
  readonly hints: HintsConfig;
  /** Queue settings for the hints jobs enqueued at session end (default: resolveJobsConfig()). */
  readonly jobs?: JobsConfig;
  readonly graphEnabled: boolean;
  /** Agent scope of every row (default 'default'). */
  readonly agentId?: string;
  /** Focal entity resolution (default: the recall module's resolveFocalEntities); pins are unioned in regardless. */
  readonly resolveFocal?: FocalResolver;
  readonly capture?: SessionCapture;
  readonly propagate?: PropagateMemoryStatus;
  readonly telemetry?: FeedbackTelemetry;
  readonly newId?: () => string;
  /** Rules applied to session keys and turn text before they are stored (default: the built-in rules). */
  readonly redaction?: RedactionConfig;
}

export interface SessionStartOptions {
  readonly sessionKey?: string;
  readonly project?: string | null;
  readonly harness?: string | null;
  /** First prompt or other text whose tokens help resolve focal entities. */
  readonly query?: string;
  /** Token budget of this start's injection (default session.maxInjectTokens; agent hooks use agents.sessionStartTokens). */
  readonly maxInjectTokens?: number;
  /** Compute what would be injected without recording a session (a read-only MCP server's prompt). */
  readonly preview?: boolean;
}

export interface SessionStartResult {
  readonly sessionKey: string;
  /** False when the session already existed (its earlier injection is returned). */
  readonly created: boolean;
  readonly injected: readonly InjectedCandidate[];
  readonly candidateCount: number;
  readonly focal: FocalEntities;
  readonly predictorLive: boolean;
  /** Sessions this start ended (superseded or idle). */
  readonly ended: readonly SessionEndReport[];
}

/** An 'ending' session untouched for this long is taken over by another window. */
export const STALE_ENDING_MS = 2 * 60_000;

export class SessionService {
  private readonly agentId: string;
  private readonly newId: () => string;
  private readonly telemetry: FeedbackTelemetry;
  private readonly mine = new Set<string>();
  private readonly ending = new Map<string, Promise<SessionEndReport | undefined>>();
  private timer: ReturnType<typeof setInterval> | undefined;

  private get redaction(): RedactionConfig {
    return this.deps.redaction ?? DEFAULT_REDACTION_CONFIG;
  }

  constructor(private readonly deps: SessionServiceDeps) {
    this.agentId = deps.agentId ?? 'default';
    this.newId = deps.newId ?? randomUUID;
    this.telemetry = deps.telemetry ?? processFeedbackTelemetry;
  }

  /** The store the service works on. */
  get store(): MemoryStore {
    return this.deps.store;
  }

  feedbackTelemetry(): FeedbackTelemetrySnapshot {
    return this.telemetry.snapshot();
  }

  async start(options: SessionStartOptions = {}): Promise<SessionStartResult> {
    const key = validateSessionKey(options.sessionKey ?? this.newId(), this.redaction);
    const project = options.project ?? null;
    const existing = this.deps.store.read((db) => getSession(db, key));
    if (existing && existing.status !== 'active') throw new MemoryError('E_INVALID_INPUT', `Session '${key}' has already ended; start a new one.`);
    const ended: SessionEndReport[] = [];
    if (!existing && !options.preview) {
      const nowMs = this.deps.clock.now();
      for (const s of this.deps.store.read((db) => openSessions(db, this.agentId))) {
        const idle = s.status === 'active' && Date.parse(s.last_activity_at ?? s.started_at) < nowMs - this.deps.session.idleTimeoutMs;
        const superseded = s.status === 'active' && s.project === project && s.harness === (options.harness ?? null);
        if (idle || superseded) {
          const r = await this.end(s.session_key, idle ? 'idle' : 'superseded');
          if (r) ended.push(r);
        }
      }
    }
    const session = options.maxInjectTokens !== undefined ? { ...this.deps.session, maxInjectTokens: Math.max(0, options.maxInjectTokens) } : this.deps.session;
    const built = await buildSessionStart({ ...this.deps, session, resolveFocal: this.deps.resolveFocal ?? recallFocalResolver, agentId: this.agentId }, { sessionKey: key, project, harness: options.harness ?? null, query: options.query, existing: existing !== undefined, record: !options.preview });
    if (!options.preview) this.mine.add(key);
    return { sessionKey: key, created: !existing, ...built, ended };
  }

  /** Records one turn of the transcript; the session must be active. Returns the turn's sequence number. */
  async turn(sessionKey: string, role: 'user' | 'assistant' | 'tool', text: string): Promise<number> {
    const key = validateSessionKey(sessionKey, this.redaction);
    if (!text.trim()) throw new MemoryError('E_INVALID_INPUT', 'A turn needs some text.');
    let verdicts: UsageVerdict[] | undefined;
    const seq = await this.deps.store.write('session-turn', (db) => {
      const s = getSession(db, key);
      if (!s) throw new MemoryError('E_NOT_FOUND', `No session '${key}'. Start one first.`);
      if (s.status !== 'active') throw new MemoryError('E_INVALID_INPUT', `Session '${key}' has ended.`);
      const n = appendTurn(db, key, role, text, new Date(this.deps.clock.now()).toISOString(), this.newId(), this.redaction);
      // A chat answer is evidence as it arrives (answerUsage.ts), so a later 👎 on it has the last word.
      if (role === 'assistant' && ANSWER_EVIDENCE_HARNESSES.has(s.harness ?? '')) verdicts = recordAnswerUsage(db, key, this.agentId, text);
      return n;
    });
    // Counts only (no memory text): what the answer's own words used, visible in the log (the whole-loop e2e reads it).
    // (Not for an answer that showed nothing, e.g. "Remembered.": a "0 of 0" line would read as a failure.)
    if (verdicts?.length) this.deps.logger.info(`answer evidence: ${verdicts.filter((v) => v.used).length} of ${verdicts.length} shown memories used in the answer's own words`);
    return seq;
  }

  /**
   * An explicit user action on memories an answer showed (👍 / 👎, opened, copied, wrong /
   * outdated; userFeedback.ts): the session evidence at once, aspect weights at once when
   * feedback and the graph are on. The session may have ended (then only its rows and the
   * weights change; its predictor comparison was already written).
   */
  async userFeedback(input: UserFeedbackInput): Promise<UserFeedbackResult> {
    if (input.sessionKey !== undefined) validateSessionKey(input.sessionKey, this.redaction);
    const nowIso = new Date(this.deps.clock.now()).toISOString();
    const fb = this.deps.feedback;
    const r = await this.deps.store.write('user-feedback', (db) => applyUserFeedback(db, input, {
      agentId: this.agentId, delta: fb.ftsWeightDelta, minWeight: fb.minAspectWeight, maxWeight: fb.maxAspectWeight, nowIso, weightsEnabled: fb.enabled && this.deps.graphEnabled,
    }));
    if (r.aspectsRaised + r.aspectsLowered > 0) this.telemetry.record({ feedbackAspectsUpdated: r.aspectsRaised + r.aspectsLowered }, nowIso);
    this.deps.logger.info(`user feedback '${r.action}' on ${r.memories} memories: ${r.sessionRows} session rows, aspects +${r.aspectsRaised} -${r.aspectsLowered}`);
    return r;
  }

  /**
   * Ends a session and runs (or resumes) its end processing. Returns undefined when another
   * window is ending it right now. Ending an ended session returns undefined as well.
   */
  async end(sessionKey: string, reason: EndReason = 'explicit'): Promise<SessionEndReport | undefined> {
    const key = validateSessionKey(sessionKey, this.redaction);
    const inFlight = this.ending.get(key);
    if (inFlight) return inFlight;
    const run = this.runEnd(key, reason).finally(() => { this.ending.delete(key); this.mine.delete(key); });
    this.ending.set(key, run);
    return run;
  }

  private async runEnd(key: string, reason: EndReason): Promise<SessionEndReport | undefined> {
    const nowMs = this.deps.clock.now();
    const claimed = await this.deps.store.write('session-end', (db) => {
      const s = getSession(db, key);
      if (!s) throw new MemoryError('E_NOT_FOUND', `No session '${key}'.`);
      if (s.status === 'ended') return false;
      const nowIso = new Date(nowMs).toISOString();
      if (s.status === 'active') { markEnding(db, key, reason, nowIso); return true; }
      const stale = new Date(nowMs - STALE_ENDING_MS).toISOString();
      // another window may be ending it right now: take over only once it has gone quiet
      return db.run('UPDATE sessions SET updated_at = ? WHERE session_key = ? AND status = ? AND updated_at < ?', [nowIso, key, 'ending', stale]).changes > 0;
    });
    if (!claimed) return undefined;
    return finishSessionEnd(key, {
      store: this.deps.store, clock: this.deps.clock, logger: this.deps.logger, llm: this.deps.llm, session: this.deps.session, feedback: this.deps.feedback,
      hints: this.deps.hints, jobs: this.deps.jobs ?? resolveJobsConfig(), graphEnabled: this.deps.graphEnabled, capture: this.deps.capture, propagate: this.deps.propagate, telemetry: this.telemetry, newId: this.newId,
    });
  }

  /** Ends idle sessions and resumes half-ended ones (e.g. left by a closed window). */
  async sweep(): Promise<SessionEndReport[]> {
    const nowMs = this.deps.clock.now();
    const out: SessionEndReport[] = [];
    for (const s of this.deps.store.read((db) => openSessions(db, this.agentId))) {
      let reason: EndReason | undefined;
      if (s.status === 'active' && Date.parse(s.last_activity_at ?? s.started_at) < nowMs - this.deps.session.idleTimeoutMs) reason = 'idle';
      else if (s.status === 'ending') reason = 'resumed';
      if (!reason) continue;
      try {
        const r = await this.end(s.session_key, reason);
        if (r) out.push(r);
      } catch (e) {
        this.deps.logger.warn(`session ${s.session_key}: ending failed (${userMessage(e)}); it will be retried`);
      }
    }
    return out;
  }

  /** Ends the sessions this service started (window closing). */
  async shutdown(): Promise<SessionEndReport[]> {
    this.stopIdleTimer();
    const out: SessionEndReport[] = [];
    for (const key of [...this.mine]) {
      try {
        const r = await this.end(key, 'shutdown');
        if (r) out.push(r);
      } catch (e) {
        this.deps.logger.warn(`session ${key}: ending at shutdown failed (${userMessage(e)}); the next window resumes it`);
      }
    }
    return out;
  }

  startIdleTimer(): void {
    if (this.timer) return;
    const every = Math.min(60_000, Math.max(1_000, Math.floor(this.deps.session.idleTimeoutMs / 4)));
    this.timer = setInterval(() => { void this.sweep().catch((e: unknown) => this.deps.logger.warn(`session sweep: ${userMessage(e)}`)); }, every);
    this.timer.unref?.();
  }

  stopIdleTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

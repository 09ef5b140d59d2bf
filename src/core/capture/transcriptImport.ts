import { createHash } from 'node:crypto';
import { isoFromMs } from '../clock';
import type { CaptureConfig } from '../config/captureConfig';
import type { ExtractionConfig } from '../config/extractionConfig';
import { redactSecrets } from '../memory/redaction';
import { rememberInTransaction } from '../memory/remember';
import type { RememberDeps, RememberInput } from '../memory/remember';
import type { MemoryStore, SqlWriter } from '../store/storeTypes';
import { appendTurns, getSession, insertSession, MAX_SESSION_KEY, validateSessionKey } from '../sessions/sessionRecords';
import { formatLabel, memorableStatements, sessionSummaryText } from './memorableTurns';
import type { MemorableStatement } from './memorableTurns';
import type { Transcript } from './transcriptTypes';

/**
 * Imports a normalised transcript: its memorable statements and one session
 * summary become memories through remember() (so redaction, dedup and the embed/extract jobs
 * apply), and the conversation is recorded as an ended session (sessions + session_turns) with
 * harness = the source agent. Source ids are derived from the session id and each turn's key, so
 * importing the same file again — or a longer version of it — adds only what is new.
 */
export interface ImportTranscriptDeps {
  readonly remember: RememberDeps;
  readonly capture: CaptureConfig;
  readonly extraction?: ExtractionConfig;
  /** Agent scope of the memories and the session (default 'default'). */
  readonly agentId?: string;
}

export interface ImportTranscriptOptions {
  /** Project of the memories and the session (default: the transcript's own, e.g. Claude Code's cwd). */
  readonly project?: string;
  /** Write the session summary memory (default true). */
  readonly summary?: boolean;
}

export interface ImportReport {
  readonly format: Transcript['format'];
  readonly turns: number;
  readonly memoriesCreated: number;
  readonly duplicates: number;
  readonly sessionKey: string;
  /** Turns newly added to the session record (0 on a repeated import). */
  readonly turnsRecorded: number;
  readonly memoryIds: readonly string[];
}

/** Source type of every imported memory. */
export const TRANSCRIPT_SOURCE_TYPE = 'transcript';
/** End reason written on imported sessions (they are recorded already ended). */
export const IMPORTED_END_REASON = 'imported';

const PREFIX = 'import:';

/** The session key of an imported transcript: import:<format>:<session id> (hashed when too long). */
export function importedSessionKey(t: Transcript): string {
  const raw = `${PREFIX}${t.format}:${t.sessionId}`;
  if (raw.length <= MAX_SESSION_KEY && [...raw].every((ch) => ch.charCodeAt(0) >= 0x20)) return raw;
  return `${PREFIX}${t.format}:${createHash('sha256').update(t.sessionId).digest('hex')}`;
}

const turnRowId = (sessionKey: string, turnKey: string): string => createHash('sha256').update(`${sessionKey}\u0000${turnKey}`).digest('hex').slice(0, 32);

/**
 * Creates the imported session's row, already ended, on first use (so a half-done streamed import is
 * never taken for a live session); returns the transcript's start (its own, else its first dated turn).
 */
export function ensureImportedSession(db: SqlWriter, t: Transcript, key: string, project: string | undefined, agentId: string, redaction: RememberDeps['redaction']): string | undefined {
  const started = t.startedAt ?? t.turns.find((x) => x.timestamp)?.timestamp;
  if (!getSession(db, key)) {
    const at = started ?? new Date(0).toISOString();
    insertSession(db, { sessionKey: key, agentId, project: project ?? null, harness: formatLabel(t.format), nowIso: at, focalEntityIds: [] }, redaction);
    db.run("UPDATE sessions SET status = 'ended', end_step = 'done', end_reason = ?, ended_at = ? WHERE session_key = ?", [IMPORTED_END_REASON, at, key]);
  }
  return started;
}

/**
 * Records the turns not recorded yet (row ids derive from the session key and each turn's key, so
 * a repeated or resumed import adds only what is missing); creates the session row, already ended,
 * on first use, so a half-done streamed import is never taken for a live session.
 */
export function recordTurns(db: SqlWriter, t: Transcript, key: string, project: string | undefined, agentId: string, redaction: RememberDeps['redaction']): number {
  const started = ensureImportedSession(db, t, key, project, agentId, redaction);
  const fresh: { role: string; text: string; nowIso: string; id: string }[] = [];
  for (const turn of t.turns) {
    const id = turnRowId(key, turn.key);
    if (db.get('SELECT 1 AS found FROM session_turns WHERE id = ?', [id])) continue;
    fresh.push({ role: turn.role, text: turn.text, nowIso: turn.timestamp ?? started ?? new Date(0).toISOString(), id });
  }
  // the recorded transcript is redacted like memories are (appendTurns redacts): no secret is stored anywhere
  return appendTurns(db, key, fresh, redaction);
}

/** Marks the imported session ended with its summary and the time of its last turn. */
export function finishImportedSession(db: SqlWriter, key: string, summary: string, lastAt: string, nowIso: string, redaction: RememberDeps['redaction']): void {
  db.run(`UPDATE sessions SET status = 'ended', end_step = 'done', end_reason = COALESCE(end_reason, ?), summary = COALESCE(summary, ?),
          ended_at = CASE WHEN ended_at IS NULL OR ended_at < ? THEN ? ELSE ended_at END, updated_at = ? WHERE session_key = ?`,
  [IMPORTED_END_REASON, summary ? redactSecrets(summary, redaction).text : null, lastAt, lastAt, nowIso, key]);
}

function recordSession(db: SqlWriter, t: Transcript, key: string, project: string | undefined, summary: string, nowIso: string, agentId: string, redaction: RememberDeps['redaction']): number {
  const recorded = recordTurns(db, t.startedAt || t.turns.some((x) => x.timestamp) ? t : { ...t, startedAt: nowIso }, key, project, agentId, redaction);
  const started = t.startedAt ?? t.turns.find((x) => x.timestamp)?.timestamp ?? nowIso;
  const last = [...t.turns].reverse().find((x) => x.timestamp)?.timestamp ?? started;
  finishImportedSession(db, key, summary, last, nowIso, redaction);
  return recorded;
}

/** The memories a transcript's statements and summary become (shared by the whole-file and the streamed import). */
export function importInputs(t: Pick<Transcript, 'format' | 'startedAt'>, key: string, statements: readonly MemorableStatement[], summary: string, deps: ImportTranscriptDeps, project: string | undefined, withSummary: boolean): RememberInput[] {
  const agentId = deps.agentId ?? 'default';
  const base = { sourceType: TRANSCRIPT_SOURCE_TYPE, sessionKey: key, agentId, tags: ['imported', t.format], ...(project ? { project } : {}) };
  const inputs: RememberInput[] = statements.map((s) => ({
    ...base, content: s.content, type: s.type, importance: s.importance, sourceId: `${key}:${s.turnKey}:${s.index}`,
    who: s.role === 'user' ? 'user' : formatLabel(t.format), why: `said in an imported ${formatLabel(t.format)} session`,
    ...(s.timestamp ?? t.startedAt ? { createdAt: s.timestamp ?? t.startedAt } : {}),
  }));
  if (summary && withSummary) {
    inputs.push({ ...base, content: summary, type: 'session_summary', importance: deps.capture.summaryImportance, sourceId: `${key}:summary`, who: formatLabel(t.format), why: 'summary of an imported session', ...(t.startedAt ? { createdAt: t.startedAt } : {}) });
  }
  return inputs;
}

/** The import inside an open transaction (the folder watcher adds its ledger update to the same one). */
/** Remembers each input inside the caller's transaction; counts new memories and duplicates. */
export function rememberInputs(db: SqlWriter, inputs: readonly RememberInput[], deps: RememberDeps): { memoriesCreated: number; duplicates: number; memoryIds: string[] } {
  let memoriesCreated = 0;
  let duplicates = 0;
  const memoryIds: string[] = [];
  for (const input of inputs) {
    const r = rememberInTransaction(db, input, deps);
    if (r.duplicate) duplicates++;
    else { memoriesCreated++; memoryIds.push(...r.chunkIds); }
  }
  return { memoriesCreated, duplicates, memoryIds };
}

export function importTranscriptInTransaction(db: SqlWriter, t: Transcript, deps: ImportTranscriptDeps, options: ImportTranscriptOptions = {}): ImportReport {
  const key = validateSessionKey(importedSessionKey(t), deps.remember.redaction);
  const project = options.project ?? t.project;
  const agentId = deps.agentId ?? 'default';
  const nowIso = isoFromMs(deps.remember.clock.now());
  const summary = t.turns.some((x) => x.role === 'user') ? sessionSummaryText(t, deps.capture, project) : '';
  const inputs = importInputs(t, key, memorableStatements(t, deps.capture, deps.extraction), summary, deps, project, options.summary !== false);
  const { memoriesCreated, duplicates, memoryIds } = rememberInputs(db, inputs, deps.remember);
  const turnsRecorded = recordSession(db, t, key, project, summary, nowIso, agentId, deps.remember.redaction);
  return { format: t.format, turns: t.turns.length, memoriesCreated, duplicates, sessionKey: key, turnsRecorded, memoryIds };
}

export function importTranscript(store: MemoryStore, t: Transcript, deps: ImportTranscriptDeps, options: ImportTranscriptOptions = {}): Promise<ImportReport> {
  return store.write('transcript-import', (db) => importTranscriptInTransaction(db, t, deps, options));
}

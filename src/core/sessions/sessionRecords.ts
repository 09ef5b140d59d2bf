import { DEFAULT_REDACTION_CONFIG } from '../config/redactionConfig';
import type { RedactionConfig } from '../config/redactionConfig';
import { MemoryError } from '../errors';
import { redactSecrets } from '../memory/redaction';
import { assertStorableText } from '../memory/textValidation';
import type { SqlReader, SqlWriter } from '../store/storeTypes';
import { expandTurns } from '../capture/turnBlocks';

/**
 * Rows of the session lifecycle: the sessions table (status active → ending → ended, with the last
 * completed end step so a half-finished end resumes) and the transcript in session_turns.
 * Every text written here (key, project, harness, turn text, summary) goes through the redactor
 * first (docs/ingest.md "Redaction"): a secret typed into a chat never reaches a store file.
 */
export type SessionStatus = 'active' | 'ending' | 'ended';
export type EndReason = 'explicit' | 'idle' | 'superseded' | 'shutdown' | 'resumed';

export interface SessionRow {
  readonly session_key: string;
  readonly agent_id: string;
  readonly project: string | null;
  readonly harness: string | null;
  readonly status: SessionStatus;
  readonly prompt_count: number;
  readonly summary: string | null;
  readonly started_at: string;
  readonly last_activity_at: string | null;
  readonly ended_at: string | null;
  readonly end_step: string | null;
  readonly end_reason: string | null;
  readonly focal_entity_ids: string;
}

const SESSION_COLUMNS = 'session_key, agent_id, project, harness, status, prompt_count, summary, started_at, last_activity_at, ended_at, end_step, end_reason, focal_entity_ids';
/** Longest session key accepted (keys come from harnesses and the CLI). */
export const MAX_SESSION_KEY = 200;

const red = (text: string, redaction: RedactionConfig): string => redactSecrets(text, redaction).text;
const redOrNull = (text: string | null, redaction: RedactionConfig): string | null => (text === null ? null : red(text, redaction));

/**
 * Checks a session key and returns it redacted. Redaction is deterministic, so every later use of
 * the same key (turn, end) finds the row its first use created.
 */
export function validateSessionKey(key: string, redaction: RedactionConfig = DEFAULT_REDACTION_CONFIG): string {
  const k = key.trim();
  if (!k || k.length > MAX_SESSION_KEY || [...k].some((ch) => ch.charCodeAt(0) < 0x20)) {
    throw new MemoryError('E_INVALID_INPUT', `A session key must be 1–${MAX_SESSION_KEY} printable characters.`);
  }
  assertStorableText(k, 'The session key');
  return red(k, redaction);
}

export function getSession(db: SqlReader, sessionKey: string): SessionRow | undefined {
  return db.get<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE session_key = ?`, [sessionKey]);
}

export function insertSession(db: SqlWriter, s: { sessionKey: string; agentId: string; project: string | null; harness: string | null; nowIso: string; focalEntityIds: readonly string[] }, redaction: RedactionConfig = DEFAULT_REDACTION_CONFIG): void {
  for (const [field, v] of [['The project', s.project], ['The harness', s.harness]] as const) if (v !== null) assertStorableText(v, field);
  db.run(`INSERT INTO sessions (session_key, agent_id, project, harness, status, prompt_count, started_at, last_activity_at, created_at, updated_at, focal_entity_ids)
          VALUES (?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?)`,
  [s.sessionKey, s.agentId, redOrNull(s.project, redaction), redOrNull(s.harness, redaction), s.nowIso, s.nowIso, s.nowIso, s.nowIso, JSON.stringify(s.focalEntityIds)]);
}

/** Sessions of the agent that are still active or half-ended, oldest first. */
export function openSessions(db: SqlReader, agentId: string): SessionRow[] {
  return db.all<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE agent_id = ? AND status IN ('active', 'ending') ORDER BY started_at, session_key`, [agentId]);
}

export function appendTurn(db: SqlWriter, sessionKey: string, role: string, text: string, nowIso: string, id: string, redaction: RedactionConfig = DEFAULT_REDACTION_CONFIG): number {
  assertStorableText(text, 'The turn text');
  const seq = (db.get<{ n: number | null }>('SELECT MAX(seq) AS n FROM session_turns WHERE session_key = ?', [sessionKey])?.n ?? -1) + 1;
  db.run('INSERT INTO session_turns (id, session_key, seq, role, text, created_at) VALUES (?, ?, ?, ?, ?, ?)', [id, sessionKey, seq, role, red(text, redaction), nowIso]);
  const prompt = role === 'user' ? 1 : 0;
  db.run('UPDATE sessions SET prompt_count = prompt_count + ?, last_activity_at = ?, updated_at = ? WHERE session_key = ?', [prompt, nowIso, nowIso, sessionKey]);
  return seq;
}

/**
 * Appends several turns in one go: one sequence lookup and one session update for the batch
 * instead of per turn (a streamed import records thousands a transaction). Same rows as calling
 * appendTurn for each turn in order.
 */
export function appendTurns(db: SqlWriter, sessionKey: string, turns: readonly { role: string; text: string; nowIso: string; id: string }[], redaction: RedactionConfig = DEFAULT_REDACTION_CONFIG): number {
  if (!turns.length) return 0;
  let seq = (db.get<{ n: number | null }>('SELECT MAX(seq) AS n FROM session_turns WHERE session_key = ?', [sessionKey])?.n ?? -1) + 1;
  let prompts = 0;
  for (const t of turns) {
    assertStorableText(t.text, 'The turn text');
    db.run('INSERT INTO session_turns (id, session_key, seq, role, text, created_at) VALUES (?, ?, ?, ?, ?, ?)', [t.id, sessionKey, seq++, t.role, red(t.text, redaction), t.nowIso]);
    if (t.role === 'user') prompts++;
  }
  const last = (turns[turns.length - 1] as { nowIso: string }).nowIso;
  db.run('UPDATE sessions SET prompt_count = prompt_count + ?, last_activity_at = ?, updated_at = ? WHERE session_key = ?', [prompts, last, last, sessionKey]);
  return turns.length;
}

/** The transcript as "User: …" / "Assistant: …" lines (the shape the summary contracts expect), capped from the end. */
export function loadTranscript(db: SqlReader, sessionKey: string, maxChars: number): string {
  // expandTurns: a streamed import keeps a batch of turns as one block row (docs/transcripts.md).
  const turns = expandTurns(db, sessionKey);
  const text = turns.map((t) => `${t.role === 'user' ? 'User' : t.role === 'assistant' ? 'Assistant' : 'Tool'}: ${t.text}`).join('\n');
  return text.length > maxChars ? text.slice(text.length - maxChars) : text;
}

export function markEnding(db: SqlWriter, sessionKey: string, reason: EndReason, nowIso: string): void {
  db.run("UPDATE sessions SET status = 'ending', end_reason = COALESCE(end_reason, ?), ended_at = COALESCE(ended_at, ?), updated_at = ? WHERE session_key = ? AND status = 'active'",
    [reason, nowIso, nowIso, sessionKey]);
}

export function setEndStep(db: SqlWriter, sessionKey: string, step: string, nowIso: string, summary?: string, redaction: RedactionConfig = DEFAULT_REDACTION_CONFIG): void {
  if (summary !== undefined) db.run('UPDATE sessions SET end_step = ?, summary = ?, updated_at = ? WHERE session_key = ?', [step, red(summary, redaction), nowIso, sessionKey]);
  else db.run('UPDATE sessions SET end_step = ?, updated_at = ? WHERE session_key = ?', [step, nowIso, sessionKey]);
}

export function markEnded(db: SqlWriter, sessionKey: string, nowIso: string): void {
  db.run("UPDATE sessions SET status = 'ended', end_step = 'done', updated_at = ? WHERE session_key = ?", [nowIso, sessionKey]);
}

/**
 * Turn blocks: how a streamed import records a large transcript's turns (docs/transcripts.md,
 * "Large transcripts"). sql.js keeps the whole store in memory and a snapshot copies it, so one
 * session_turns row per turn (id, session key and date repeated, two indexes: about 200 bytes a
 * turn before the text) made a 1e6-turn import peak at 822 MB. A streamed import instead writes
 * one row per batch: role 'block', text = one JSON array per turn ([role, text] or
 * [role, text, timestamp] when the turn has its own), redacted like every stored turn. The image
 * then grows by about the transcript's text. expandTurns() reads both forms back in order.
 *
 * Resume: a block's id derives from the session key and its first turn's key, and batches are cut
 * the same way on every run (IMPORT_BATCH_LINES / IMPORT_BATCH_BYTES from the file's start), so a
 * re-run finds each committed block and skips it; the last block of a file that has grown since
 * is rewritten with its new turns (only those count as recorded).
 */
import { createHash } from 'node:crypto';
import { redactSecrets } from '../memory/redaction';
import type { RedactionConfig } from '../config/redactionConfig';
import { assertStorableText } from '../memory/textValidation';
import type { SqlReader, SqlWriter } from '../store/storeTypes';
import type { TranscriptTurn } from './transcriptTypes';

export const TURN_BLOCK_ROLE = 'block';

const blockId = (sessionKey: string, firstTurnKey: string): string => createHash('sha256').update(`${sessionKey}\u0000block\u0000${firstTurnKey}`).digest('hex').slice(0, 32);

function encode(turns: readonly TranscriptTurn[], redaction: RedactionConfig): string {
  return turns.map((t) => {
    assertStorableText(t.text, 'The turn text');
    const text = redactSecrets(t.text, redaction).text;
    return JSON.stringify(t.timestamp ? [t.role, text, t.timestamp] : [t.role, text]);
  }).join('\n');
}

const countLines = (text: string): number => (text ? text.split('\n').length : 0);

/**
 * Records a batch of an imported transcript's turns as one block row of session `sessionKey`
 * (which must exist); `fallbackAt` dates turns without their own timestamp. Returns the turns
 * newly recorded (0 when the block is there already).
 */
export function recordTurnBlock(db: SqlWriter, sessionKey: string, turns: readonly TranscriptTurn[], fallbackAt: string, redaction: RedactionConfig): number {
  const first = turns[0];
  if (!first) return 0;
  const id = blockId(sessionKey, first.key);
  const existing = db.get<{ text: string }>('SELECT text FROM session_turns WHERE id = ?', [id]);
  const before = existing ? countLines(existing.text) : 0;
  if (before >= turns.length) return 0;
  const text = encode(turns, redaction);
  if (existing) {
    db.run('UPDATE session_turns SET text = ? WHERE id = ?', [text, id]);
  } else {
    const seq = (db.get<{ n: number | null }>('SELECT MAX(seq) AS n FROM session_turns WHERE session_key = ?', [sessionKey])?.n ?? -1) + 1;
    db.run('INSERT INTO session_turns (id, session_key, seq, role, text, created_at) VALUES (?, ?, ?, ?, ?, ?)', [id, sessionKey, seq, TURN_BLOCK_ROLE, text, fallbackAt]);
  }
  const fresh = turns.slice(before);
  const prompts = fresh.filter((t) => t.role === 'user').length;
  const last = [...fresh].reverse().find((t) => t.timestamp)?.timestamp ?? fallbackAt;
  db.run('UPDATE sessions SET prompt_count = prompt_count + ?, last_activity_at = ?, updated_at = ? WHERE session_key = ?', [prompts, last, last, sessionKey]);
  return fresh.length;
}

export interface StoredTurn { readonly session_key: string; readonly role: string; readonly text: string; readonly created_at: string }

/** A session's turns in order, block rows expanded (all sessions when sessionKey is undefined). */
export function expandTurns(db: SqlReader, sessionKey?: string): StoredTurn[] {
  const rows = sessionKey === undefined
    ? db.all<StoredTurn>('SELECT session_key, role, text, created_at FROM session_turns ORDER BY session_key, seq')
    : db.all<StoredTurn>('SELECT session_key, role, text, created_at FROM session_turns WHERE session_key = ? ORDER BY seq', [sessionKey]);
  return rows.flatMap((r) => {
    if (r.role !== TURN_BLOCK_ROLE) return [r];
    return r.text.split('\n').filter(Boolean).map((line) => {
      const [role, text, at] = JSON.parse(line) as [string, string, string?];
      return { session_key: r.session_key, role, text, created_at: at ?? r.created_at };
    });
  });
}

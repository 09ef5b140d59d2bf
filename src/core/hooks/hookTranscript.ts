import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseTranscript } from '../capture/transcriptFormat';
import { clipTurn, isoOrUndefined, isRecord } from '../capture/transcriptTypes';
import type { TranscriptTurn } from '../capture/transcriptTypes';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * Reads a hook's transcript from where the last call stopped (docs/agents.md, "Transcripts"): a
 * cursor per transcript file (byte offset of the complete lines read, the hash of the first line
 * as the file's identity) kept in the store's meta table, so each turn is read once. A file that
 * shrank or whose first line changed was rewritten under us (compaction, a new session in the same
 * file): it is read again from the start, and the per-turn ledger of agent capture keeps turns
 * already captured from being captured twice. Formats: Claude Code JSONL, Copilot's event JSONL
 * (`{type: "user.message", data: {content}}`), the generic JSONL, and VS Code's chat JSON (read
 * whole each time).
 */
export interface TranscriptCursor {
  readonly identity: string;
  readonly offset: number;
  readonly lines: number;
}

export interface TranscriptRead {
  readonly turns: TranscriptTurn[];
  readonly cursor: TranscriptCursor;
  readonly rewritten: boolean;
  readonly format: string;
}

export const CURSOR_PREFIX = 'agent.cursor:';
export const cursorKey = (path: string): string => `${CURSOR_PREFIX}${createHash('sha256').update(path).digest('hex').slice(0, 32)}`;

export function readCursor(db: SqlReader, path: string): TranscriptCursor | undefined {
  const row = db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [cursorKey(path)]);
  if (!row) return undefined;
  try {
    const v = JSON.parse(row.value) as Partial<TranscriptCursor>;
    return typeof v.identity === 'string' && typeof v.offset === 'number' && typeof v.lines === 'number' ? { identity: v.identity, offset: v.offset, lines: v.lines } : undefined;
  } catch { return undefined; }
}

export function writeCursor(db: SqlWriter, path: string, c: TranscriptCursor): void {
  db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [cursorKey(path), JSON.stringify(c)]);
}

const COPILOT_ROLES: Readonly<Record<string, TranscriptTurn['role']>> = { 'user.message': 'user', 'assistant.message': 'assistant', 'tool.execution_start': 'tool', 'tool.execution_complete': 'tool' };

/** Copilot's session event log: one `{type, data, id?, timestamp?}` a line. */
function parseCopilotEvents(text: string, firstLineNo: number, maxTurnChars: number): TranscriptTurn[] {
  const out: TranscriptTurn[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let o: unknown;
    try { o = JSON.parse(line); } catch { return; }
    if (!isRecord(o) || typeof o.type !== 'string') return;
    const role = COPILOT_ROLES[o.type];
    if (!role) return;
    const data = isRecord(o.data) ? o.data : {};
    let body = typeof data.content === 'string' ? data.content : typeof data.text === 'string' ? data.text : '';
    const toolName = typeof data.toolName === 'string' ? data.toolName : typeof data.name === 'string' ? data.name : undefined;
    if (role === 'tool' && o.type === 'tool.execution_start' && toolName) body = `${toolName} ${JSON.stringify(data.arguments ?? data.input ?? {})}`;
    else if (role === 'tool' && typeof data.result === 'string') body = data.result;
    if (!body.trim()) return;
    const ts = isoOrUndefined(o.timestamp);
    out.push({ role, text: clipTurn(body, maxTurnChars), key: typeof o.id === 'string' && o.id ? o.id : `line-${firstLineNo + i}`, ...(ts ? { timestamp: ts } : {}), ...(toolName ? { toolName } : {}) });
  });
  return out;
}

function looksCopilot(firstLine: string): boolean {
  try {
    const o = JSON.parse(firstLine) as unknown;
    return isRecord(o) && typeof o.type === 'string' && /^[a-z_]+\.[a-z_]+$/.test(o.type);
  } catch { return false; }
}

/** The file's size and first 64 KB (identity and format come from the head, never the tail). */
function headOf(path: string): { size: number; head: string } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(size, 64 * 1024));
    readSync(fd, buf, 0, buf.length, 0);
    return { size, head: buf.toString('utf8') };
  } finally { closeSync(fd); }
}

/** The bytes of `path` from `offset` to its end. */
function readFrom(path: string, offset: number): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - offset));
    readSync(fd, buf, 0, buf.length, offset);
    return buf.toString('utf8');
  } finally { closeSync(fd); }
}

/**
 * The turns added to `path` since `cursor`. Only complete lines are read (a line being written
 * waits for the next call). Throws when the file is missing or unreadable (the caller logs it).
 */
export function readNewTurns(path: string, cursor: TranscriptCursor | undefined, maxTurnChars: number): TranscriptRead {
  const probe = headOf(path);
  const firstLine = probe.head.split(/\r?\n/, 1)[0] ?? '';
  const identity = createHash('sha256').update(firstLine.trim()).digest('hex').slice(0, 16);
  const rewritten = cursor !== undefined && (cursor.identity !== identity || cursor.offset > probe.size);
  const start = cursor && !rewritten ? cursor.offset : 0;
  const startLines = cursor && !rewritten ? cursor.lines : 0;
  const trimmedHead = probe.head.trimStart();
  // A single JSON document (VS Code's chat export): read whole every time.
  if (trimmedHead.startsWith('{') && !trimmedHead.split(/\r?\n/, 1)[0]?.trim().endsWith('}')) {
    const whole = readFrom(path, 0);
    const t = parseTranscript(whole, { maxTurnChars });
    return { turns: [...t.turns], cursor: { identity, offset: 0, lines: 0 }, rewritten, format: t.format };
  }
  const text = readFrom(path, start);
  const end = text.lastIndexOf('\n');
  if (end < 0) return { turns: [], cursor: { identity, offset: start, lines: startLines }, rewritten, format: 'unknown' };
  const complete = text.slice(0, end + 1);
  const lineCount = complete.split('\n').length - 1;
  const next: TranscriptCursor = { identity, offset: start + Buffer.byteLength(complete, 'utf8'), lines: startLines + lineCount };
  if (!complete.trim()) return { turns: [], cursor: next, rewritten, format: 'unknown' };
  if (looksCopilot(firstLine)) return { turns: parseCopilotEvents(complete, startLines + 1, maxTurnChars), cursor: next, rewritten, format: 'copilot' };
  // Claude Code / generic JSONL: the format is sniffed from the file's first lines, not the tail.
  const format = (() => {
    try { return parseTranscript(probe.head.slice(0, probe.head.lastIndexOf('\n') + 1) || probe.head, { maxTurnChars }).format; } catch { return undefined; }
  })();
  const lines = complete.split('\n');
  const turns: TranscriptTurn[] = [];
  // Parsed line by line so one bad line (a partial write, an unknown shape) skips only itself.
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const t = parseTranscript(line, { maxTurnChars, firstLineNo: startLines + i + 1, ...(format ? { format } : {}) });
      turns.push(...t.turns);
    } catch { /* not a turn line */ }
  });
  return { turns, cursor: next, rewritten, format: format ?? 'unknown' };
}

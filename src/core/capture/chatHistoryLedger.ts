import { createHash } from 'node:crypto';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * How far the VS Code chat-history follower has read each session log, kept in the store's meta
 * table (key `capture.chatHistory:<hash of the path>`) so it survives window reloads and travels
 * with the journal like the import folder's ledger (importLedger.ts). `done` holds the request ids
 * already handed to capture: a rewritten (compacted) log is replayed from the start, and these
 * keep its requests from being captured twice.
 */
export interface ChatLogCursor {
  /** Hash of the log's first line and its byte length: a rewrite changes them. */
  readonly identity: string;
  readonly firstLineLength: number;
  /** Byte length of the complete lines applied. */
  readonly offset: number;
  readonly done: readonly string[];
}

export const CHAT_HISTORY_PREFIX = 'capture.chatHistory:';

export const chatCursorKey = (path: string): string => `${CHAT_HISTORY_PREFIX}${createHash('sha256').update(path).digest('hex').slice(0, 32)}`;

/** The cursor of a log, or undefined when none (or one that does not parse: the log is read again, `done` empty). */
export function readChatCursor(db: SqlReader, path: string): ChatLogCursor | undefined {
  const row = db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [chatCursorKey(path)]);
  if (!row) return undefined;
  try {
    const v = JSON.parse(row.value) as Partial<ChatLogCursor>;
    if (typeof v.identity !== 'string' || typeof v.firstLineLength !== 'number' || typeof v.offset !== 'number' || !Array.isArray(v.done)) return undefined;
    return { identity: v.identity, firstLineLength: v.firstLineLength, offset: v.offset, done: v.done.filter((d): d is string => typeof d === 'string') };
  } catch {
    return undefined;
  }
}

export function writeChatCursor(db: SqlWriter, path: string, cursor: ChatLogCursor): void {
  db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [chatCursorKey(path), JSON.stringify(cursor)]);
}

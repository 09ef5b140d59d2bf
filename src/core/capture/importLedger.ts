import { createHash } from 'node:crypto';
import type { SqlReader, SqlWriter } from '../store/storeTypes';
import { isTranscriptFormat } from './transcriptFormat';
import type { TranscriptFormat } from './transcriptTypes';

/**
 * What the watched import folder has already imported, per file, kept in the store's meta table
 * (key `capture.import:<hash of the path>`) so every window and the CLI share it and it travels
 * with the journal. For JSONL files `offset` is the byte length of the complete lines imported.
 */
export interface LedgerEntry {
  readonly path: string;
  readonly format: TranscriptFormat;
  /** Identity of the file (hash of its first line): a rewritten file starts over. */
  readonly identity: string;
  readonly sessionId: string;
  readonly offset: number;
  /** Lines before `offset` (numbering of the next line). */
  readonly lines: number;
  readonly size: number;
  readonly mtimeMs: number;
  /** Project of the file's first lines (a generic JSONL names it once). */
  readonly project?: string;
}

export const LEDGER_PREFIX = 'capture.import:';

export const ledgerKey = (path: string): string => `${LEDGER_PREFIX}${createHash('sha256').update(path).digest('hex').slice(0, 32)}`;

export function readLedger(db: SqlReader, path: string): LedgerEntry | undefined {
  const row = db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [ledgerKey(path)]);
  if (!row) return undefined;
  try {
    const v = JSON.parse(row.value) as Partial<LedgerEntry>;
    if (typeof v.path !== 'string' || typeof v.format !== 'string' || !isTranscriptFormat(v.format) || typeof v.identity !== 'string' || typeof v.sessionId !== 'string'
      || typeof v.offset !== 'number' || typeof v.lines !== 'number' || typeof v.size !== 'number' || typeof v.mtimeMs !== 'number') return undefined;
    return v as LedgerEntry;
  } catch {
    return undefined;
  }
}

export function writeLedger(db: SqlWriter, entry: LedgerEntry): void {
  db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [ledgerKey(entry.path), JSON.stringify(entry)]);
}

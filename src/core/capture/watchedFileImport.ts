import { open, stat } from 'node:fs/promises';
import type { CaptureConfig } from '../config/captureConfig';
import { decodeUtf8Strict } from '../memory/textValidation';
import type { MemoryStore } from '../store/storeTypes';
import { readLedger, writeLedger } from './importLedger';
import type { LedgerEntry } from './importLedger';
import { detectTranscriptFormat, parseTranscript } from './transcriptFormat';
import { importTranscriptInTransaction } from './transcriptImport';
import type { ImportReport, ImportTranscriptDeps } from './transcriptImport';
import { fileIdentity, invalid } from './transcriptTypes';

/**
 * One file of the watched import folder, imported incrementally: a JSONL file (Claude Code log or
 * generic transcript) from the byte offset the ledger recorded, complete lines only (a line still
 * being written waits for its newline); a VS Code export (.json) whole, when it changed. The import
 * and the ledger update are one transaction, so a crash never imports a line twice or skips one.
 */
export interface FileReader {
  stat(path: string): Promise<{ size: number; mtimeMs: number }>;
  /** Bytes [start, end) of a file. */
  read(path: string, start: number, end: number): Promise<Uint8Array>;
}

export const nodeFileReader: FileReader = {
  async stat(path) {
    const s = await stat(path);
    return { size: s.size, mtimeMs: s.mtimeMs };
  },
  async read(path, start, end) {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.alloc(Math.max(0, end - start));
      let done = 0;
      while (done < buf.length) {
        const { bytesRead } = await fh.read(buf, done, buf.length - done, start + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return buf.subarray(0, done);
    } finally {
      await fh.close();
    }
  },
};

export const WATCHED_EXTENSIONS = ['.jsonl', '.json'] as const;

export function isWatchedFile(path: string): boolean {
  const lower = path.toLowerCase();
  return WATCHED_EXTENSIONS.some((e) => lower.endsWith(e));
}

export interface WatchedImportResult {
  readonly path: string;
  /** undefined when nothing new was found. */
  readonly report: ImportReport | undefined;
  readonly fromOffset: number;
  readonly toOffset: number;
}

const NEWLINE = 0x0a;
/** Bytes of a file's head its identity is computed from (its first line, cut here if longer). */
export const IDENTITY_HEAD_BYTES = 64 * 1024;
const decoder = new TextDecoder('utf-8');

function countNewlines(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === NEWLINE) n++;
  return n;
}

export async function importWatchedFile(store: MemoryStore, path: string, deps: ImportTranscriptDeps & { readonly fs?: FileReader; readonly project?: string }, capture: CaptureConfig): Promise<WatchedImportResult> {
  const fs = deps.fs ?? nodeFileReader;
  const st = await fs.stat(path);
  if (st.size > capture.maxFileBytes) throw invalid(`${path} is larger than ${capture.maxFileBytes} bytes; not imported.`, { path, size: st.size });
  const ledger = store.read((db) => readLedger(db, path));
  const jsonl = path.toLowerCase().endsWith('.jsonl');
  if (ledger && ledger.size === st.size && ledger.mtimeMs === st.mtimeMs) return { path, report: undefined, fromOffset: ledger.offset, toOffset: ledger.offset };
  if (!jsonl) {
    const text = decodeUtf8Strict(await fs.read(path, 0, st.size), path);
    const t = parseTranscript(text, { format: 'vscode', maxTurnChars: capture.maxTurnChars });
    const entry: LedgerEntry = { path, format: 'vscode', identity: fileIdentity(text), sessionId: t.sessionId, offset: st.size, lines: 0, size: st.size, mtimeMs: st.mtimeMs };
    const report = await store.write('transcript-import', (db) => {
      const r = importTranscriptInTransaction(db, t, deps, deps.project ? { project: deps.project } : {});
      writeLedger(db, entry);
      return r;
    });
    return { path, report, fromOffset: 0, toOffset: st.size };
  }
  // A JSONL file continues from the ledger unless it shrank or its first line changed (rewritten).
  let resume = ledger !== undefined && st.size >= ledger.offset;
  if (resume && ledger) {
    const head = decoder.decode(await fs.read(path, 0, Math.min(ledger.offset, IDENTITY_HEAD_BYTES)));
    resume = fileIdentity(head) === ledger.identity;
  }
  const start = resume && ledger ? ledger.offset : 0;
  const bytes = await fs.read(path, start, st.size);
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  if (end === 0) return { path, report: undefined, fromOffset: start, toOffset: start };
  const chunk = decodeUtf8Strict(bytes.subarray(0, end), path, start);
  const firstLineNo = (resume && ledger ? ledger.lines : 0) + 1;
  const lines = firstLineNo - 1 + countNewlines(bytes.subarray(0, end));
  const base = resume && ledger ? ledger : undefined;
  const format = base?.format ?? detectTranscriptFormat(chunk);
  const identity = base?.identity ?? fileIdentity(decoder.decode(bytes.subarray(0, Math.min(end, IDENTITY_HEAD_BYTES))));
  const t = parseTranscript(chunk, { format, maxTurnChars: capture.maxTurnChars, firstLineNo, ...(base ? { fallbackSessionId: base.sessionId } : {}) });
  const project = deps.project ?? base?.project ?? t.project;
  const entry: LedgerEntry = { path, format, identity, sessionId: base?.sessionId ?? t.sessionId, offset: start + end, lines, size: st.size, mtimeMs: st.mtimeMs, ...(project ? { project } : {}) };
  const report = await store.write('transcript-import', (db) => {
    const r = t.turns.length ? importTranscriptInTransaction(db, { ...t, sessionId: entry.sessionId }, deps, { ...(project ? { project } : {}), summary: start === 0 }) : undefined;
    writeLedger(db, entry);
    return r;
  });
  return { path, report, fromOffset: start, toOffset: start + end };
}

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isoFromMs } from '../clock';
import { DEFAULT_EXTRACTION_CONFIG } from '../config/extractionConfig';
import { MemoryError } from '../errors';
import { nameKey } from '../extraction/contract';
import { decodeUtf8Strict } from '../memory/textValidation';
import { validateSessionKey } from '../sessions/sessionRecords';
import type { MemoryStore } from '../store/storeTypes';
import { memorableStatements, sessionSummaryFromParts } from './memorableTurns';
import type { MemorableStatement } from './memorableTurns';
import { detectTranscriptFormat, parseTranscript } from './transcriptFormat';
import { ensureImportedSession, finishImportedSession, importedSessionKey, importInputs, rememberInputs } from './transcriptImport';
import { recordTurnBlock } from './turnBlocks';
import type { ImportReport, ImportTranscriptDeps, ImportTranscriptOptions } from './transcriptImport';
import type { Transcript, TranscriptFormat, TranscriptTurn } from './transcriptTypes';

/**
 * Streamed import of a JSONL transcript file (docs/transcripts.md "Large transcripts"): the file is
 * read in batches of complete lines, each batch's turns are recorded in their own transaction as one
 * block row (turnBlocks.ts),
 * and only what the memories need is kept between batches (the statements, capped; the first
 * request and last answer; counts). Memory stays bounded by the batch size whatever the file's
 * length, no transaction grows with the file, and a killed import resumes: turns and memories
 * are keyed by the session and turn, so running it again adds only what is missing. The byte cap
 * (capture.maxFileBytes) is enforced on bytes read, so a pipe or a device cannot run forever.
 * A VS Code chat export is one JSON document and is not streamed (the caller reads it whole).
 */

/** Lines per batch (one write transaction each). */
export const IMPORT_BATCH_LINES = 2_000;
/** Bytes per batch, whichever limit comes first. */
export const IMPORT_BATCH_BYTES = 4 * 1024 * 1024;
const READ_CHUNK = 1 << 20;
const NEWLINE = 0x0a;

export interface StreamImportOptions extends ImportTranscriptOptions {
  readonly format?: TranscriptFormat;
  /** Lines per batch (default IMPORT_BATCH_LINES; tests use small batches). */
  readonly batchLines?: number;
  /** Called after every committed batch (lines read so far, turns recorded so far). */
  readonly onProgress?: (p: { lines: number; turnsRecorded: number; bytes: number }) => void;
}

/** Batches of whole lines from a file, with the running byte offset; a final line without a newline counts. */
function* lineBatches(fd: number, maxBytes: number, label: string, batchLines: number): Generator<{ bytes: Buffer; offset: number; lines: number }> {
  // The unfinished line is kept as a list of pieces (a file without newlines must not cost a
  // copy of everything read so far on every read).
  let carry: Buffer[] = [];
  let offset = 0;
  let total = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let pendingLines = 0;
  const flush = function* (): Generator<{ bytes: Buffer; offset: number; lines: number }> {
    if (!pendingBytes) return;
    const bytes = Buffer.concat(pending, pendingBytes);
    const batch = { bytes, offset, lines: pendingLines };
    offset += pendingBytes;
    pending = []; pendingBytes = 0; pendingLines = 0;
    yield batch;
  };
  for (;;) {
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    let n: number;
    try { n = readSync(fd, buf, 0, READ_CHUNK, null); } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      throw new MemoryError('E_NOT_FOUND', `Cannot read ${label}.`, undefined, { cause: e });
    }
    if (n === 0) break;
    total += n;
    if (total > maxBytes) throw new MemoryError('E_INVALID_INPUT', `${label} is larger than the ${maxBytes}-byte limit (or never ends)`, { limit: maxBytes });
    const data = buf.subarray(0, n);
    let start = 0;
    for (let i = data.indexOf(NEWLINE); i >= 0; i = data.indexOf(NEWLINE, start)) {
      const line = carry.length ? Buffer.concat([...carry, data.subarray(start, i + 1)]) : data.subarray(start, i + 1);
      carry = [];
      pending.push(line);
      pendingBytes += line.length;
      pendingLines++;
      start = i + 1;
      if (pendingLines >= batchLines || pendingBytes >= IMPORT_BATCH_BYTES) yield* flush();
    }
    if (start < n) carry.push(data.subarray(start));
  }
  if (carry.length) { const line = Buffer.concat(carry); pending.push(line); pendingBytes += line.length; pendingLines++; }
  yield* flush();
}

/** Whether the file starts like a VS Code chat export (one JSON document) rather than JSONL. */
function looksLikeOneDocument(firstBatch: string): boolean {
  const first = firstBatch.split(/\r?\n/).find((l) => l.trim()) ?? '';
  if (!first.trim().startsWith('{')) return false;
  try { JSON.parse(first); return false; } catch { return true; }
}

/**
 * Imports a JSONL transcript file in batches. Returns undefined (having written nothing) when the
 * file is a single JSON document, so the caller can import it whole.
 */
export async function importTranscriptFileStreamed(store: MemoryStore, path: string, deps: ImportTranscriptDeps, options: StreamImportOptions = {}): Promise<ImportReport | undefined> {
  let fd: number;
  try { fd = openSync(path, 'r'); } catch { throw new MemoryError('E_NOT_FOUND', `Cannot read ${path}.`); }
  try {
    let isDir = false;
    try { isDir = fstatSync(fd).isDirectory(); } catch { /* the read decides */ }
    if (isDir) throw new MemoryError('E_INVALID_INPUT', `${path} is a folder, not a file.`);
    const capture = deps.capture;
    const extraction = deps.extraction ?? DEFAULT_EXTRACTION_CONFIG;
    const agentId = deps.agentId ?? 'default';
    const redaction = deps.remember.redaction;
    let format: TranscriptFormat | undefined = options.format;
    let key = '';
    let sessionId = '';
    let project = options.project;
    let title: string | undefined;
    let startedAt: string | undefined;
    let lastAt: string | undefined;
    let firstUserText: string | undefined;
    let lastAnswerText: string | undefined;
    const counts: Record<TranscriptTurn['role'], number> = { user: 0, assistant: 0, tool: 0 };
    const statements: MemorableStatement[] = [];
    const seen = new Set<string>();
    let turns = 0;
    let turnsRecorded = 0;
    let lines = 0;
    let first = true;
    const batches = lineBatches(fd, capture.maxFileBytes, path, options.batchLines ?? IMPORT_BATCH_LINES);
    const next = (): IteratorResult<{ bytes: Buffer; offset: number; lines: number }> => {
      try { return batches.next(); } catch (e) {
        if (!(e instanceof MemoryError) || e.details?.limit === undefined) throw e;
        throw new MemoryError(e.code, `${e.message}; ${turnsRecorded ? `the first ${lines} lines (${turnsRecorded} turns) were recorded, the rest and the memories were not` : 'nothing was imported'}.`, e.details);
      }
    };
    for (let it = next(); !it.done; it = next()) {
      const batch = it.value;
      const text = decodeUtf8Strict(batch.bytes, path, batch.offset);
      if (first) {
        if (text.charCodeAt(0) === 0xfeff && !text.slice(1).trim()) throw new MemoryError('E_INVALID_INPUT', 'The transcript file is empty.');
        if (format === 'vscode' || (format === undefined && looksLikeOneDocument(text))) return undefined;
        format ??= detectTranscriptFormat(text);
      }
      const parsed: Transcript = parseTranscript(text, { ...(format ? { format } : {}), maxTurnChars: capture.maxTurnChars, firstLineNo: lines + 1, ...(first ? {} : { fallbackSessionId: sessionId }) });
      lines += batch.lines;
      if (first) {
        sessionId = parsed.sessionId;
        key = validateSessionKey(importedSessionKey(parsed), redaction);
        project ??= parsed.project;
        first = false;
      }
      const t: Transcript = { ...parsed, sessionId, format: parsed.format };
      title ??= t.title;
      startedAt ??= t.startedAt ?? t.turns.find((x) => x.timestamp)?.timestamp;
      for (const turn of t.turns) {
        counts[turn.role]++;
        if (turn.timestamp) lastAt = turn.timestamp;
        if (turn.role === 'user' && firstUserText === undefined) firstUserText = turn.text;
        if (turn.role === 'assistant') lastAnswerText = turn.text;
      }
      turns += t.turns.length;
      const room = capture.maxMemoriesPerTranscript - statements.length;
      if (room > 0) {
        for (const s of memorableStatements(t, capture, extraction)) {
          const k = nameKey(s.content);
          if (seen.has(k) || statements.length >= capture.maxMemoriesPerTranscript) continue;
          seen.add(k);
          statements.push(s);
        }
      }
      const at = startedAt;
      // One block row per batch, not one row per turn: the store's image grows by the text only (turnBlocks.ts).
      turnsRecorded += await store.write('transcript-import', (db) => {
        const started = ensureImportedSession(db, at ? { ...t, startedAt: at } : t, key, project, agentId, redaction);
        return recordTurnBlock(db, key, t.turns, started ?? new Date(0).toISOString(), redaction);
      });
      options.onProgress?.({ lines, turnsRecorded, bytes: batch.offset + batch.bytes.length });
    }
    if (first || !format) throw new MemoryError('E_INVALID_INPUT', 'The transcript file is empty.');
    const summary = counts.user > 0
      ? sessionSummaryFromParts({ format, ...(title ? { title } : {}), ...(startedAt ? { startedAt } : {}), counts, ...(firstUserText !== undefined ? { firstUserText } : {}), ...(lastAnswerText !== undefined ? { lastAnswerText } : {}) }, capture, project)
      : '';
    const inputs = importInputs({ format, ...(startedAt ? { startedAt } : {}) }, key, statements, summary, deps, project, options.summary !== false);
    const nowIso = isoFromMs(deps.remember.clock.now());
    const finalKey = key;
    const result = await store.write('transcript-import', (db) => {
      const remembered = rememberInputs(db, inputs, deps.remember);
      finishImportedSession(db, finalKey, summary, lastAt ?? startedAt ?? nowIso, nowIso, redaction);
      return remembered;
    });
    return { format, turns, memoriesCreated: result.memoriesCreated, duplicates: result.duplicates, sessionKey: key, turnsRecorded, memoryIds: result.memoryIds };
  } finally {
    closeSync(fd);
  }
}

import { createHash } from 'node:crypto';
import { MemoryError } from '../errors';

/**
 * The normalised transcript every importer produces: one session of another
 * agent, as ordered turns. Parsers are pure and tolerant: they skip what they do not understand
 * inside a recognised file and refuse, with a coded error naming the line or field, a file they
 * do not recognise at all.
 */
export const TRANSCRIPT_FORMATS = ['vscode', 'claude', 'jsonl'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
export type TurnRole = 'user' | 'assistant' | 'tool';

export interface TranscriptTurn {
  readonly role: TurnRole;
  readonly text: string;
  /** Stable key of the turn inside its session (the source's uuid, else `line-N` / `request-N`). */
  readonly key: string;
  /** ISO-8601 when the source has one. */
  readonly timestamp?: string;
  readonly toolName?: string;
}

export interface Transcript {
  readonly format: TranscriptFormat;
  /** The source's session id, else one derived from the file's first line (stable across appends and moves). */
  readonly sessionId: string;
  readonly project?: string;
  readonly startedAt?: string;
  /** A title the source gave the session (Claude Code summary line, VS Code custom title). */
  readonly title?: string;
  readonly turns: readonly TranscriptTurn[];
}

export interface ParseOptions {
  /** Session id when the text carries none (the watcher passes the file's identity). */
  readonly fallbackSessionId?: string;
  /** Line number of the text's first line (incremental imports of appended lines). */
  readonly firstLineNo?: number;
  /** Longest turn text kept. */
  readonly maxTurnChars: number;
}

export function invalid(message: string, details: Record<string, unknown> = {}): MemoryError {
  return new MemoryError('E_INVALID_INPUT', message, details);
}

/** A content-derived identity of a transcript file: its first non-blank line, hashed. */
export function fileIdentity(text: string): string {
  const first = text.split(/\r?\n/).find((l) => l.trim()) ?? '';
  return createHash('sha256').update(first.trim()).digest('hex').slice(0, 16);
}

/** ISO-8601 from an ISO string or epoch milliseconds; undefined when unusable. */
export function isoOrUndefined(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return new Date(v).toISOString();
  if (typeof v === 'string' && v.trim()) {
    const ms = Date.parse(v);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  return undefined;
}

/** Trims a turn's text to the configured maximum (marking the cut). */
export function clipTurn(text: string, max: number): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max)} …[truncated]` : t;
}

/** Last path segment of a working directory (POSIX or Windows), used as the project name. */
export function projectFromCwd(cwd: unknown): string | undefined {
  if (typeof cwd !== 'string' || !cwd.trim()) return undefined;
  const parts = cwd.trim().split(/[\\/]+/).filter(Boolean);
  return parts[parts.length - 1];
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Splits JSONL text into parsed lines with their numbers; a line that is not a JSON object is an error naming it. */
export function jsonlObjects(text: string, firstLineNo = 1, label = 'JSONL'): { lineNo: number; value: Record<string, unknown> }[] {
  const out: { lineNo: number; value: Record<string, unknown> }[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const lineNo = firstLineNo + i;
    let v: unknown;
    try { v = JSON.parse(line); } catch { throw invalid(`${label} line ${lineNo}: not valid JSON.`, { line: lineNo }); }
    if (!isRecord(v)) throw invalid(`${label} line ${lineNo}: expected a JSON object.`, { line: lineNo });
    out.push({ lineNo, value: v });
  });
  return out;
}

import { DEFAULT_CAPTURE_CONFIG } from '../config/captureConfig';
import { parseClaudeCodeJsonl } from './claudeCodeParser';
import { parseGenericJsonl } from './genericJsonlParser';
import { invalid, isRecord, TRANSCRIPT_FORMATS } from './transcriptTypes';
import type { ParseOptions, Transcript, TranscriptFormat } from './transcriptTypes';
import { isVsCodeChat, parseVsCodeChat } from './vscodeChatParser';

/** Lines looked at when sniffing a JSONL file's format. */
export const DETECT_SAMPLE_LINES = 20;

const CLAUDE_TYPES = new Set(['user', 'assistant', 'summary', 'system', 'file-history-snapshot', 'queue-operation', 'progress']);

function looksClaude(o: Record<string, unknown>): boolean {
  return typeof o.type === 'string' && CLAUDE_TYPES.has(o.type) && (isRecord(o.message) || typeof o.sessionId === 'string' || typeof o.leafUuid === 'string' || typeof o.summary === 'string' || typeof o.messageId === 'string');
}

const looksGeneric = (o: Record<string, unknown>): boolean => typeof o.role === 'string' && 'content' in o;

/** Recognises a transcript's format from its text; an error names what was expected when nothing fits. */
export function detectTranscriptFormat(raw: string): TranscriptFormat {
  const text = stripBom(raw);
  const trimmed = text.trim();
  if (!trimmed) throw invalid('The transcript file is empty.', { field: '$' });
  if (trimmed.startsWith('{')) {
    try {
      if (isVsCodeChat(JSON.parse(trimmed))) return 'vscode';
    } catch { /* not one JSON document: may be JSONL */ }
  }
  const lines = text.split(/\r?\n/);
  let sampled = 0;
  for (let i = 0; i < lines.length && sampled < DETECT_SAMPLE_LINES; i++) {
    const line = (lines[i] as string).trim();
    if (!line) continue;
    sampled++;
    let v: unknown;
    try { v = JSON.parse(line); } catch {
      throw invalid(`Unrecognised transcript: line ${i + 1} is not valid JSON (expected a VS Code chat export or JSONL).`, { line: i + 1 });
    }
    if (!isRecord(v)) continue;
    if (looksClaude(v)) return 'claude';
    if (looksGeneric(v)) return 'jsonl';
  }
  throw invalid("Unrecognised transcript: expected a VS Code chat export (JSON with 'requests'), a Claude Code session log (JSONL lines with 'type' and 'message') or the generic JSONL (lines with 'role' and 'content').", { field: '$' });
}

/** Files saved by some Windows editors start with a byte-order mark, which JSON.parse refuses. */
const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

export function isTranscriptFormat(v: string): v is TranscriptFormat {
  return (TRANSCRIPT_FORMATS as readonly string[]).includes(v);
}

export interface ParseTranscriptOptions extends Partial<ParseOptions> {
  /** Explicit format (skips detection). */
  readonly format?: TranscriptFormat;
}

/** Detects (unless told) and parses a transcript into the normalised shape. */
export function parseTranscript(raw: string, options: ParseTranscriptOptions = {}): Transcript {
  const text = stripBom(raw);
  const format = options.format ?? detectTranscriptFormat(text);
  const opts: ParseOptions = { maxTurnChars: options.maxTurnChars ?? DEFAULT_CAPTURE_CONFIG.maxTurnChars, ...(options.fallbackSessionId ? { fallbackSessionId: options.fallbackSessionId } : {}), ...(options.firstLineNo ? { firstLineNo: options.firstLineNo } : {}) };
  if (!text.trim()) throw invalid('The transcript file is empty.', { field: '$' });
  switch (format) {
    case 'vscode': return parseVsCodeChat(text, opts);
    case 'claude': return parseClaudeCodeJsonl(text, opts);
    case 'jsonl': return parseGenericJsonl(text, opts);
  }
}

import { clipTurn, fileIdentity, invalid, isoOrUndefined, jsonlObjects } from './transcriptTypes';
import type { ParseOptions, Transcript, TranscriptTurn, TurnRole } from './transcriptTypes';

/**
 * The documented generic transcript JSONL (docs/transcripts.md): one turn a line,
 * {role: "user" | "assistant" | "tool", content: string, timestamp?, sessionId?, project?, id?, toolName?}.
 * Unknown extra fields are ignored (forward compatible); a missing or wrong role or content is an
 * error naming the line and the field.
 */
const ROLES: readonly TurnRole[] = ['user', 'assistant', 'tool'];

export function parseGenericJsonl(text: string, options: ParseOptions): Transcript {
  const turns: TranscriptTurn[] = [];
  let sessionId: string | undefined;
  let project: string | undefined;
  let startedAt: string | undefined;
  for (const { lineNo, value: o } of jsonlObjects(text, options.firstLineNo, 'Transcript JSONL')) {
    if (typeof o.role !== 'string' || !ROLES.includes(o.role as TurnRole)) {
      throw invalid(`Transcript JSONL line ${lineNo}: 'role' must be one of ${ROLES.join(', ')}.`, { line: lineNo, field: 'role' });
    }
    if (typeof o.content !== 'string') throw invalid(`Transcript JSONL line ${lineNo}: 'content' must be text.`, { line: lineNo, field: 'content' });
    for (const k of ['timestamp', 'sessionId', 'project', 'id', 'toolName'] as const) {
      if (o[k] !== undefined && o[k] !== null && typeof o[k] !== 'string' && !(k === 'timestamp' && typeof o[k] === 'number')) {
        throw invalid(`Transcript JSONL line ${lineNo}: '${k}' must be text.`, { line: lineNo, field: k });
      }
    }
    if (sessionId === undefined && typeof o.sessionId === 'string' && o.sessionId.trim()) sessionId = o.sessionId.trim();
    if (project === undefined && typeof o.project === 'string' && o.project.trim()) project = o.project.trim();
    const timestamp = isoOrUndefined(o.timestamp);
    if (o.timestamp !== undefined && o.timestamp !== null && !timestamp) throw invalid(`Transcript JSONL line ${lineNo}: 'timestamp' is not a date.`, { line: lineNo, field: 'timestamp' });
    if (startedAt === undefined && timestamp) startedAt = timestamp;
    const textOut = clipTurn(o.content, options.maxTurnChars);
    if (!textOut) continue;
    turns.push({
      role: o.role as TurnRole, text: textOut, key: typeof o.id === 'string' && o.id ? o.id : `line-${lineNo}`,
      ...(timestamp ? { timestamp } : {}), ...(typeof o.toolName === 'string' && o.toolName ? { toolName: o.toolName } : {}),
    });
  }
  return {
    format: 'jsonl',
    sessionId: sessionId ?? options.fallbackSessionId ?? `file-${fileIdentity(text)}`,
    ...(project ? { project } : {}),
    ...(startedAt ? { startedAt } : {}),
    turns,
  };
}

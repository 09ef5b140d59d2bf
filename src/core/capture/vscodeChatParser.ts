import { clipTurn, fileIdentity, invalid, isoOrUndefined, isRecord } from './transcriptTypes';
import type { ParseOptions, Transcript, TranscriptTurn } from './transcriptTypes';

/**
 * VS Code's exported chat ("Chat: Export Chat...", IExportableChatData, and the stored
 * ISerializableChatData versions 1–3 that add sessionId, creationDate and titles):
 * {requesterUsername?, responderUsername, requests: [{message: string | {text, parts}, response:
 * [...], timestamp?, requestId?}]}. Response parts are read defensively across versions: plain
 * markdown strings {value}, {kind: 'markdownContent' | 'markdownVuln', content: {value}}, inline
 * references, tool invocations ({kind: 'toolInvocationSerialized'}) and edit groups; anything else
 * (thinking, progress, undo stops, …) is skipped.
 */
function markdownValue(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isRecord(v) && typeof v.value === 'string') return v.value;
  return undefined;
}

function uriLabel(v: unknown): string | undefined {
  if (!isRecord(v)) return undefined;
  const uri = isRecord(v.uri) ? v.uri : v;
  const path = typeof uri.path === 'string' ? uri.path : typeof uri.fsPath === 'string' ? uri.fsPath : undefined;
  return path ? path.split(/[\\/]/).filter(Boolean).pop() : undefined;
}

export function requestText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (!isRecord(message)) return '';
  if (typeof message.text === 'string' && message.text.trim()) return message.text;
  if (Array.isArray(message.parts)) return message.parts.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('');
  return typeof message.text === 'string' ? message.text : '';
}

export interface ResponsePieces { readonly text: string; readonly tools: { name: string; text: string }[] }

export function responsePieces(response: unknown): ResponsePieces {
  const items = Array.isArray(response) ? response : response === undefined || response === null ? [] : [response];
  let text = '';
  const tools: { name: string; text: string }[] = [];
  for (const item of items) {
    if (typeof item === 'string') { text += item; continue; }
    if (!isRecord(item)) continue;
    const kind = typeof item.kind === 'string' ? item.kind : undefined;
    if (kind === undefined || kind === 'markdownContent' || kind === 'markdownVuln') {
      const v = kind === undefined ? markdownValue(item) : markdownValue(item.content);
      if (v) text += v;
    } else if (kind === 'inlineReference') {
      const label = typeof item.name === 'string' ? item.name : uriLabel(item.inlineReference);
      if (label) text += `\`${label}\``;
    } else if (kind === 'toolInvocationSerialized' || kind === 'toolInvocation') {
      const name = typeof item.toolId === 'string' ? item.toolId : 'tool';
      const said = markdownValue(item.pastTenseMessage) ?? markdownValue(item.invocationMessage) ?? name;
      tools.push({ name, text: said });
    } else if (kind === 'textEditGroup') {
      const label = uriLabel(item.uri);
      if (label) tools.push({ name: 'edit', text: `edited ${label}` });
    }
  }
  return { text, tools };
}

/** Whether a parsed JSON value looks like a VS Code chat export. */
export function isVsCodeChat(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && Array.isArray(v.requests) && (typeof v.responderUsername === 'string' || typeof v.requesterUsername === 'string' || typeof v.sessionId === 'string');
}

export function parseVsCodeChat(text: string, options: ParseOptions): Transcript {
  let v: unknown;
  // JSON.parse's own message quotes the text it choked on; a file's contents never go into a
  // message that may be logged (a watched folder can hold anything), so only the fact is reported.
  try { v = JSON.parse(text); } catch {
    throw invalid('VS Code chat export: not valid JSON.', { field: '$' });
  }
  if (!isRecord(v)) throw invalid('VS Code chat export: expected a JSON object with a \'requests\' array.', { field: '$' });
  if (!Array.isArray(v.requests)) throw invalid("VS Code chat export: field 'requests' is missing or not an array.", { field: 'requests' });
  const turns: TranscriptTurn[] = [];
  let startedAt = isoOrUndefined(v.creationDate);
  v.requests.forEach((r: unknown, i: number) => {
    if (!isRecord(r)) throw invalid(`VS Code chat export: requests[${i}] is not an object.`, { field: `requests[${i}]` });
    if (r.message === undefined) throw invalid(`VS Code chat export: requests[${i}].message is missing.`, { field: `requests[${i}].message` });
    const timestamp = isoOrUndefined(r.timestamp);
    if (startedAt === undefined && timestamp) startedAt = timestamp;
    const key = typeof r.requestId === 'string' && r.requestId ? r.requestId : `request-${i}`;
    const at = timestamp ? { timestamp } : {};
    const user = clipTurn(requestText(r.message), options.maxTurnChars);
    if (user) turns.push({ role: 'user', text: user, key, ...at });
    const pieces = responsePieces(r.response);
    pieces.tools.forEach((t, k) => turns.push({ role: 'tool', toolName: t.name, text: clipTurn(t.text, options.maxTurnChars), key: `${key}#tool-${k}`, ...at }));
    const answer = clipTurn(pieces.text, options.maxTurnChars);
    if (answer) turns.push({ role: 'assistant', text: answer, key: `${key}#response`, ...at });
  });
  const title = typeof v.customTitle === 'string' && v.customTitle.trim() ? v.customTitle.trim() : typeof v.computedTitle === 'string' && v.computedTitle.trim() ? v.computedTitle.trim() : undefined;
  const sessionId = typeof v.sessionId === 'string' && v.sessionId.trim() ? v.sessionId.trim() : options.fallbackSessionId ?? `file-${vscodeIdentity(v, text)}`;
  return { format: 'vscode', sessionId, ...(startedAt ? { startedAt } : {}), ...(title ? { title } : {}), turns };
}

/** An export carries no session id: the first request's text (and time) identify it, so a later export of the same chat matches. */
function vscodeIdentity(v: Record<string, unknown>, text: string): string {
  const first = Array.isArray(v.requests) ? v.requests[0] : undefined;
  if (!isRecord(first)) return fileIdentity(text);
  return fileIdentity(JSON.stringify([requestText(first.message), first.timestamp ?? null]));
}

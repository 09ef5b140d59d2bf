import { clipTurn, fileIdentity, invalid, isoOrUndefined, isRecord, jsonlObjects, projectFromCwd } from './transcriptTypes';
import type { ParseOptions, Transcript, TranscriptTurn } from './transcriptTypes';

/**
 * Claude Code session logs (~/.claude/projects/<encoded path>/<session uuid>.jsonl): one JSON
 * object a line with a `type`. `user` / `assistant` lines carry message {role, content} where
 * content is text or blocks ({type: text | tool_use | tool_result | thinking | image}); `summary`
 * lines carry the session title. Other line types (file-history-snapshot, system, progress,
 * queue-operation, …) and unknown blocks are skipped, so newer versions still import. Sidechain
 * lines (sub-agents) and meta lines (command caveats) are not part of the conversation.
 */
const SKIPPED_USER_TEXT = /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr)>/;

function blockText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : '')).filter(Boolean).join('\n');
  return '';
}

function toolInput(input: unknown): string {
  if (input === undefined) return '';
  const s = JSON.stringify(input);
  return s === '{}' ? '' : ` ${s}`;
}

export function parseClaudeCodeJsonl(text: string, options: ParseOptions): Transcript {
  const turns: TranscriptTurn[] = [];
  const toolNames = new Map<string, string>();
  let sessionId: string | undefined;
  let project: string | undefined;
  let title: string | undefined;
  let startedAt: string | undefined;
  for (const { lineNo, value: o } of jsonlObjects(text, options.firstLineNo, 'Claude Code log')) {
    if (typeof o.type !== 'string') throw invalid(`Claude Code log line ${lineNo}: no 'type' field; this is not a Claude Code session log.`, { line: lineNo, field: 'type' });
    if (o.type === 'summary') {
      if (title === undefined && typeof o.summary === 'string' && o.summary.trim()) title = o.summary.trim();
      continue;
    }
    if (o.type !== 'user' && o.type !== 'assistant') continue;
    if (o.isSidechain === true || o.isMeta === true) continue;
    if (!isRecord(o.message)) throw invalid(`Claude Code log line ${lineNo}: 'message' must be an object.`, { line: lineNo, field: 'message' });
    const content = o.message.content;
    if (typeof content !== 'string' && !Array.isArray(content)) throw invalid(`Claude Code log line ${lineNo}: 'message.content' must be text or an array of blocks.`, { line: lineNo, field: 'message.content' });
    if (sessionId === undefined && typeof o.sessionId === 'string' && o.sessionId.trim()) sessionId = o.sessionId.trim();
    if (project === undefined) project = projectFromCwd(o.cwd);
    const timestamp = isoOrUndefined(o.timestamp);
    if (startedAt === undefined && timestamp) startedAt = timestamp;
    const base = typeof o.uuid === 'string' && o.uuid ? o.uuid : `line-${lineNo}`;
    const role = o.type;
    let n = 0;
    const push = (t: Omit<TranscriptTurn, 'key'>): void => {
      if (!t.text) return;
      n++;
      turns.push({ ...t, key: n === 1 ? base : `${base}#${n - 1}`, ...(timestamp ? { timestamp } : {}) });
    };
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    for (const b of blocks) {
      if (!isRecord(b)) continue;
      if (b.type === 'text' && typeof b.text === 'string') {
        if (role === 'user' && SKIPPED_USER_TEXT.test(b.text)) continue;
        push({ role, text: clipTurn(b.text, options.maxTurnChars) });
      } else if (b.type === 'tool_use' && typeof b.name === 'string') {
        if (typeof b.id === 'string') toolNames.set(b.id, b.name);
        push({ role: 'tool', toolName: b.name, text: clipTurn(`${b.name}${toolInput(b.input)}`, options.maxTurnChars) });
      } else if (b.type === 'tool_result') {
        const name = typeof b.tool_use_id === 'string' ? toolNames.get(b.tool_use_id) : undefined;
        push({ role: 'tool', ...(name ? { toolName: name } : {}), text: clipTurn(blockText(b.content), options.maxTurnChars) });
      }
    }
  }
  return {
    format: 'claude',
    sessionId: sessionId ?? options.fallbackSessionId ?? `file-${fileIdentity(text)}`,
    ...(project ? { project } : {}),
    ...(startedAt ? { startedAt } : {}),
    ...(title ? { title } : {}),
    turns,
  };
}

import { MemoryError } from '../errors';

/**
 * One agent hook call, normalised from the harness's own schema (docs/agents.md, "Formats"):
 * Claude Code and Copilot Chat in VS Code send snake_case fields (`hook_event_name`, `session_id`,
 * `transcript_path`); VS Code's documentation spells the common ones camelCase (`hookEventName`,
 * `sessionId`); Copilot CLI names events camelCase (`sessionStart`, `userPromptSubmitted`,
 * `agentStop`, …) with camelCase fields. Every spelling is read; the event may also come from
 * `--event`, the harness from `--harness`.
 */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd', 'PreToolUse', 'PostToolUse', 'Notification', 'SubagentStart', 'ErrorOccurred'] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];
export const HOOK_HARNESSES = ['vscode', 'claude-code', 'copilot'] as const;
export type HookHarness = (typeof HOOK_HARNESSES)[number];

/** Copilot CLI's camelCase names (and a few aliases) onto the PascalCase events. */
const ALIASES: Readonly<Record<string, HookEventName>> = {
  sessionstart: 'SessionStart', userpromptsubmit: 'UserPromptSubmit', userpromptsubmitted: 'UserPromptSubmit', stop: 'Stop', agentstop: 'Stop',
  subagentstop: 'SubagentStop', precompact: 'PreCompact', sessionend: 'SessionEnd', pretooluse: 'PreToolUse', posttooluse: 'PostToolUse',
  notification: 'Notification', subagentstart: 'SubagentStart', erroroccurred: 'ErrorOccurred',
};

export function hookEventName(raw: string): HookEventName | undefined {
  return ALIASES[raw.trim().toLowerCase().replace(/[_\-\s]/g, '')];
}

export interface HookEvent {
  readonly event: HookEventName;
  readonly harness: HookHarness;
  /** True when the harness spoke Copilot CLI's camelCase dialect (its output is read differently). */
  readonly camelCase: boolean;
  readonly sessionId: string;
  readonly transcriptPath?: string;
  readonly cwd?: string;
  readonly prompt?: string;
  /** SessionStart: startup | resume | clear | compact | new. */
  readonly source?: string;
  /** SessionEnd / Stop reason, when given. */
  readonly reason?: string;
  readonly timestampMs?: number;
}

const str = (o: Record<string, unknown>, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string' && v.trim()) return v;
  }
  return undefined;
};

/**
 * Parses stdin into a HookEvent. Throws a coded error naming what is missing; the hook command
 * logs it and answers nothing (a hook never breaks the agent).
 */
export function parseHookEvent(stdin: string, flags: { readonly event?: string; readonly harness?: string } = {}): HookEvent {
  let v: unknown;
  try { v = JSON.parse(stdin.replace(/^\uFEFF/, '')); } catch { throw new MemoryError('E_INVALID_INPUT', 'The hook payload on stdin is not JSON.'); }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new MemoryError('E_INVALID_INPUT', 'The hook payload on stdin is not a JSON object.');
  const o = v as Record<string, unknown>;
  const rawEvent = str(o, 'hook_event_name', 'hookEventName', 'event', 'eventName') ?? flags.event;
  if (!rawEvent) throw new MemoryError('E_INVALID_INPUT', 'The hook payload names no event (hook_event_name / hookEventName) and no --event was given.');
  const event = hookEventName(rawEvent);
  if (!event) throw new MemoryError('E_INVALID_INPUT', `Unknown hook event '${rawEvent.slice(0, 60)}'.`);
  const camelCase = /^[a-z]/.test(rawEvent) || (o.hook_event_name === undefined && o.session_id === undefined && typeof o.timestamp === 'number');
  const harness = flags.harness !== undefined ? hookHarness(flags.harness) : camelCase ? 'copilot' : 'claude-code';
  const cwd = str(o, 'cwd');
  const transcriptPath = str(o, 'transcript_path', 'transcriptPath');
  // Copilot CLI's older payloads carry no session id: the working folder and day stand in for it.
  const sessionId = str(o, 'session_id', 'sessionId', 'conversation_id', 'conversationId')
    ?? (transcriptPath ? `transcript:${transcriptPath}` : cwd ? `cwd:${cwd}:${new Date(typeof o.timestamp === 'number' ? o.timestamp : Date.now()).toISOString().slice(0, 10)}` : undefined);
  if (!sessionId) throw new MemoryError('E_INVALID_INPUT', 'The hook payload has no session id (session_id / sessionId), transcript path or cwd.');
  const ts = typeof o.timestamp === 'number' ? o.timestamp : typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : Number.NaN;
  const prompt = str(o, 'prompt', 'user_prompt', 'userPrompt', 'initialPrompt', 'initial_prompt');
  const source = str(o, 'source');
  const reason = str(o, 'reason', 'stopReason', 'stop_reason');
  return {
    event, harness, camelCase, sessionId: sessionId.trim(),
    ...(transcriptPath ? { transcriptPath } : {}), ...(cwd ? { cwd } : {}), ...(prompt ? { prompt } : {}),
    ...(source ? { source } : {}), ...(reason ? { reason } : {}), ...(Number.isFinite(ts) ? { timestampMs: ts } : {}),
  };
}

export function hookHarness(raw: string): HookHarness {
  const h = raw.trim().toLowerCase();
  if (h === 'claude' || h === 'claude-code' || h === 'claudecode') return 'claude-code';
  if (h === 'vscode' || h === 'vs-code' || h === 'code') return 'vscode';
  if (h === 'copilot' || h === 'copilot-cli') return 'copilot';
  throw new MemoryError('E_USAGE', `--harness must be one of ${HOOK_HARNESSES.join(', ')}.`);
}

/**
 * The harness's output for context to add: Claude Code and VS Code read
 * `hookSpecificOutput.additionalContext`; Copilot CLI's VS Code-compatible dialect reads the same,
 * its camelCase dialect a top-level `additionalContext` (older versions ignore both; docs/agents.md).
 */
export function contextOutput(e: HookEvent, text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  if (e.camelCase) return { additionalContext: text };
  return { hookSpecificOutput: { hookEventName: e.event, additionalContext: text } };
}

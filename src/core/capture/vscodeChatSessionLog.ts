import { createHash } from 'node:crypto';
import { clipTurn, isoOrUndefined, isRecord } from './transcriptTypes';
import type { TranscriptTurn } from './transcriptTypes';
import { requestText, responsePieces } from './vscodeChatParser';

/**
 * VS Code's stored chat sessions (workspaceStorage/<id>/chatSessions/<session id>.jsonl), read
 * defensively: the format is undocumented and has changed before (docs/agents.md, "VS Code chat
 * history"). The `.jsonl` is a mutation log — `{kind: 0, v}` sets the whole state, `{kind: 1, k, v}`
 * sets the value at path `k`, `{kind: 2, k, v?, i?}` truncates the array at `k` to `i` (when given)
 * and pushes `v`, `{kind: 3, k}` deletes at `k` — and VS Code rewrites it as one `kind: 0` line
 * after enough entries. Older versions wrote the whole state as one `.json` object. Nothing here
 * throws on content: an unknown line, mutation or request is skipped and counted.
 */

export interface ChatLogSkips {
  /** Lines that are not a JSON object. */
  lines: number;
  /** Mutations of an unknown kind, with a bad path, or before any initial state. */
  mutations: number;
  /** Requests without a usable shape (no id and no message). */
  requests: number;
}

export const emptySkips = (): ChatLogSkips => ({ lines: 0, mutations: 0, requests: 0 });

type Path = readonly (string | number)[];

const isPath = (k: unknown): k is Path => Array.isArray(k) && k.length > 0 && k.every((p) => typeof p === 'string' || (typeof p === 'number' && Number.isInteger(p) && p >= 0));

/** Walks to the container of the path's last step; undefined when a step is missing. */
function containerOf(root: Record<string, unknown>, k: Path): Record<string | number, unknown> | undefined {
  let cur: unknown = root;
  for (let n = 0; n < k.length - 1; n++) {
    if (!isRecord(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Record<string | number, unknown>)[k[n] as string];
  }
  return isRecord(cur) || Array.isArray(cur) ? (cur as Record<string | number, unknown>) : undefined;
}

/** The replayed state of one session log; feed it complete lines in order. */
export class ChatSessionLogReplay {
  private current: Record<string, unknown> | undefined;
  readonly skips: ChatLogSkips = emptySkips();
  /** Entries applied since the last initial state. */
  entries = 0;

  get state(): Record<string, unknown> | undefined { return this.current; }

  /** Applies every complete line of `text` (a trailing partial line must not be passed). */
  applyLines(text: string): void {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let v: unknown;
      try { v = JSON.parse(line); } catch { this.skips.lines++; continue; }
      if (!isRecord(v)) { this.skips.lines++; continue; }
      this.apply(v);
    }
  }

  apply(e: Record<string, unknown>): void {
    if (e.kind === 0) {
      if (isRecord(e.v)) { this.current = structuredClone(e.v); this.entries = 1; } else this.skips.mutations++;
      return;
    }
    const root = this.current;
    if (!root || !isPath(e.k) || (e.kind !== 1 && e.kind !== 2 && e.kind !== 3)) { this.skips.mutations++; return; }
    const parent = containerOf(root, e.k);
    if (!parent) { this.skips.mutations++; return; }
    const last = e.k[e.k.length - 1] as string;
    if (e.kind === 1) parent[last] = e.v;
    else if (e.kind === 3) delete parent[last];
    else {
      const existing = parent[last];
      const arr = Array.isArray(existing) ? existing : [];
      if (existing !== undefined && !Array.isArray(existing)) { this.skips.mutations++; return; }
      if (e.i !== undefined) {
        if (typeof e.i !== 'number' || !Number.isInteger(e.i) || e.i < 0) { this.skips.mutations++; return; }
        arr.length = Math.min(arr.length, e.i);
      }
      if (e.v !== undefined) {
        if (!Array.isArray(e.v)) { this.skips.mutations++; return; }
        arr.push(...(e.v as unknown[]));
      }
      parent[last] = arr;
    }
    this.entries++;
  }
}

/** One request of a stored session, as much of it as could be read. */
export interface ChatSessionRequest {
  readonly requestId: string;
  readonly index: number;
  readonly userText: string;
  /** The participant that answered (e.g. `github.copilot.editsAgent`, `agent-memory.memory`). */
  readonly agentId?: string;
  readonly modeId?: string;
  readonly modelId?: string;
  readonly timestamp?: string;
  readonly responseText: string;
  readonly tools: readonly { name: string; text: string }[];
  /** The response is finished (complete, cancelled or failed), or a later request exists. */
  readonly complete: boolean;
  /** Made by VS Code itself or hidden from the transcript: not the user's words. */
  readonly systemInitiated: boolean;
}

export interface ChatSessionView {
  readonly sessionId?: string;
  readonly title?: string;
  readonly creationDate?: string;
  readonly requests: readonly ChatSessionRequest[];
}

function modeIdOf(v: unknown): string | undefined {
  if (!isRecord(v)) return undefined;
  for (const k of ['modeId', 'kind', 'telemetryModeId', 'id']) if (typeof v[k] === 'string' && v[k]) return v[k];
  return undefined;
}

/**
 * The requests of a replayed (or whole-file `.json`) session; unusable requests are counted in
 * `skips`. `finished`: every request counts as complete (an old whole-file session is no longer
 * written, and its requests may carry no result).
 */
export function chatSessionView(state: unknown, skips: ChatLogSkips, finished = false): ChatSessionView {
  if (!isRecord(state)) return { requests: [] };
  const raw = Array.isArray(state.requests) ? state.requests : [];
  const requests: ChatSessionRequest[] = [];
  raw.forEach((r: unknown, index: number) => {
    if (!isRecord(r) || (r.message === undefined && typeof r.requestId !== 'string')) { skips.requests++; return; }
    const requestId = typeof r.requestId === 'string' && r.requestId ? r.requestId : `request-${index}`;
    const pieces = responsePieces(r.response);
    const modelState = isRecord(r.modelState) ? r.modelState.value : undefined;
    const complete = finished || (typeof modelState === 'number' && modelState !== 0) || r.result !== undefined || index < raw.length - 1;
    const agentId = isRecord(r.agent) && typeof r.agent.id === 'string' ? r.agent.id : undefined;
    const timestamp = isoOrUndefined(r.timestamp);
    requests.push({
      requestId, index, userText: requestText(r.message),
      ...(agentId ? { agentId } : {}),
      ...(modeIdOf(r.modeInfo) ? { modeId: modeIdOf(r.modeInfo) } : {}),
      ...(typeof r.modelId === 'string' ? { modelId: r.modelId } : {}),
      ...(timestamp ? { timestamp } : {}),
      responseText: pieces.text, tools: pieces.tools, complete,
      systemInitiated: r.isSystemInitiated === true || r.hiddenFromTranscript === true || r.requestHiddenFromTranscript === true,
    });
  });
  const title = typeof state.customTitle === 'string' && state.customTitle.trim() ? state.customTitle.trim() : undefined;
  const creationDate = isoOrUndefined(state.creationDate);
  return {
    ...(typeof state.sessionId === 'string' && state.sessionId ? { sessionId: state.sessionId } : {}),
    ...(title ? { title } : {}), ...(creationDate ? { creationDate } : {}), requests,
  };
}

export interface TurnsOptions {
  readonly maxTurnChars: number;
  /** Participants whose requests are captured elsewhere (our own `@memory`). */
  readonly skipAgents?: ReadonlySet<string>;
  /** Names the user types to address a skipped participant (`memory` for `@memory`). */
  readonly skipMentions?: readonly string[];
  /** Turn keys (and skipped request ids) already handed over. */
  readonly done?: ReadonlySet<string>;
}

export interface RequestTurns {
  readonly requestId: string;
  readonly turns: readonly TranscriptTurn[];
  /** Keys to remember as handed over: the turns', or the request id of a skipped request. */
  readonly keys: readonly string[];
}

/**
 * The turns not yet handed over: the user's message as soon as the request is logged (key = the
 * request id; the message is final once sent), tool invocations and the answer (`<id>#response`)
 * once the request finished. Requests to a skipped participant and system requests yield nothing.
 */
export function newRequestTurns(view: ChatSessionView, options: TurnsOptions): { ready: RequestTurns[]; skippedOwn: number } {
  const ready: RequestTurns[] = [];
  let skippedOwn = 0;
  const done = options.done ?? new Set<string>();
  const mentions = (options.skipMentions ?? []).map((m) => new RegExp(`^\\s*@${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i'));
  for (const r of view.requests) {
    if (done.has(r.requestId)) continue;
    if (r.systemInitiated || (r.agentId && options.skipAgents?.has(r.agentId)) || mentions.some((m) => m.test(r.userText))) {
      skippedOwn++;
      ready.push({ requestId: r.requestId, turns: [], keys: [r.requestId] });
      continue;
    }
    const at = r.timestamp ? { timestamp: r.timestamp } : {};
    const turns: TranscriptTurn[] = [];
    const user = clipTurn(r.userText, options.maxTurnChars);
    const userKey = `${r.requestId}#user`;
    if (user && !done.has(userKey)) turns.push({ role: 'user', text: user, key: r.requestId, ...at });
    const keys = user && !done.has(userKey) ? [userKey] : [];
    if (r.complete && !done.has(`${r.requestId}#response`)) {
      r.tools.forEach((t, k) => turns.push({ role: 'tool', toolName: t.name, text: clipTurn(t.text, options.maxTurnChars), key: `${r.requestId}#tool-${k}`, ...at }));
      const answer = clipTurn(r.responseText, options.maxTurnChars);
      if (answer) turns.push({ role: 'assistant', text: answer, key: `${r.requestId}#response`, ...at });
      keys.push(`${r.requestId}#response`);
    }
    if (keys.length) ready.push({ requestId: r.requestId, turns, keys });
  }
  return { ready, skippedOwn };
}

/** Identity of a log's content: its first line, hashed (a rewrite changes it). */
export function firstLineIdentity(firstLine: string): string {
  return createHash('sha256').update(firstLine).digest('hex').slice(0, 16);
}

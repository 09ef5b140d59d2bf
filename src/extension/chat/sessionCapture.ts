/**
 * Captures @memory conversations and language-model tool calls as sessions (the feedback loop's
 * input): one session per chat conversation (its key travels in the chat result metadata), one
 * per window for tool calls. Off in untrusted workspaces and when agentMemory.capture.enabled is
 * false. Capture never fails a chat answer: errors are logged.
 */
import * as vscode from 'vscode';
import { userMessage } from '../../core/errors';
import { getSession } from '../../core/sessions/sessionRecords';
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import type { Services } from '../host/services';
import type { StartMemory } from './sessionStartContext';

export const CHAT_HARNESS = 'vscode-chat';
export const TOOLS_HARNESS = 'vscode-lm-tools';

export interface MemoryChatMetadata {
  readonly command: string;
  readonly sessionKey?: string;
  readonly query?: string;
  readonly empty?: boolean;
  /** Ids of the session-start memories this answer delivered (first answer of a session only). */
  readonly sessionStart?: readonly string[];
  /** Memories the answer cited ([n]; else the first it listed): what a 👍 / 👎 speaks about (chatFeedback.ts). */
  readonly cited?: readonly string[];
}

/**
 * The session a request belongs to. `startMemories` holds what the session start injected (and
 * recorded as injected) when this request started the session, else nothing: the caller must
 * deliver them with this answer, once.
 */
export interface CapturedSession {
  readonly key: string;
  readonly startMemories: readonly StartMemory[];
}

/** The session key of the latest @memory answer in this conversation, if any. */
export function sessionKeyFromHistory(history: vscode.ChatContext['history'], participantId: string): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (turn instanceof vscode.ChatResponseTurn && turn.participant === participantId) {
      const key = (turn.result.metadata as Partial<MemoryChatMetadata> | undefined)?.sessionKey;
      if (typeof key === 'string' && key) return key;
    }
  }
  return undefined;
}

export class SessionCapture {
  private toolSessionKey: string | undefined;

  constructor(private readonly services: Services) {}

  /** The session for a chat request: the conversation's own while it is active, else a new one. */
  async chatSession(rt: MemoryEngine, previousKey: string | undefined, prompt: string): Promise<CapturedSession | undefined> {
    if (!this.services.captureEnabled()) return undefined;
    return this.activeOrStart(rt, previousKey, CHAT_HARNESS, prompt);
  }

  async toolSession(rt: MemoryEngine): Promise<CapturedSession | undefined> {
    if (!this.services.captureEnabled()) return undefined;
    const session = await this.activeOrStart(rt, this.toolSessionKey, TOOLS_HARNESS, undefined);
    this.toolSessionKey = session?.key;
    return session;
  }

  async turn(rt: MemoryEngine, key: string | undefined, role: 'user' | 'assistant' | 'tool', text: string): Promise<void> {
    if (!key || !text.trim()) return;
    try {
      await rt.loop.sessions.turn(key, role, text);
    } catch (e) {
      this.services.logger.warn(`session ${key}: could not record a ${role} turn (${userMessage(e)})`);
    }
  }

  private async activeOrStart(rt: MemoryEngine, key: string | undefined, harness: string, query: string | undefined): Promise<CapturedSession | undefined> {
    try {
      if (key && rt.store.read((db) => getSession(db, key))?.status === 'active') return { key, startMemories: [] };
      const started = await rt.loop.sessions.start({ harness, project: vscode.workspace.name ?? null, ...(query ? { query } : {}) });
      this.services.logger.debug(`session ${started.sessionKey} started (${harness}); ${started.injected.length} memories injected at start`);
      return { key: started.sessionKey, startMemories: started.created ? started.injected.map((m) => ({ id: m.id, content: m.content })) : [] };
    } catch (e) {
      this.services.logger.warn(`could not start a ${harness} session (${userMessage(e)}); this exchange is not captured`);
      return undefined;
    }
  }
}

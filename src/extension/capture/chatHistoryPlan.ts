/**
 * The chat-history follower's decisions, free of `vscode` so they are unit-tested: whether to
 * follow (agentMemory.capture.chatHistory, capture allowed, an open engine, a chat-session folder),
 * where VS Code keeps this window's chat sessions, and the core follower wired to the engine's
 * agent capture (harness `vscode-chat-history`, docs/agents.md "VS Code chat history").
 */
import { dirname, join } from 'node:path';
import { ChatHistoryFollower } from '../../core/capture/chatHistoryFollower';
import type { ChatHistoryBatch } from '../../core/capture/chatHistoryFollower';
import { readChatCursor, writeChatCursor } from '../../core/capture/chatHistoryLedger';
import type { AgentCaptureReport } from '../../core/capture/agentCaptureTypes';
import type { MemorySettings } from '../../core/config/memorySettings';
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import type { Logger } from '../../core/logger';
import type { MemoryStore } from '../../core/store/storeTypes';

export const CHAT_HISTORY_HARNESS = 'vscode-chat-history';

/** Our own participant: its requests are captured by chat/sessionCapture.ts already. */
export const OWN_PARTICIPANTS: ReadonlySet<string> = new Set(['agent-memory.memory']);

/**
 * The folder of this window's chat sessions. VS Code keeps them beside the extensions' workspace
 * storage (`workspaceStorage/<id>/chatSessions`; `storageUri` is `workspaceStorage/<id>/<extension>`),
 * and those of a window without a folder in `globalStorage/emptyWindowChatSessions`.
 */
export function chatSessionsFolder(storageDir: string | undefined, globalStorageDir: string): string {
  return storageDir ? join(dirname(storageDir), 'chatSessions') : join(dirname(globalStorageDir), 'emptyWindowChatSessions');
}

export interface ChatHistoryTarget {
  readonly folder: string;
  readonly rt: MemoryEngine<MemoryStore>;
  /** Changes when a capture setting changes (the follower is then rebuilt). */
  readonly key: string;
}

/** What to follow now, or undefined (setting off, capture not allowed, no engine open). */
export function chatHistoryTarget(settings: MemorySettings, captureAllowed: boolean, rt: MemoryEngine<MemoryStore> | undefined, folder: string): ChatHistoryTarget | undefined {
  return settings.capture.chatHistory && captureAllowed && rt ? { folder, rt, key: JSON.stringify([settings.capture, folder]) } : undefined;
}

export interface ChatHistoryContext {
  /** The workspace folder the chats ran in (checked against the excluded paths). */
  readonly workspace?: string;
  readonly project?: string;
  readonly trusted: boolean;
  readonly onCaptured?: (report: AgentCaptureReport, batch: ChatHistoryBatch) => void;
}

/** The follower for a target: cursors in the store's meta table, turns into the engine's agent capture. */
export function createChatHistoryFollower(target: ChatHistoryTarget, settings: MemorySettings, ctx: ChatHistoryContext, logger: Logger): ChatHistoryFollower {
  const { rt } = target;
  return new ChatHistoryFollower({
    folder: target.folder, maxTurnChars: settings.capture.maxTurnChars, skipAgents: OWN_PARTICIPANTS, skipMentions: ['memory'], logger,
    cursors: {
      get: (path) => rt.store.read((db) => readChatCursor(db, path)),
      set: (path, cursor) => rt.store.write('chat-history-cursor', (db) => writeChatCursor(db, path, cursor)),
    },
    capture: async (batch) => {
      const report = await rt.captureTurns({
        harness: CHAT_HISTORY_HARNESS, sessionId: batch.sessionId, turns: batch.turns, trusted: ctx.trusted,
        ...(ctx.workspace ? { workspace: ctx.workspace } : {}), ...(ctx.project ? { project: ctx.project } : {}),
      });
      ctx.onCaptured?.(report, batch);
    },
  });
}

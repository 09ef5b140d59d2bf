/**
 * Explicit user actions on @memory answers, handed to the engine's feedback (userFeedback.ts;
 * docs/feedback.md): 👍 / 👎 on an answer (the chat participant's onDidReceiveFeedback) speaks
 * about the memories the answer cited, and opening a memory an answer showed (its reference,
 * agent-memory:/memory/<id>.md) counts as using it. Only answers captured as a session (capture on,
 * trusted workspace) give feedback; errors are logged, never shown.
 */
import * as vscode from 'vscode';
import { userMessage } from '../../core/errors';
import type { UserFeedbackAction } from '../../core/feedback/userFeedback';
import { MEMORY_SCHEME } from '../documents/memoryDocuments';
import type { Services } from '../host/services';
import type { MemoryChatMetadata } from './sessionCapture';

/** How many shown memories are remembered for "opened" (the latest answers' ones). */
const SHOWN_CAP = 500;

/** The memory id of an agent-memory:/memory/<id>.md document, if it is one. */
export function memoryIdOfUri(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== MEMORY_SCHEME) return undefined;
  const m = /^\/memory\/([^/]+)\.md$/.exec(uri.path);
  return m ? decodeURIComponent(m[1] as string) : undefined;
}

export class ChatFeedback implements vscode.Disposable {
  /** Memory id → the session of the latest answer that showed it. */
  private readonly shown = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly services: Services) {
    this.disposables.push(vscode.workspace.onDidOpenTextDocument((doc) => { void this.opened(doc.uri); }));
  }

  /** Remembers which session showed these memories (newest wins). */
  noteShown(sessionKey: string | undefined, ids: readonly string[]): void {
    if (!sessionKey) return;
    for (const id of ids) { this.shown.delete(id); this.shown.set(id, sessionKey); }
    while (this.shown.size > SHOWN_CAP) this.shown.delete(this.shown.keys().next().value as string);
  }

  /** 👍 / 👎 on an answer. */
  async received(feedback: vscode.ChatResultFeedback): Promise<void> {
    const meta = feedback.result.metadata as Partial<MemoryChatMetadata> | undefined;
    if (!meta?.sessionKey || !meta.cited?.length) return;
    await this.apply(meta.sessionKey, [...meta.cited], feedback.kind === vscode.ChatResultFeedbackKind.Helpful ? 'helpful' : 'unhelpful');
  }

  private async opened(uri: vscode.Uri): Promise<void> {
    const id = memoryIdOfUri(uri);
    const key = id === undefined ? undefined : this.shown.get(id);
    if (id === undefined || key === undefined) return;
    this.shown.delete(id); // once per answer: reopening the same document is not more evidence
    await this.apply(key, [id], 'opened');
  }

  private async apply(sessionKey: string, memoryIds: string[], action: UserFeedbackAction): Promise<void> {
    try {
      const rt = await this.services.runtime();
      await rt.loop.sessions.userFeedback({ sessionKey, memoryIds, action });
    } catch (e) {
      this.services.logger.warn(`@memory feedback (${action}) was not recorded: ${userMessage(e)}`);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.shown.clear();
  }
}

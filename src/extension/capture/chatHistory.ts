/**
 * The VS Code chat-history follower (agentMemory.capture.chatHistory, off by default): follows the
 * chat-session logs VS Code writes for this window and hands finished requests of every participant
 * and mode (ours excepted) to the engine's agent capture. VS Code supplies the file watching; the
 * core ChatHistoryFollower does the reading (docs/agents.md, "VS Code chat history"). Runs only in
 * a trusted workspace with capture enabled; restarts when the setting, trust or the runtime changes.
 */
import * as vscode from 'vscode';
import type { ChatHistoryFollower, ChatHistoryStats } from '../../core/capture/chatHistoryFollower';
import { userMessage } from '../../core/errors';
import type { Services } from '../host/services';
import { chatHistoryTarget, chatSessionsFolder, createChatHistoryFollower } from './chatHistoryPlan';
import type { ChatHistoryTarget } from './chatHistoryPlan';

/** Interval of the fallback rescan of the chat-session folder. */
export const POLL_MS = 5_000;

export class ChatHistory implements vscode.Disposable {
  private running: { key: string; rt: ChatHistoryTarget['rt']; follower: ChatHistoryFollower; subs: vscode.Disposable[] } | undefined;
  readonly folder: string;

  constructor(private readonly services: Services) {
    this.folder = chatSessionsFolder(services.context.storageUri?.fsPath, services.context.globalStorageUri.fsPath);
  }

  /** What the follower did in this window (undefined while it is off). */
  stats(): ChatHistoryStats | undefined { return this.running?.follower.stats; }

  /** Resolves when the follower has read everything it was told about (tests, Show Status). */
  async idle(): Promise<void> { await this.running?.follower.idle(); }

  /** Reads every log of the folder now (a missed watcher event, a test). */
  async rescan(): Promise<void> { await this.running?.follower.scanAll(); }

  /** Starts, restarts or stops following to match the settings, trust and the open runtime. */
  async sync(): Promise<void> {
    const settings = this.services.settings();
    const wanted = chatHistoryTarget(settings, this.services.captureEnabled(), this.services.current(), this.folder);
    if (this.running && wanted && this.running.key === wanted.key && this.running.rt === wanted.rt) return;
    this.stop();
    if (!wanted) return;
    const ws = vscode.workspace.workspaceFolders?.[0];
    const follower = createChatHistoryFollower(wanted, settings, {
      trusted: vscode.workspace.isTrusted,
      ...(ws ? { workspace: ws.uri.fsPath } : {}), ...(vscode.workspace.name ? { project: vscode.workspace.name } : {}),
      onCaptured: (r, b) => this.services.logger.debug(`chat history: session ${b.sessionId}: ${r.newTurns} new turns, ${r.stored} stored, ${r.confirmed} confirmed`),
    }, this.services.host.logger);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(this.folder), '*.{jsonl,json}'));
    const changed = (u: vscode.Uri): void => { void follower.fileChanged(u.fsPath); };
    // The folder may not exist before the first chat, and watchers outside the workspace may miss
    // events: a slow poll (a directory listing and one stat per log) catches what they miss.
    const poll = setInterval(() => { void follower.scanAll(); }, POLL_MS);
    const subs: vscode.Disposable[] = [watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), { dispose: () => clearInterval(poll) }];
    this.running = { key: wanted.key, rt: wanted.rt, follower, subs };
    this.services.logger.info(`following this workspace's chat history in ${this.folder}`);
    await follower.scanAll();
  }

  stop(): void {
    if (!this.running) return;
    for (const s of this.running.subs) s.dispose();
    this.running.follower.dispose();
    this.running = undefined;
  }

  dispose(): void { this.stop(); }
}

export function registerChatHistory(context: vscode.ExtensionContext, services: Services): ChatHistory {
  const history = new ChatHistory(services);
  const sync = (): void => { void history.sync().catch((e: unknown) => services.logger.warn(`chat history: ${userMessage(e)}`)); };
  context.subscriptions.push(
    history,
    services.onDidOpenRuntime(sync),
    vscode.workspace.onDidGrantWorkspaceTrust(sync),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('agentMemory.capture')) sync(); }),
  );
  return history;
}

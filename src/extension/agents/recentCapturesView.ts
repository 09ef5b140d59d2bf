/**
 * The Recently Captured view (Memory container): memories captured from agents (hooks, VS Code
 * chat history), newest first, each with its agent, session and time; Forget removes one, Wrong
 * or Outdated retires it keeping its history and lowers the aspects it supported
 * (core/capture/captureCorrection.ts). Both go through actions/memoryActions.ts, like `@memory`'s
 * forget and the Knowledge panel's Captured tab. Refreshes on store changes.
 */
import * as vscode from 'vscode';
import type { CapturedMemory } from '../../core/capture/agentCaptureTypes';
import { forget, markWrong } from '../actions/memoryActions';
import { registerSafe } from '../commands/commandUtil';
import type { Services } from '../host/services';
import { harnessLabel } from './agentStatusText';

export const RECENT_CAPTURES_VIEW = 'agentMemory.recentCaptures';
/** Most captured memories listed. */
export const RECENT_CAPTURES_LIMIT = 100;

const shortTime = (iso: string): string => iso.replace('T', ' ').slice(0, 16);

export class RecentCapturesProvider implements vscode.TreeDataProvider<CapturedMemory> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly services: Services) {}

  refresh(): void { this.changed.fire(); }

  async getChildren(element?: CapturedMemory): Promise<CapturedMemory[]> {
    if (element) return [];
    const rt = this.services.current();
    if (!rt) return [];
    return (await rt.recentCaptures({ limit: RECENT_CAPTURES_LIMIT })).filter((m) => m.status === 'active');
  }

  getTreeItem(m: CapturedMemory): vscode.TreeItem {
    const item = new vscode.TreeItem(m.content.length > 90 ? `${m.content.slice(0, 89)}…` : m.content, vscode.TreeItemCollapsibleState.None);
    item.id = m.id;
    item.description = `${harnessLabel(m.harness)} · ${shortTime(m.capturedAt)}`;
    item.tooltip = new vscode.MarkdownString().appendText(m.content).appendMarkdown(`\n\n---\n\n`)
      .appendText(`From ${harnessLabel(m.harness)}, session ${m.sessionId} (turn ${m.turnKey}), captured ${shortTime(m.capturedAt)} UTC${m.project ? `, project ${m.project}` : ''}`);
    item.contextValue = 'capturedMemory';
    item.iconPath = new vscode.ThemeIcon('history');
    return item;
  }

  dispose(): void { this.changed.dispose(); }
}

const idOf = (arg: unknown): string | undefined => (typeof arg === 'string' ? arg : typeof arg === 'object' && arg !== null && typeof (arg as CapturedMemory).id === 'string' ? (arg as CapturedMemory).id : undefined);

export function registerRecentCaptures(context: vscode.ExtensionContext, services: Services): RecentCapturesProvider {
  const provider = new RecentCapturesProvider(services);
  const view = vscode.window.createTreeView(RECENT_CAPTURES_VIEW, { treeDataProvider: provider });
  context.subscriptions.push(provider, view, services.onDidChangeData(() => provider.refresh()), services.onDidOpenRuntime(() => provider.refresh()));
  registerSafe(context, services, 'agentMemory.forgetCaptured', 'Forget', async (arg?: unknown) => {
    const id = idOf(arg);
    if (!id) return false;
    await forget(await services.runtime(), id);
    provider.refresh();
    return true;
  });
  registerSafe(context, services, 'agentMemory.markCapturedWrong', 'Wrong or Outdated', async (arg?: unknown) => {
    const id = idOf(arg);
    if (!id) return false;
    const r = await markWrong(await services.runtime(), id);
    provider.refresh();
    return r.changed;
  });
  return provider;
}

/**
 * The status bar item: memories, pending background jobs and the embedding model's state, with a
 * tooltip holding the full status (language model, capture, store). It opens the store only once
 * something else did (activation never waits for it) and updates on every store change.
 */
import * as vscode from 'vscode';
import { userMessage } from '../../core/errors';
import type { Services } from '../host/services';
import { statusBarText, statusLines } from './statusText';
import { agentActivity } from '../../core/capture/agentCapture';
import { capturedTodayLine } from '../agents/agentStatusText';

/** Store changes closer together than this update the item once. */
export const STATUS_DEBOUNCE_MS = 300;
/** While jobs are pending the item also refreshes on this interval (jobs finish in other threads). */
export const STATUS_POLL_MS = 2_000;

export function registerStatusBar(context: vscode.ExtensionContext, services: Services): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('agentMemory.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Agent Memory';
  item.command = 'agentMemory.showStatus';
  item.text = '$(database) Memory';
  item.tooltip = 'Agent Memory: the store opens on first use. Click for status.';
  item.show();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  const update = (): void => {
    const rt = services.current();
    if (!rt) return;
    try {
      const s = rt.status();
      const activity = rt.store.read((db) => agentActivity(db, services.host.clock.now()));
      const today = activity.reduce((n, a) => n + a.capturedToday, 0);
      item.text = `${statusBarText(s)}${today ? ` +${today} today` : ''}`;
      const lines = [...statusLines(s, services.llmChoice().description, services.captureEnabled()), capturedTodayLine(activity)];
      const md = new vscode.MarkdownString(`**Agent Memory**\n\n${lines.map((l) => `- ${l}`).join('\n')}`);
      item.tooltip = md;
      if (s.pendingJobs > 0 && !poll) poll = setInterval(update, STATUS_POLL_MS);
      if (s.pendingJobs === 0 && poll) { clearInterval(poll); poll = undefined; }
    } catch (e) {
      item.text = '$(database) $(error)';
      item.tooltip = `Agent Memory: ${userMessage(e)}`;
    }
  };
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(update, STATUS_DEBOUNCE_MS);
  };
  context.subscriptions.push(item, services.onDidChangeData(schedule), services.onDidOpenRuntime(schedule), { dispose: () => { clearTimeout(timer); if (poll) clearInterval(poll); } });
  return item;
}

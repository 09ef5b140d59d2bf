/**
 * What Show Status, `@memory /status` and the status bar say about agents (docs/agents.md):
 * memories captured today and from where, each connected harness with its last injection and
 * last capture, and the chat-history follower's counts. vscode-free.
 */
import type { ChatHistoryStats } from '../../core/capture/chatHistoryFollower';
import type { AgentActivity } from '../../core/capture/agentCaptureTypes';
import type { Connection } from './agentTargets';

const LABELS: Readonly<Record<string, string>> = {
  vscode: 'VS Code agents', 'claude-code': 'Claude Code', copilot: 'Copilot CLI', 'vscode-chat-history': 'VS Code chat history',
};

export const harnessLabel = (h: string): string => LABELS[h] ?? h;

/** "Captured today: 3 (VS Code chat history 2, Claude Code 1)", or "Captured today: none". */
export function capturedTodayLine(activity: readonly AgentActivity[]): string {
  const today = activity.filter((a) => a.capturedToday > 0).sort((a, b) => b.capturedToday - a.capturedToday);
  const total = today.reduce((n, a) => n + a.capturedToday, 0);
  return total ? `Captured today: ${total} (${today.map((a) => `${harnessLabel(a.harness)} ${a.capturedToday}`).join(', ')})` : 'Captured today: none';
}

const when = (iso: string | undefined): string => (iso ? iso.replace('T', ' ').slice(0, 16) + ' UTC' : 'never');

export interface ChatHistoryState {
  readonly enabled: boolean;
  readonly folder: string;
  readonly stats?: ChatHistoryStats;
}

/** The Agents section of the Show Status document. */
export function agentStatusSection(connections: readonly Connection[], activity: readonly AgentActivity[], chat: ChatHistoryState): string {
  const lines = ['## Agents', '', `- ${capturedTodayLine(activity)}`, ''];
  const harnesses = [...new Set([...connections.map((c) => c.harness as string), ...activity.map((a) => a.harness)])];
  if (harnesses.length) {
    lines.push('| Agent | Connected through | Last injection | Last capture | Captured today | Captured in all |', '|---|---|---|---|---|---|');
    for (const h of harnesses) {
      const a = activity.find((x) => x.harness === h);
      const through = connections.filter((c) => c.harness === h).map((c) => `\`${c.file}\``).join(', ') || (h === 'vscode-chat-history' ? 'chat history setting' : 'not connected here');
      lines.push(`| ${harnessLabel(h)} | ${through} | ${when(a?.lastInjectionAt)} | ${when(a?.lastCaptureAt)} | ${a?.capturedToday ?? 0} | ${a?.capturedTotal ?? 0} |`);
    }
  } else {
    lines.push('No agent is connected. **Memory: Connect Agents…** writes hooks for VS Code\'s agents and Claude Code.');
  }
  lines.push('', `VS Code chat history (\`agentMemory.capture.chatHistory\`): ${chat.enabled ? 'on' : 'off'}${chat.enabled ? `, following \`${chat.folder}\`` : ''}`);
  const s = chat.stats;
  if (s) {
    const unknown = s.skips.lines + s.skips.mutations + s.skips.requests;
    lines.push('', `- Session logs: ${s.files}; requests captured in this window: ${s.requestsCaptured}; \`@memory\` and system requests skipped: ${s.requestsSkipped}; logs rewritten: ${s.rewrites}`,
      `- Unknown shapes skipped: ${unknown} (lines ${s.skips.lines}, mutations ${s.skips.mutations}, requests ${s.skips.requests})${s.errors ? `; read errors: ${s.errors} (see the log)` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

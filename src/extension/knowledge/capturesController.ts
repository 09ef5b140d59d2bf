/**
 * Host side of the Knowledge panel's Captured tab (issue 23, "Seeing and undoing it";
 * docs/agentsVscode.md): lists the memories captured from agent conversations, newest first, and
 * runs Forget and Wrong/outdated on one of them. It sits beside KnowledgeController on the same
 * webview (knowledgeView.ts hands every message to both) and only reacts to its own messages
 * and to `showSection`/`refresh`, so the entity list, detail and playground are untouched. It
 * never imports vscode.
 */
import { CoalescedRun } from './coalescedRun';
import { decodeWebviewMessage } from '../../shared/knowledgeProtocol';
import type { CaptureAction, CapturedMemoryView, HostMessage } from '../../shared/knowledgeProtocolTypes';
import type { CapturedMemory } from '../../core/capture/agentCaptureTypes';
import { userMessage } from '../../core/errors';
import type { Logger } from '../../core/logger';
import type { Disposable } from '../../core/store/storeTypes';
import { harnessLabel } from '../agents/agentStatusText';

/** Captured memories the tab lists (the Recently Captured tree lists as many). */
export const CAPTURES_TAB_LIMIT = 100;

/** What the tab reads and does; engineCapturesSource.ts implements it over the engine, tests over a fake. */
export interface CapturesSource {
  /** The latest captured memories, newest first (retired ones included, marked). */
  recentCaptures(limit: number): Promise<readonly CapturedMemory[]>;
  /** Memories captured since local midnight, all harnesses. */
  capturedToday(): Promise<number>;
  /** Forget: deleted for good (the same path as `@memory`'s forget and the tree's). */
  forget(id: string): Promise<void>;
  /** Wrong/outdated: retired, kept as history, its aspects lowered (actions/memoryActions.ts markWrong). */
  markWrong(id: string): Promise<{ readonly changed: boolean; readonly aspectsLowered: number }>;
}

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The protocol row of a captured memory (fields bounded to what the protocol accepts). */
export function captureView(m: CapturedMemory): CapturedMemoryView {
  return {
    id: m.id,
    content: cut(m.content, 20_000),
    harness: cut(m.harness || 'unknown', 64),
    harnessLabel: cut(harnessLabel(m.harness || 'unknown'), 64),
    sessionId: cut(m.sessionId, 500),
    turnKey: cut(m.turnKey, 500),
    capturedAt: m.capturedAt,
    project: m.project ? cut(m.project, 500) : null,
    // the core's 'forgotten' is a soft-deleted row: what Wrong/outdated leaves (forget removes the row)
    status: m.status === 'forgotten' ? 'retired' : m.status,
  };
}

/** What the tab announces after an action. */
export function captureDoneMessage(action: CaptureAction, content: string | undefined, r?: { readonly changed: boolean; readonly aspectsLowered: number }): string {
  const what = content ? `“${cut(content.replace(/\s+/g, ' '), 60)}”` : 'The memory';
  if (action === 'forget') return `Forgot ${what}: deleted with its vectors and graph traces.`;
  if (!r?.changed) return `${what} was already retired.`;
  return `Marked ${what} wrong or outdated: out of recall, kept as history${r.aspectsLowered ? `; ${r.aspectsLowered} ${r.aspectsLowered === 1 ? 'aspect' : 'aspects'} it supported lowered` : ''}.`;
}

export class CapturesController implements Disposable {
  private visible = false;
  private lastJson: string | undefined;
  private shown = new Map<string, CapturedMemoryView>();
  private disposed = false;
  private readonly refreshes = new CoalescedRun(async () => {
    try { await this.sendList(false); } catch (e) {
      this.logger.error(`Knowledge panel: captured refresh failed: ${userMessage(e)}`);
      this.send({ type: 'error', scope: 'captures', message: userMessage(e) });
    }
  }, () => this.disposed);

  constructor(
    private readonly source: CapturesSource,
    private readonly post: (message: HostMessage) => unknown,
    private readonly logger: Logger,
    private readonly limit = CAPTURES_TAB_LIMIT,
  ) {}

  /** Handles one raw webview message; ignores the ones that are not the tab's. Never rejects. */
  async handle(raw: unknown): Promise<void> {
    const decoded = decodeWebviewMessage(raw);
    if (!decoded.ok) return; // KnowledgeController logs malformed messages
    const m = decoded.value;
    try {
      switch (m.type) {
        case 'showSection':
          this.visible = m.section === 'captured';
          if (this.visible) await this.sendList(true);
          return;
        case 'refresh':
          if (this.visible) await this.sendList(true);
          return;
        case 'captureAction':
          await this.act(m.id, m.action);
          return;
        default:
          return;
      }
    } catch (e) {
      this.logger.error(`Knowledge panel: captured ${m.type} failed: ${userMessage(e)}`);
      this.send({ type: 'error', scope: 'captures', message: userMessage(e) });
    }
  }

  /** After a store change (a capture by a hook, the chat-history follower, another window): resends the list when it changed. */
  refresh(): Promise<void> {
    if (!this.visible || this.disposed) return Promise.resolve();
    return this.refreshes.run();
  }

  dispose(): void { this.disposed = true; }

  private async act(id: string, action: CaptureAction): Promise<void> {
    const content = this.shown.get(id)?.content;
    if (action === 'forget') {
      await this.source.forget(id);
      this.send({ type: 'captureDone', id, action, message: captureDoneMessage(action, content) });
    } else {
      const r = await this.source.markWrong(id);
      this.send({ type: 'captureDone', id, action, message: captureDoneMessage(action, content, r) });
    }
    // answer at once even when the store coalesces its change events
    await this.sendList(false);
  }

  private async sendList(force: boolean): Promise<void> {
    const [rows, today] = await Promise.all([this.source.recentCaptures(this.limit), this.source.capturedToday()]);
    const captures = rows.slice(0, this.limit).map(captureView);
    const json = JSON.stringify([captures, today]);
    if (!force && json === this.lastJson) return;
    this.lastJson = json;
    this.shown = new Map(captures.map((c) => [c.id, c]));
    this.send({ type: 'captures', captures, capturedToday: today, limit: this.limit });
  }

  private send(message: HostMessage): void {
    if (!this.disposed) this.post(message);
  }
}

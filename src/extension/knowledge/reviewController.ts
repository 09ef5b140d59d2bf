/**
 * The Knowledge panel's review part (issue #27, "Conflicts a person can resolve" and "Nothing
 * changes silently"), beside KnowledgeController and vscode-free like it: it sends the conflicts
 * maintenance proposed, applies a person's answer (keep newer, keep older, both are true) and tells
 * the panel when an entity it showed was merged into another ("X was merged into Y"). It handles only
 * its own messages (resolveConflict, and ready/refresh to send the list); KnowledgeController
 * handles the rest. It watches the page and delta messages sent to the webview to know which
 * entities the list showed.
 */
import { decodeWebviewMessage } from '../../../src/shared/knowledgeProtocol';
import type { ConflictChoiceView, ConflictView, HostMessage, MergedAwayView } from '../../../src/shared/knowledgeProtocolTypes';
import { userMessage } from '../../core/errors';
import type { Logger } from '../../core/logger';
import type { Disposable } from '../../core/store/storeTypes';

export interface ReviewSource {
  conflicts(): Promise<readonly ConflictView[]>;
  /** Applies the answer; resolves with one sentence saying what happened. */
  resolveConflict(id: string, choice: ConflictChoiceView): Promise<string>;
  /** Where the list's entities went: merges recorded after `cursor` (undefined: start from now). */
  mergesSince(cursor: number | undefined): Promise<{ readonly cursor: number; readonly merges: readonly { readonly mergedId: string; readonly mergedName: string }[] }>;
  /** The live entity a merged one ended up in, or undefined (undone, deleted since). */
  mergedInto(id: string): Promise<{ readonly id: string; readonly name: string; readonly at: string } | undefined>;
}

/** Entity ids remembered as shown (a bound: the panel pages through at most this many rows of interest). */
const SHOWN_MAX = 20_000;

export class ReviewController implements Disposable {
  private readonly shown = new Set<string>();
  private cursor: number | undefined;
  private lastJson: string | undefined;
  private notice: string | null = null;
  private ready = false;
  private disposed = false;

  constructor(private readonly source: ReviewSource, private readonly post: (m: HostMessage) => unknown, private readonly logger: Logger) {}

  /** Sees every message the panel's controller sends, to learn which entities the list showed. */
  observe(m: HostMessage): void {
    const rows = m.type === 'page' ? m.entities : m.type === 'delta' ? m.upserts : [];
    for (const e of rows) {
      if (this.shown.size >= SHOWN_MAX) break;
      this.shown.add(e.id);
    }
  }

  /** Handles one raw webview message if it is one of the review's; never rejects. */
  async handle(raw: unknown): Promise<void> {
    const decoded = decodeWebviewMessage(raw);
    if (!decoded.ok) return; // KnowledgeController logs malformed messages
    const m = decoded.value;
    try {
      if (m.type === 'ready' || m.type === 'refresh') {
        this.ready = true;
        await this.refresh();
      } else if (m.type === 'resolveConflict') {
        this.notice = await this.source.resolveConflict(m.id, m.choice);
        this.lastJson = undefined;
        await this.refresh();
      }
    } catch (e) {
      this.logger.error(`Knowledge panel: ${m.type} failed: ${userMessage(e)}`);
      this.send({ type: 'error', scope: 'action', message: userMessage(e) });
    }
  }

  /** Re-reads the conflicts (sent when they changed) and reports merges of shown entities. */
  async refresh(): Promise<void> {
    if (!this.ready || this.disposed) return;
    try {
      const conflicts = await this.source.conflicts();
      const json = JSON.stringify([conflicts, this.notice]);
      if (json !== this.lastJson) {
        this.lastJson = json;
        this.send({ type: 'conflicts', conflicts, notice: this.notice });
      }
      const since = await this.source.mergesSince(this.cursor);
      const first = this.cursor === undefined;
      this.cursor = since.cursor;
      if (first) return; // merges before the panel showed anything are not news
      const items: MergedAwayView[] = [];
      for (const m of since.merges) {
        if (!this.shown.has(m.mergedId)) continue;
        const into = await this.source.mergedInto(m.mergedId);
        if (into) items.push({ id: m.mergedId, name: m.mergedName, intoId: into.id, intoName: into.name, at: into.at });
      }
      if (items.length) this.send({ type: 'mergedAway', items });
    } catch (e) {
      this.logger.warn(`Knowledge panel: conflicts and merges not refreshed: ${userMessage(e)}`);
    }
  }

  dispose(): void { this.disposed = true; }

  private send(m: HostMessage): void {
    if (!this.disposed) this.post(m);
  }
}

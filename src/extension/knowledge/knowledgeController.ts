/**
 * Host side of one Knowledge panel instance (the sidebar view or an editor tab): decodes the
 * webview's messages, asks the data source, and answers with protocol messages. It never imports
 * vscode: the thin adapter in knowledgeView.ts gives it a `post` function and the editor actions.
 */
import { CoalescedRun } from './coalescedRun';
import { decodeWebviewMessage } from '../../../src/shared/knowledgeProtocol';
import { PANEL_CONFIG } from '../../../webview/panelConfig';
import type { EntitySummary, ErrorScope, HostMessage, RecallResultView, WebviewMessage } from '../../../src/shared/knowledgeProtocolTypes';
import type { Logger } from '../../core/logger';
import { MemoryError, userMessage } from '../../core/errors';
import type { Disposable } from '../../core/store/storeTypes';
import type { KnowledgeDataSource } from './knowledgeDataSource';
import { diffWindow } from './listDiff';

/** Editor-side effects the panel can ask for. */
export interface KnowledgeActions {
  openInTree(id: string): Promise<void>;
  copyText(text: string): Promise<void>;
}

/** One recall's results and the memory whose explanation to open (the explainRecall message). */
export interface RecallExplanationView {
  readonly query: string;
  readonly focusId: string;
  readonly tookMs: number;
  readonly results: readonly RecallResultView[];
}

interface ListState {
  query: string;
  entityType: string | null;
  /** Union of the row ranges sent since the last reset: [lo, hi). */
  lo: number;
  hi: number;
  /** Rows as last sent, by absolute index (only inside [lo, hi)). */
  sent: Map<number, EntitySummary>;
  total: number;
  /** Offset of the last page the webview asked for (what it is looking at). */
  lastOffset: number;
}

export class KnowledgeController implements Disposable {
  private list: ListState = { query: '', entityType: null, lo: 0, hi: 0, sent: new Map(), total: 0, lastOffset: 0 };
  private selectedId: string | undefined;
  private lastDetailJson: string | undefined;
  private ready = false;
  /** Stats and focal entities are re-read only while the overview shows (default: shown, for
   *  webviews that never say); switching to it re-reads them. */
  private overviewVisible = true;
  private disposed = false;
  private readonly refreshes = new CoalescedRun(async () => {
    await this.guard('list', () => this.refreshList());
    await this.sendOverview();
    await this.guard('detail', () => this.sendDetail(false));
  }, () => this.disposed);
  /** First-open timing (issue #27, "Fast panel"): when this panel's webview got its HTML, said
   *  ready, and got its first list; logged once so "Memory: Show Logs" says where the time went. */
  private readonly openedAt = performance.now();
  private readyAt: number | undefined;
  private firstListLogged = false;
  /** Set when 'ready' came before the first list: stats and focal entities wait for the list. */
  private overviewAfterList = false;
  private markShown: () => void = () => undefined;
  private readonly shown = new Promise<void>((resolve) => { this.markShown = resolve; });

  constructor(
    private readonly source: KnowledgeDataSource,
    private readonly post: (message: HostMessage) => unknown,
    private readonly actions: KnowledgeActions,
    private readonly logger: Logger,
  ) {}

  /** Handles one raw message from the webview; never rejects. */
  async handle(raw: unknown): Promise<void> {
    const decoded = decodeWebviewMessage(raw);
    if (!decoded.ok) {
      this.logger.warn(`Knowledge panel sent a malformed message (${decoded.error}); ignored.`);
      return;
    }
    try {
      await this.dispatch(decoded.value);
    } catch (e) {
      this.logger.error(`Knowledge panel: ${decoded.value.type} failed: ${userMessage(e)}`);
      this.send({ type: 'error', scope: scopeOf(decoded.value), message: userMessage(e) });
    }
  }

  /**
   * Sends the first page of the unfiltered list without waiting for the webview to ask (issue #27,
   * docs/knowledgePanelFirstOpen.md): called right after the panel's HTML is set, so the query runs
   * while VS Code loads the webview, and VS Code holds the message until the webview's document has
   * loaded. The webview takes it when it shows the unfiltered list (a fresh panel); its own
   * `search` on start is answered as always, so a webview that missed or ignored this page loses nothing.
   */
  async prefetchFirstPage(): Promise<void> {
    if (this.list.query !== '' || this.list.entityType !== null || this.firstListLogged) return;
    await this.guard('list', () => this.sendPage(0, 0, PANEL_CONFIG.pageSize, true));
  }

  /**
   * Settles once the webview said ready and its first list was sent (the rows show then: a list
   * sent before ready is taken when the bundle runs), or when the panel is disposed. The window holds
   * the model warm-up until then (Services.holdWarmUp, docs/knowledgePanelFirstOpen.md).
   */
  whenShown(): Promise<void> {
    return this.shown;
  }

  /** Asks the webview to show an entity (from a command or the tree's context menu). */
  async showEntity(id: string): Promise<void> {
    this.send({ type: 'select', id });
    this.selectedId = id;
    await this.guard('detail', () => this.sendDetail(true));
  }

  /**
   * Asks the webview to show why a memory was recalled (the Recall tab, that recall's results, the
   * memory's explanation open): where the @memory answer's "why?" link leads (recallExplanations.ts).
   */
  showRecallExplanation(explanation: RecallExplanationView): void {
    this.send({ type: 'explainRecall', ...explanation });
  }

  /**
   * Re-reads what the panel shows after a store change and sends only what changed: a delta of
   * changed rows when the list order is unchanged, otherwise a reset of the visible page; stats,
   * focal entities and the open detail. Concurrent calls coalesce into one more run.
   */
  refresh(): Promise<void> {
    if (!this.ready || this.disposed) return Promise.resolve();
    return this.refreshes.run();
  }

  dispose(): void {
    this.disposed = true;
    this.markShown();
  }

  private async dispatch(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        if (this.readyAt === undefined) {
          this.readyAt = performance.now();
          this.logger.info(`Knowledge panel: webview ready ${Math.round(this.readyAt - this.openedAt)} ms after the panel opened${this.firstListLogged ? ' (its first list was already sent)' : ''}`);
        }
        this.ready = true;
        if (this.firstListLogged) this.markShown();
        // The list first (what the panel is opened for): stats and focal entities cost a few table
        // scans (≈0.2 s at 10k entities, bench/results/knowledgeSource.json) and would delay it.
        if (!this.firstListLogged) {
          this.overviewAfterList = true;
          return;
        }
        return this.sendOverview();
      case 'showSection':
        this.overviewVisible = m.section === 'overview';
        return this.sendOverview();
      case 'refresh':
        this.ready = true;
        return this.refresh();
      case 'search':
        this.list = { query: m.query, entityType: m.entityType, lo: 0, hi: 0, sent: new Map(), total: 0, lastOffset: 0 };
        try {
          return await this.sendPage(0, 0, PANEL_CONFIG.pageSize, true);
        } finally {
          if (this.overviewAfterList) {
            this.overviewAfterList = false;
            await this.sendOverview();
          }
        }
      case 'requestPage':
        this.list.lastOffset = m.offset;
        return this.sendPage(m.requestId, m.offset, m.limit, false);
      case 'selectEntity':
        this.selectedId = m.id;
        return this.sendDetail(true);
      case 'setPinned':
        await this.source.setPinned(m.id, m.pinned);
        // The store's change event refreshes every open panel; refresh this one now as well so
        // the toggle answers at once even when the store coalesces its events.
        return this.refresh();
      case 'recall': {
        const started = performance.now();
        const results = await this.source.recall(m.query, m.limit);
        this.send({ type: 'recallResult', requestId: m.requestId, query: m.query, tookMs: Math.round(performance.now() - started), results });
        return;
      }
      case 'openInTree':
        return this.actions.openInTree(m.id);
      case 'copy':
        return this.copy(m.id, m.what);
    }
  }

  private async sendPage(requestId: number, offset: number, limit: number, reset: boolean): Promise<void> {
    const { query, entityType } = this.list;
    const asked = performance.now();
    const page = await this.source.listEntities({ query, entityType, offset, limit });
    if (query !== this.list.query || entityType !== this.list.entityType) return; // a newer search won
    if (offset > page.total) return this.sendPage(requestId, Math.max(0, page.total - limit), limit, true); // the list shrank
    const s = this.list;
    if (reset || s.total !== page.total) {
      s.sent.clear();
      s.lo = offset;
      s.hi = offset;
      reset = true;
    }
    s.total = page.total;
    page.entities.forEach((e, i) => s.sent.set(offset + i, e));
    s.lo = Math.min(s.lo, offset);
    s.hi = Math.max(s.hi, offset + page.entities.length);
    this.send({ type: 'page', requestId, query, entityType, offset, total: page.total, reset, entities: page.entities, types: page.types });
    this.logFirstList(asked, page.total);
  }

  private logFirstList(asked: number, total: number): void {
    if (this.firstListLogged) return;
    this.firstListLogged = true;
    const now = performance.now();
    const ms = (a: number, b: number): number => Math.round(b - a);
    const ready = this.readyAt === undefined ? 'before the webview said ready' : `webview ready after ${ms(this.openedAt, this.readyAt)} ms`;
    this.logger.info(`Knowledge panel: first list (${total} entities) sent ${ms(this.openedAt, now)} ms after the panel opened: ${ready}, list query ${ms(asked, now)} ms (including opening the store when it was not open yet)`);
    if (this.readyAt !== undefined) this.markShown();
  }

  private async refreshList(): Promise<void> {
    const s = this.list;
    const span = s.hi - s.lo;
    if (span === 0 || span > PANEL_CONFIG.refreshSpanMax) {
      return this.sendPage(0, span === 0 ? 0 : s.lastOffset, PANEL_CONFIG.pageSize, true);
    }
    const { query, entityType } = s;
    const page = await this.source.listEntities({ query, entityType, offset: s.lo, limit: span });
    if (query !== this.list.query || entityType !== this.list.entityType) return;
    const before: EntitySummary[] = [];
    for (let i = s.lo; i < s.hi; i++) before.push(s.sent.get(i) as EntitySummary);
    const diff = diffWindow(before, page.entities, s.total, page.total, s.lo === 0);
    if (diff.kind === 'reset') {
      s.sent.clear();
      s.total = page.total;
      page.entities.forEach((e, i) => s.sent.set(s.lo + i, e));
      s.hi = s.lo + page.entities.length;
      this.send({ type: 'page', requestId: 0, query, entityType, offset: s.lo, total: page.total, reset: true, entities: page.entities, types: page.types });
      return;
    }
    if (diff.kind === 'same') return;
    s.total = page.total;
    s.sent.clear();
    page.entities.forEach((e, i) => s.sent.set(s.lo + i, e));
    s.hi = s.lo + page.entities.length;
    this.send({ type: 'delta', total: page.total, upserts: diff.upserts, removed: diff.removed });
  }

  private async sendDetail(force: boolean): Promise<void> {
    const id = this.selectedId;
    if (id === undefined) return;
    const detail = await this.source.entityDetail(id);
    if (id !== this.selectedId) return;
    const json = JSON.stringify(detail);
    if (!force && json === this.lastDetailJson) return;
    this.lastDetailJson = json;
    this.send({ type: 'detail', id, detail });
  }

  /** Sends stats and focal entities when the overview shows (they cost a few table scans). */
  private async sendOverview(): Promise<void> {
    if (!this.overviewVisible) return;
    await this.guard('stats', () => this.sendStats());
    await this.guard('focal', () => this.sendFocal());
  }

  private async sendStats(): Promise<void> {
    this.send({ type: 'stats', stats: await this.source.stats() });
  }

  private async sendFocal(): Promise<void> {
    this.send({ type: 'focal', focal: await this.source.focal() });
  }

  private async copy(id: string, what: 'name' | 'id' | 'json'): Promise<void> {
    if (what === 'id') return this.actions.copyText(id);
    const detail = await this.source.entityDetail(id);
    if (!detail) throw new MemoryError('E_NOT_FOUND', `The entity ${id} no longer exists.`);
    return this.actions.copyText(what === 'name' ? detail.summary.name : JSON.stringify(detail, null, 2));
  }

  private async guard(scope: ErrorScope, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.logger.error(`Knowledge panel: ${scope} failed: ${userMessage(e)}`);
      this.send({ type: 'error', scope, message: userMessage(e) });
    }
  }

  private send(message: HostMessage): void {
    if (this.disposed) return;
    this.post(message);
  }
}

function scopeOf(m: WebviewMessage): ErrorScope {
  switch (m.type) {
    case 'search': case 'requestPage': case 'refresh': return 'list';
    case 'selectEntity': return 'detail';
    case 'setPinned': return 'pin';
    case 'recall': return 'recall';
    case 'ready': return 'stats';
    default: return 'action';
  }
}

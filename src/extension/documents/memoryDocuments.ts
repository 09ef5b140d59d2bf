/**
 * Read-only documents for memories (`agent-memory:/memory/<id>.md`), "why recalled" breakdowns
 * (`agent-memory:/explain/<n>.md`), the status (`agent-memory:/status.md`, computed when read) and
 * reports such as maintenance (`agent-memory:/report/<n>.md`), so chat references, quick picks,
 * command links and notifications open something real that nobody can edit or save (an untitled
 * document would be dirty, and chat attaches open editors as context). Status and reports open as
 * a rendered Markdown preview. Explains and reports are kept for the most recent ones only.
 */
import * as vscode from 'vscode';
import { getMemory } from '../../core/memory/memoryRecords';
import type { RecallResult } from '../../core/recall/recallTypes';
import { explainDocument } from '../chat/recallFormat';
import type { Services } from '../host/services';

export const MEMORY_SCHEME = 'agent-memory';
/** Explain documents kept (oldest dropped first). */
export const MAX_KEPT_EXPLAINS = 200;
export const SHOW_EXPLAIN_COMMAND = 'agentMemory.showRecallExplanation';
/** Reports kept (oldest dropped first). */
export const MAX_KEPT_REPORTS = 20;
export const STATUS_URI_PATH = '/status.md';

export function memoryUri(id: string): vscode.Uri {
  return vscode.Uri.from({ scheme: MEMORY_SCHEME, path: `/memory/${encodeURIComponent(id)}.md` });
}

/** A source id that points somewhere VS Code can open (URL or file), or undefined. */
export function sourceUri(sourceId: string | null): vscode.Uri | undefined {
  if (!sourceId) return undefined;
  if (/^https?:\/\//i.test(sourceId)) {
    try { return vscode.Uri.parse(sourceId, true); } catch { return undefined; }
  }
  if (sourceId.startsWith('file://')) {
    try { return vscode.Uri.parse(sourceId, true); } catch { return undefined; }
  }
  return undefined;
}

/** Keeps at most `max` entries, dropping the oldest. */
function trim(map: Map<string, string>, max: number): void {
  while (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

/**
 * Opens a read-only Agent Memory document as a rendered Markdown preview (the built-in Markdown
 * extension's command); where that extension is missing, as a read-only text editor.
 */
export async function showRenderedDocument(uri: vscode.Uri): Promise<void> {
  try {
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  } catch {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
  }
}

export class MemoryDocuments implements vscode.TextDocumentContentProvider {
  private readonly explains = new Map<string, string>();
  private readonly reports = new Map<string, string>();
  /** Parts of a report read afresh each time it is shown (the review sections: src/extension/review). */
  private readonly liveParts = new Map<string, () => Promise<string>>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private next = 0;
  private status: (() => Promise<string>) | undefined;
  /** Answers of the report's review links (src/extension/review), by document path: each link acts once per window. */
  private reviewAction: ((path: string) => Promise<string>) | undefined;
  private readonly reviewDone = new Map<string, Promise<string>>();

  constructor(private readonly services: Services) {}

  /** How the status document is computed (set by the Show Status command). */
  setStatusSource(compute: () => Promise<string>): void {
    this.status = compute;
  }

  /**
   * What a report's review link does (`agent-memory:/review/…md`, src/extension/review/reviewText.ts):
   * the Markdown preview opens a relative link as a document, and this is the only link kind it
   * hands to the extension (it ignores `command:` links). A link acts once per window; reading it
   * again shows the same answer.
   */
  setReviewAction(act: (path: string) => Promise<string>): void {
    this.reviewAction = act;
  }

  /** The status document's URI; tells an open preview to re-read it. */
  refreshStatus(): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: MEMORY_SCHEME, path: STATUS_URI_PATH });
    this.changed.fire(uri);
    return uri;
  }

  /** Keeps a report (Markdown) and returns its URI; `live` adds a part computed each time it is read. */
  keepReport(markdown: string, live?: () => Promise<string>): vscode.Uri {
    const key = String(++this.next);
    this.reports.set(key, markdown);
    if (live) this.liveParts.set(key, live);
    trim(this.reports, MAX_KEPT_REPORTS);
    for (const k of this.liveParts.keys()) if (!this.reports.has(k)) this.liveParts.delete(k);
    return vscode.Uri.from({ scheme: MEMORY_SCHEME, path: `/report/${key}.md` });
  }

  /** Tells open reports with a live part to re-read it (after a conflict was answered or a change undone). */
  refreshReports(): void {
    for (const key of this.liveParts.keys()) this.changed.fire(vscode.Uri.from({ scheme: MEMORY_SCHEME, path: `/report/${key}.md` }));
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** Keeps an explain document and returns its URI. */
  keepExplain(query: string, result: RecallResult): vscode.Uri {
    const key = String(++this.next);
    this.explains.set(key, explainDocument(query, result));
    trim(this.explains, MAX_KEPT_EXPLAINS);
    return vscode.Uri.from({ scheme: MEMORY_SCHEME, path: `/explain/${key}.md` });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.path === STATUS_URI_PATH) return this.status ? this.status() : 'Run Memory: Show Status to see the status.\n';
    if (uri.path.startsWith('/review/') && this.reviewAction) {
      let done = this.reviewDone.get(uri.path);
      if (!done) {
        done = this.reviewAction(uri.path);
        this.reviewDone.set(uri.path, done);
      }
      return done;
    }
    const m = /^\/(memory|explain|report)\/(.+)\.md$/.exec(uri.path);
    if (!m) return `Unknown Agent Memory document: ${uri.toString()}\n`;
    const key = decodeURIComponent(m[2] ?? '');
    if (m[1] === 'explain') return this.explains.get(key) ?? 'This explanation is no longer kept; recall again to see it.\n';
    if (m[1] === 'report') {
      const report = this.reports.get(key);
      if (report === undefined) return 'This report is no longer kept; run maintenance again to see a new one.\n';
      const live = this.liveParts.get(key);
      return live ? `${report}\n${await live()}\n` : report;
    }
    const rt = await this.services.runtime();
    const mem = rt.store.read((db) => getMemory(db, key));
    if (!mem) return `Memory ${key} does not exist (any more).\n`;
    const lines = [`# Memory ${mem.id}`, '', mem.content, '', `- type: ${mem.type}`, `- created: ${mem.createdAt}`];
    if (mem.sourceId) lines.push(`- source: ${mem.sourceId}`);
    if (mem.project) lines.push(`- project: ${mem.project}`);
    if (mem.who) lines.push(`- who: ${mem.who}`);
    if (mem.tags.length) lines.push(`- tags: ${mem.tags.join(', ')}`);
    lines.push(`- importance: ${mem.importance}`, `- recalled: ${mem.accessCount} times`);
    return lines.join('\n') + '\n';
  }
}

export function registerMemoryDocuments(context: vscode.ExtensionContext, services: Services): MemoryDocuments {
  const docs = new MemoryDocuments(services);
  context.subscriptions.push(
    docs,
    vscode.workspace.registerTextDocumentContentProvider(MEMORY_SCHEME, docs),
    vscode.commands.registerCommand(SHOW_EXPLAIN_COMMAND, async (uri: unknown) => {
      const target = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri instanceof vscode.Uri ? uri : undefined;
      if (!target || target.scheme !== MEMORY_SCHEME) return;
      const doc = await vscode.workspace.openTextDocument(target);
      await vscode.window.showTextDocument(doc, { preview: true });
    }),
  );
  return docs;
}

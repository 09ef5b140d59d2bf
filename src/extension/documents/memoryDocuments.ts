/**
 * Read-only documents for memories (`agent-memory:/memory/<id>.md`), the status (`agent-memory:/status.md`, computed when read) and
 * reports such as maintenance (`agent-memory:/report/<n>.md`), so chat references, quick picks,
 * command links and notifications open something real that nobody can edit or save (an untitled
 * document would be dirty, and chat attaches open editors as context). Status and reports open as
 * a rendered Markdown preview. Explains and reports are kept for the most recent ones only.
 */
import * as vscode from 'vscode';
import { getMemory } from '../../core/memory/memoryRecords';
import type { Services } from '../host/services';

export const MEMORY_SCHEME = 'agent-memory';
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
  private readonly reports = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private next = 0;
  private status: (() => Promise<string>) | undefined;

  constructor(private readonly services: Services) {}

  /** How the status document is computed (set by the Show Status command). */
  setStatusSource(compute: () => Promise<string>): void {
    this.status = compute;
  }

  /** The status document's URI; tells an open preview to re-read it. */
  refreshStatus(): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: MEMORY_SCHEME, path: STATUS_URI_PATH });
    this.changed.fire(uri);
    return uri;
  }

  /** Keeps a report (Markdown) and returns its URI. */
  keepReport(markdown: string): vscode.Uri {
    const key = String(++this.next);
    this.reports.set(key, markdown);
    trim(this.reports, MAX_KEPT_REPORTS);
    return vscode.Uri.from({ scheme: MEMORY_SCHEME, path: `/report/${key}.md` });
  }

  dispose(): void {
    this.changed.dispose();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (uri.path === STATUS_URI_PATH) return this.status ? this.status() : 'Run Memory: Show Status to see the status.\n';
    const m = /^\/(memory|report)\/(.+)\.md$/.exec(uri.path);
    if (!m) return `Unknown Agent Memory document: ${uri.toString()}\n`;
    const key = decodeURIComponent(m[2] ?? '');
    if (m[1] === 'report') return this.reports.get(key) ?? 'This report is no longer kept; run maintenance again to see a new one.\n';
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
  );
  return docs;
}

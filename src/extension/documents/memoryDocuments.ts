/**
 * Read-only documents for memories (`agent-memory:/memory/<id>.md`), so chat references, quick
 * picks and command links open something real that nobody can edit or save (an untitled document
 * would be dirty, and chat attaches open editors as context). The status and reports are not
 * files: they open in titled webview tabs that survive a reload (documentPanels.ts).
 */
import * as vscode from 'vscode';
import { getMemory } from '../../core/memory/memoryRecords';
import type { Services } from '../host/services';
import { registerDocumentPanels } from './documentPanels';
import type { DocumentPanels } from './documentPanels';

export const MEMORY_SCHEME = 'agent-memory';

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

export class MemoryDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly services: Services, private readonly documents: DocumentPanels) {}

  /** How the status document is computed (Show Status, and its tab restored after a reload). */
  setStatusSource(compute: () => Promise<string>): void {
    this.documents.setStatusSource(compute);
  }

  /** Shows the status in its titled tab ("Memory Status"), computed now. */
  showStatus(): Promise<void> {
    return this.documents.showStatus();
  }

  /**
   * Shows a report (Markdown) in a tab titled `title`; the tab survives a window reload. `live`
   * adds a part computed each time the tab is shown or refreshed (the review sections).
   */
  showReport(title: string, markdown: string, live?: () => Promise<string>): Promise<void> {
    return this.documents.show({ kind: 'report', title, markdown }, live);
  }

  /** Re-renders open reports with a live part (after a conflict was answered or a change undone). */
  refreshReports(): Promise<void> {
    return this.documents.refreshLive();
  }

  dispose(): void {
    this.changed.dispose();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const m = /^\/memory\/(.+)\.md$/.exec(uri.path);
    if (!m) return `Unknown Agent Memory document: ${uri.toString()}\n`;
    const key = decodeURIComponent(m[1] ?? '');
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
  const docs = new MemoryDocuments(services, registerDocumentPanels(context, services.logger));
  context.subscriptions.push(
    docs,
    vscode.workspace.registerTextDocumentContentProvider(MEMORY_SCHEME, docs),
  );
  return docs;
}

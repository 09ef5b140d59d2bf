/**
 * Read-only documents for memories (`agent-memory:/memory/<id>.md`) and for "why recalled"
 * breakdowns (`agent-memory:/explain/<n>.md`), so chat references, quick picks and command links
 * open something real. Explains are kept for the most recent recalls only.
 */
import * as vscode from 'vscode';
import { getMemory } from '../core/memory/memoryRecords';
import type { RecallResult } from '../core/recall/recallTypes';
import { explainDocument } from './chat/recallFormat';
import type { Services } from './services';

export const MEMORY_SCHEME = 'agent-memory';
/** Explain documents kept (oldest dropped first). */
export const MAX_KEPT_EXPLAINS = 200;
export const SHOW_EXPLAIN_COMMAND = 'agentMemory.showRecallExplanation';

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
  private readonly explains = new Map<string, string>();
  private next = 0;

  constructor(private readonly services: Services) {}

  /** Keeps an explain document and returns its URI. */
  keepExplain(query: string, result: RecallResult): vscode.Uri {
    const key = String(++this.next);
    this.explains.set(key, explainDocument(query, result));
    while (this.explains.size > MAX_KEPT_EXPLAINS) {
      const oldest = this.explains.keys().next().value;
      if (oldest === undefined) break;
      this.explains.delete(oldest);
    }
    return vscode.Uri.from({ scheme: MEMORY_SCHEME, path: `/explain/${key}.md` });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const m = /^\/(memory|explain)\/(.+)\.md$/.exec(uri.path);
    if (!m) return `Unknown Agent Memory document: ${uri.toString()}\n`;
    const key = decodeURIComponent(m[2] ?? '');
    if (m[1] === 'explain') return this.explains.get(key) ?? 'This explanation is no longer kept; recall again to see it.\n';
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

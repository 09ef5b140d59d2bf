/**
 * Memory: Export Memories (JSONL or Markdown), Memory: Import Memories (JSONL, Markdown),
 * Memory: Remember URL (fetch a document into memory).
 */
import * as vscode from 'vscode';
import { MemoryError } from '../../core/errors';
import { ingestMemories, parseJsonl } from '../../core/ingest/jsonlIngest';
import type { IngestResult } from '../../core/ingest/jsonlIngest';
import { ingestUrl } from '../../core/ingest/urlIngest';
import type { UrlIngestResult } from '../../core/ingest/urlIngest';
import { parseMarkdown, readExportable, toJsonl, toMarkdown } from '../io/memoryExport';
import type { Services } from '../services';
import { inform, registerSafe } from './commandUtil';

export type ExportFormat = 'jsonl' | 'markdown';

function formatOf(uri: vscode.Uri): ExportFormat | undefined {
  const p = uri.path.toLowerCase();
  if (p.endsWith('.jsonl') || p.endsWith('.ndjson')) return 'jsonl';
  if (p.endsWith('.md') || p.endsWith('.markdown')) return 'markdown';
  return undefined;
}

/** Exports every live memory to `target` (asks for a file when absent). Returns the count. */
export async function exportMemories(services: Services, target?: unknown): Promise<number | undefined> {
  const uri = target instanceof vscode.Uri ? target : typeof target === 'string' ? vscode.Uri.file(target) : await vscode.window.showSaveDialog({
    title: 'Export memories', saveLabel: 'Export',
    filters: { 'JSON Lines': ['jsonl'], Markdown: ['md'] },
    defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? services.context.globalStorageUri, 'memories.jsonl'),
  });
  if (!uri) return undefined;
  const format = formatOf(uri);
  if (!format) throw new MemoryError('E_INVALID_INPUT', 'Export to a .jsonl or .md file.');
  const rt = await services.runtime();
  const memories = rt.store.read((db) => readExportable(db));
  const text = format === 'jsonl' ? toJsonl(memories) : toMarkdown(memories);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  inform(`Exported ${memories.length} memories to ${vscode.workspace.asRelativePath(uri)}.`);
  return memories.length;
}

/** Imports a JSONL or Markdown file (asks for one when absent). Every line is validated before anything is written. */
export async function importMemories(services: Services, source?: unknown): Promise<IngestResult | undefined> {
  const uri = source instanceof vscode.Uri ? source : typeof source === 'string' ? vscode.Uri.file(source) : (await vscode.window.showOpenDialog({
    title: 'Import memories', openLabel: 'Import', canSelectMany: false,
    filters: { 'Memories (JSON Lines, Markdown)': ['jsonl', 'ndjson', 'md', 'markdown'] },
  }))?.[0];
  if (!uri) return undefined;
  const format = formatOf(uri);
  if (!format) throw new MemoryError('E_INVALID_INPUT', 'Import a .jsonl export (one memory a line) or a .md file.');
  let text: string;
  try { text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'); } catch { throw new MemoryError('E_NOT_FOUND', `Cannot read ${uri.fsPath}.`); }
  const inputs = format === 'jsonl' ? parseJsonl(text) : parseMarkdown(text);
  if (inputs.length === 0) throw new MemoryError('E_INVALID_INPUT', `${vscode.workspace.asRelativePath(uri)} holds no memories.`);
  const rt = await services.runtime();
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Importing ${inputs.length} memories` }, () => ingestMemories(rt.store, inputs, rt.rememberDeps()));
  rt.poke();
  inform(`Imported ${result.ingested} memories${result.duplicates ? ` (${result.duplicates} already known)` : ''}. Embeddings and graph links are added in the background.`);
  return result;
}

export async function rememberUrl(services: Services, url?: unknown): Promise<UrlIngestResult | undefined> {
  const target = typeof url === 'string' && url.trim() ? url.trim() : await vscode.window.showInputBox({
    title: 'Remember a web page', prompt: 'URL of the document to fetch and remember', placeHolder: 'https://…',
    validateInput: (v) => (/^https?:\/\/\S+$/i.test(v.trim()) ? undefined : 'Enter an http or https URL'),
  });
  if (!target) return undefined;
  const rt = await services.runtime();
  const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Fetching ${target}` }, () => ingestUrl(rt.store, target, {
    remember: rt.rememberDeps(), fetch: services.settings().fetch, ...(vscode.workspace.name ? { project: vscode.workspace.name } : {}),
  }));
  rt.poke();
  inform(r.duplicate ? `${r.url} is already in memory.` : `Remembered ${r.title ?? r.url}${r.chunkIds.length > 1 ? ` in ${r.chunkIds.length} parts` : ''}.`);
  return r;
}

export function registerIoCommands(context: vscode.ExtensionContext, services: Services): void {
  registerSafe(context, services, 'agentMemory.exportMemories', 'Export Memories', (target?: unknown) => exportMemories(services, target));
  registerSafe(context, services, 'agentMemory.importMemories', 'Import Memories', (source?: unknown) => importMemories(services, source));
  registerSafe(context, services, 'agentMemory.rememberUrl', 'Remember URL', (url?: unknown) => rememberUrl(services, url));
}

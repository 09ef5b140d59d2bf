/**
 * Memory: Export Memories (JSONL or Markdown, the core export formats), Memory: Import Memories
 * (JSONL memories, Markdown, or a transcript of another agent), Memory: Import Transcript, and
 * Memory: Remember Web Page.
 */
import * as vscode from 'vscode';
import { isoFromMs, systemClock } from '../../core/clock';
import { exportSnapshot, formatExport } from '../../core/capture/memoryExport';
import type { ExportFormat } from '../../core/capture/memoryExport';
import { detectTranscriptFormat, parseTranscript } from '../../core/capture/transcriptFormat';
import { importTranscript } from '../../core/capture/transcriptImport';
import type { ImportReport } from '../../core/capture/transcriptImport';
import { importTranscriptFileStreamed } from '../../core/capture/transcriptStream';
import { MemoryError } from '../../core/errors';
import { readTextFileBounded } from '../../core/ingest/boundedRead';
import { parseJsonl } from '../../core/ingest/jsonlIngest';
import type { IngestResult } from '../../core/ingest/jsonlIngest';
import { ingestUrl } from '../../core/ingest/urlIngest';
import type { UrlIngestResult } from '../../core/ingest/urlIngest';
import { decodeUtf8Strict } from '../../core/memory/textValidation';
import { parseMarkdownMemories } from '../capture/markdownImport';
import { AGENT_ID } from '../actions/memoryActions';
import type { Services } from '../host/services';
import { inform, registerSafe } from './commandUtil';

function formatOf(uri: vscode.Uri): ExportFormat | 'transcript' | undefined {
  const p = uri.path.toLowerCase();
  if (p.endsWith('.jsonl') || p.endsWith('.ndjson')) return 'jsonl';
  if (p.endsWith('.md') || p.endsWith('.markdown')) return 'markdown';
  if (p.endsWith('.json')) return 'transcript';
  return undefined;
}

function uriArg(v: unknown): vscode.Uri | undefined {
  if (v instanceof vscode.Uri) return v;
  if (typeof v === 'string' && v.trim()) return vscode.Uri.file(v);
  return undefined;
}

/** Exports every live memory to `target` (asks for a file when absent). Returns the count. */
export async function exportMemories(services: Services, target?: unknown): Promise<number | undefined> {
  const uri = uriArg(target) ?? await vscode.window.showSaveDialog({
    title: 'Export memories', saveLabel: 'Export',
    filters: { 'JSON Lines': ['jsonl'], Markdown: ['md'] },
    defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? services.context.globalStorageUri, 'memories.jsonl'),
  });
  if (!uri) return undefined;
  const format = formatOf(uri);
  if (format !== 'jsonl' && format !== 'markdown') throw new MemoryError('E_INVALID_INPUT', 'Export to a .jsonl or .md file.');
  const rt = await services.runtime();
  const snapshot = rt.store.read((db) => exportSnapshot(db, { agentId: AGENT_ID }));
  await vscode.workspace.fs.writeFile(uri, Buffer.from(formatExport(snapshot, format, isoFromMs(systemClock.now())), 'utf8'));
  inform(`Exported ${snapshot.memories.length} memories to ${vscode.workspace.asRelativePath(uri)}.`);
  return snapshot.memories.length;
}

async function readText(services: Services, uri: vscode.Uri): Promise<string> {
  const max = services.settings().capture.maxFileBytes;
  let stat: vscode.FileStat;
  try { stat = await vscode.workspace.fs.stat(uri); } catch { throw new MemoryError('E_NOT_FOUND', `Cannot read ${uri.fsPath}.`); }
  const label = vscode.workspace.asRelativePath(uri);
  if (stat.size > max) throw new MemoryError('E_INVALID_INPUT', `${label} is larger than ${max} bytes; not imported.`);
  // A local file is read with the cap enforced on bytes read (a FIFO or device reports size 0).
  if (uri.scheme === 'file') return readTextFileBounded(uri.fsPath, max, label);
  let bytes: Uint8Array;
  try { bytes = await vscode.workspace.fs.readFile(uri); } catch { throw new MemoryError('E_NOT_FOUND', `Cannot read ${uri.fsPath}.`); }
  if (bytes.length > max) throw new MemoryError('E_INVALID_INPUT', `${label} is larger than ${max} bytes; not imported.`);
  return decodeUtf8Strict(bytes, label);
}

/** A transcript of another agent (VS Code chat export, Claude Code JSONL, generic JSONL) into memories and an ended session. */
export async function importTranscriptText(services: Services, text: string, label: string, localPath?: string): Promise<ImportReport> {
  const capture = services.settings().capture;
  const rt = await services.runtime();
  const deps = { remember: rt.rememberDeps(), capture };
  const options = vscode.workspace.name ? { project: vscode.workspace.name } : {};
  // A local JSONL transcript is imported in batches (docs/transcripts.md "Large transcripts"): a
  // long one never becomes one transaction too large to journal. A VS Code export is read whole.
  const streamed = localPath === undefined ? undefined
    : await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Importing ${label}` }, (progress) =>
      importTranscriptFileStreamed(rt.store, localPath, deps, { ...options, onProgress: (p) => progress.report({ message: `${p.turnsRecorded} turns recorded` }) }));
  const report = streamed ?? await importTranscript(rt.store, parseTranscript(text, { maxTurnChars: capture.maxTurnChars }), deps, options);
  rt.poke();
  inform(`Imported the ${report.format} transcript ${label}: ${report.turns} turns, ${report.memoriesCreated} new memories${report.duplicates ? `, ${report.duplicates} already known` : ''}.`);
  return report;
}

function looksLikeMemoriesJsonl(text: string): boolean {
  try {
    detectTranscriptFormat(text);
    return false;
  } catch {
    return true;
  }
}

/** Imports memories (JSONL, Markdown) or a transcript (.json, or JSONL in a transcript format). */
export async function importMemories(services: Services, source?: unknown): Promise<IngestResult | ImportReport | undefined> {
  const uri = uriArg(source) ?? (await vscode.window.showOpenDialog({
    title: 'Import memories or a transcript', openLabel: 'Import', canSelectMany: false,
    filters: { 'Memories and transcripts': ['jsonl', 'ndjson', 'md', 'markdown', 'json'] },
  }))?.[0];
  if (!uri) return undefined;
  const format = formatOf(uri);
  if (!format) throw new MemoryError('E_INVALID_INPUT', 'Import a .jsonl file (memories or a transcript), a .md file, or a VS Code chat export (.json).');
  const text = await readText(services, uri);
  const label = vscode.workspace.asRelativePath(uri);
  if (format === 'transcript' || (format === 'jsonl' && !looksLikeMemoriesJsonl(text))) return importTranscriptText(services, text, label, uri.scheme === 'file' ? uri.fsPath : undefined);
  const inputs = format === 'jsonl' ? parseJsonl(text) : parseMarkdownMemories(text);
  if (inputs.length === 0) throw new MemoryError('E_INVALID_INPUT', `${label} holds no memories.`);
  const rt = await services.runtime();
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Importing ${inputs.length} memories` }, () => rt.ingest(inputs));
  inform(`Imported ${result.ingested} memories${result.duplicates ? ` (${result.duplicates} already known)` : ''}. Embeddings and graph links are added in the background.`);
  return result;
}

export async function importTranscriptCommand(services: Services, source?: unknown): Promise<ImportReport | undefined> {
  const uri = uriArg(source) ?? (await vscode.window.showOpenDialog({
    title: 'Import a transcript (VS Code chat export, Claude Code session, generic JSONL)', openLabel: 'Import', canSelectMany: false,
    filters: { Transcripts: ['json', 'jsonl'] },
  }))?.[0];
  if (!uri) return undefined;
  return importTranscriptText(services, await readText(services, uri), vscode.workspace.asRelativePath(uri), uri.scheme === 'file' ? uri.fsPath : undefined);
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
  registerSafe(context, services, 'agentMemory.importTranscript', 'Import Transcript', (source?: unknown) => importTranscriptCommand(services, source));
  registerSafe(context, services, 'agentMemory.rememberUrl', 'Remember URL', (url?: unknown) => rememberUrl(services, url));
}

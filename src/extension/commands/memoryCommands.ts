/**
 * Memory commands for everyday use: remember the selection, recall (quick pick → the memory),
 * pin / unpin an entity (argument, editor selection or quick pick), recall about a tree entity,
 * forget (a memory by id, an attribute's memory, or memories mentioning an entity), copy.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { MemoryError } from '../../core/errors';
import { listEntities } from '../../core/graph/graphQueries';
import type { RememberResult } from '../../core/memory/remember';
import type { RecallResult } from '../../core/recall/recallTypes';
import { snippet } from '../chat/recallFormat';
import type { GraphNode } from '../tree/graphTreeData';
import { entityMemories } from '../../core/graph/entityTreeQueries';
import { AGENT_ID, forget, recallMemories, rememberText, setEntityPinned } from '../actions/memoryActions';
import { memoryUri } from '../documents/memoryDocuments';
import type { Services } from '../host/services';
import { inform, registerSafe } from './commandUtil';
import { recallPickItems } from './recallPickText';

export interface RecallCommandOptions {
  /** false: return the results without showing the quick pick (programmatic use). */
  readonly showPicker?: boolean;
}

async function openMemory(id: string): Promise<void> {
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(memoryUri(id)), { preview: true });
}

export async function rememberSelection(services: Services): Promise<RememberResult | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new MemoryError('E_USAGE', 'Open a file and select the text to remember.');
  const sel = editor.selection;
  const text = editor.document.getText(sel.isEmpty ? editor.document.lineAt(sel.active.line).range : sel);
  if (!text.trim()) throw new MemoryError('E_INVALID_INPUT', 'The selection is empty; select the text to remember.');
  const rt = await services.runtime();
  const hash = createHash('sha1').update(text).digest('hex').slice(0, 8);
  const r = await rememberText(rt, text, {
    sourceType: 'editor-selection', type: 'fact',
    sourceId: `${editor.document.uri.toString()}#L${sel.start.line + 1}-L${sel.end.line + 1}:${hash}`,
    ...(vscode.workspace.name ? { project: vscode.workspace.name } : {}),
  });
  inform(r.duplicate ? 'Agent Memory already remembers that selection.' : `Remembered the selection (${snippet(text, 60)}).`);
  return r;
}

export async function recallCommand(services: Services, query?: unknown, options: RecallCommandOptions = {}): Promise<RecallResult[] | undefined> {
  const q = typeof query === 'string' && query.trim() ? query : await vscode.window.showInputBox({ title: 'Recall from memory', prompt: 'What do you want to recall?', placeHolder: 'which database do we use?' });
  if (!q?.trim()) return undefined;
  const rt = await services.runtime();
  const results = await recallMemories(rt, q);
  if (options.showPicker === false) return results;
  if (results.length === 0) { inform(`No memory matches "${snippet(q, 60)}".`); return results; }
  const items = recallPickItems(results).map((i): vscode.QuickPickItem & { id?: string } => ('separator' in i ? { label: i.label, kind: vscode.QuickPickItemKind.Separator } : i));
  const pick = await vscode.window.showQuickPick(items, { title: `Memories for "${snippet(q, 60)}"`, matchOnDetail: true });
  if (pick?.id) await openMemory(pick.id);
  return results;
}

function entityArg(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg.trim()) return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { entityId?: unknown }).entityId === 'string') return (arg as { entityId: string }).entityId;
  return undefined;
}

async function pickEntity(services: Services, pinned: boolean): Promise<string | undefined> {
  const rt = await services.runtime();
  const entities = rt.store.read((db) => listEntities(db, { agentId: AGENT_ID })).filter((e) => e.pinned !== pinned);
  if (entities.length === 0) {
    inform(pinned ? 'There are no unpinned entities yet; remember something first.' : 'No entity is pinned.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(entities.map((e) => ({ label: e.name, description: `${e.type} · ${e.mentions} mentions`, id: e.id })), { title: pinned ? 'Pin an entity' : 'Unpin an entity' });
  return pick?.id;
}

export async function setPinnedCommand(services: Services, arg: unknown, pinned: boolean): Promise<boolean | undefined> {
  let target = entityArg(arg);
  const editor = vscode.window.activeTextEditor;
  if (!target && arg === undefined && editor && !editor.selection.isEmpty) target = editor.document.getText(editor.selection).trim().slice(0, 200);
  target ??= await pickEntity(services, pinned);
  if (!target) return undefined;
  const r = await setEntityPinned(await services.runtime(), target, pinned);
  vscode.window.setStatusBarMessage(r.changed ? `${pinned ? 'Pinned' : 'Unpinned'} ${r.name}` : `${r.name} was already ${pinned ? 'pinned' : 'unpinned'}`, 3000);
  return r.pinned;
}

async function forgetCommand(services: Services, arg: unknown): Promise<number> {
  const rt = await services.runtime();
  let ids: string[] = [];
  if (typeof arg === 'string' && arg.trim()) ids = [arg.trim()];
  else if (isNode(arg, 'attribute') && arg.memoryId) ids = [arg.memoryId];
  else if (isNode(arg, 'entity')) {
    const mems = rt.store.read((db) => entityMemories(db, arg.entityId));
    const picks = await vscode.window.showQuickPick(mems.map((m) => ({ label: snippet(m.content, 100), description: m.createdAt.slice(0, 10), id: m.id })), { canPickMany: true, title: `Forget memories that mention ${arg.label}` });
    ids = (picks ?? []).map((p) => p.id);
  } else {
    const id = await vscode.window.showInputBox({ title: 'Forget a memory', prompt: 'Memory id (shown in recall results and memory documents)' });
    ids = id?.trim() ? [id.trim()] : [];
  }
  if (ids.length === 0) return 0;
  const ok = await vscode.window.showWarningMessage(`Forget ${ids.length === 1 ? 'this memory' : `${ids.length} memories`}? This deletes ${ids.length === 1 ? 'it' : 'them'} with vectors, hints and graph traces and cannot be undone.`, { modal: true }, 'Forget');
  if (ok !== 'Forget') return 0;
  for (const id of ids) await forget(rt, id);
  inform(`Forgot ${ids.length === 1 ? '1 memory' : `${ids.length} memories`}.`);
  return ids.length;
}

function isNode<K extends GraphNode['kind']>(v: unknown, kind: K): v is Extract<GraphNode, { kind: K }> {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === kind;
}

export function registerMemoryCommands(context: vscode.ExtensionContext, services: Services): void {
  registerSafe(context, services, 'agentMemory.rememberSelection', 'Remember Selection', () => rememberSelection(services));
  registerSafe(context, services, 'agentMemory.recall', 'Recall', (query?: unknown, options?: RecallCommandOptions) => recallCommand(services, query, options));
  registerSafe(context, services, 'agentMemory.pinEntity', 'Pin Entity', (arg?: unknown) => setPinnedCommand(services, arg, true));
  registerSafe(context, services, 'agentMemory.unpinEntity', 'Unpin Entity', (arg?: unknown) => setPinnedCommand(services, arg, false));
  registerSafe(context, services, 'agentMemory.forgetMemory', 'Forget', (arg?: unknown) => forgetCommand(services, arg));
  registerSafe(context, services, 'agentMemory.recallAboutEntity', 'Recall About', async (node?: unknown) => {
    const name = isNode(node, 'entity') ? node.label : undefined;
    return recallCommand(services, name);
  });
  registerSafe(context, services, 'agentMemory.openMemory', 'Open Memory', async (id?: unknown) => { if (typeof id === 'string') await openMemory(id); });
  registerSafe(context, services, 'agentMemory.copyNode', 'Copy', async (node?: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    const n = node as GraphNode;
    await vscode.env.clipboard.writeText(n.kind === 'attribute' ? n.tooltip : n.label);
    vscode.window.setStatusBarMessage('Copied to the clipboard', 2000);
  });
}

/**
 * The workspace gazetteer (docs/extraction.md, "Workspace gazetteer"): once the store is open, the
 * names of the open folders — dependencies of their manifests, file and folder names — and the
 * symbols the editor's providers know are handed to extraction, so memories about this project
 * name its dependencies and modules as entities. Re-read when the folders change. Only trusted
 * workspaces are read (the manifests are the workspace's files).
 */
import * as vscode from 'vscode';
import type { WorkspaceNames } from '../../core/config/extractionConfig';
import { readWorkspaceNames } from '../../core/extraction/workspaceNames';
import type { Services } from '../host/services';

/** Symbol kinds that name something a person writes about (classes, functions, ...), not locals. */
const NAMED_KINDS = new Set([vscode.SymbolKind.Class, vscode.SymbolKind.Interface, vscode.SymbolKind.Function, vscode.SymbolKind.Enum, vscode.SymbolKind.Module, vscode.SymbolKind.Namespace]);
const MAX_SYMBOLS = 2000;

/** Symbols the editor's workspace-symbol providers return for an empty query (some return none). */
async function editorSymbols(): Promise<string[]> {
  try {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', '');
    return [...new Set((found ?? []).filter((s) => NAMED_KINDS.has(s.kind) && s.name.length >= 4).map((s) => s.name))].slice(0, MAX_SYMBOLS);
  } catch {
    return [];
  }
}

/** Reads every open file-system folder's names (core readWorkspaceNames is bounded: depth 4, 4,000 entries). */
export async function collectWorkspaceNames(): Promise<WorkspaceNames> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const symbols = await editorSymbols();
  const deps = new Set<string>(), names = new Set<string>(symbols);
  for (const f of folders) {
    // Yield between folders: each read is synchronous but bounded.
    await new Promise((resolve) => setImmediate(resolve));
    const w = readWorkspaceNames(f.uri.fsPath);
    for (const d of w.dependencies) deps.add(d);
    for (const n of w.names) names.add(n);
  }
  return { dependencies: [...deps].sort(), names: [...names].sort() };
}

export function registerWorkspaceGazetteer(context: vscode.ExtensionContext, services: Services): void {
  let running: Promise<void> | undefined;
  const refresh = (): void => {
    if (!vscode.workspace.isTrusted || running) return;
    running = collectWorkspaceNames()
      .then((names) => {
        services.logger.info(`workspace gazetteer: ${names.dependencies.length} dependencies, ${names.names.length} file, folder and symbol names`);
        services.setWorkspaceNames(names);
      }, (e: unknown) => services.logger.warn(`workspace gazetteer: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => { running = undefined; });
  };
  let started = false;
  context.subscriptions.push(
    // Lazily: the first time the store opens (activation stays fast), then when folders change.
    services.onDidOpenRuntime(() => { if (!started) { started = true; refresh(); } }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => { if (started) refresh(); }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => { if (started) refresh(); }),
  );
}

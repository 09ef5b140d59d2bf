/**
 * The watched import folder (agentMemory.capture.importFolder, off by default): transcripts
 * dropped or appended there are imported by the core's ImportFolderWatcher. VS Code supplies the
 * file watching. Runs only in a trusted workspace with capture enabled; restarts when the folder
 * setting, trust or the runtime changes.
 */
import * as vscode from 'vscode';
import type { ImportFolderWatcher, WatchFolder } from '../../core/capture/importFolderWatcher';
import { userMessage } from '../../core/errors';
import type { Services } from '../host/services';
import { createImportFolderWatcher, importFolderTarget } from './importFolderPlan';
import type { ImportFolderTarget } from './importFolderPlan';

const watchWithVscode: WatchFolder = (folder, onChange) => {
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '*'));
  const subs = [watcher, watcher.onDidCreate((u) => onChange(u.fsPath)), watcher.onDidChange((u) => onChange(u.fsPath))];
  return { dispose: () => { for (const s of subs) s.dispose(); } };
};

export class ImportFolder implements vscode.Disposable {
  private watcher: { key: string; rt: ImportFolderTarget['rt']; watcher: ImportFolderWatcher } | undefined;

  constructor(private readonly services: Services) {}

  /** Starts, restarts or stops watching to match the settings, trust and the open runtime. */
  async sync(): Promise<void> {
    const settings = this.services.settings();
    const wanted = importFolderTarget(settings, this.services.captureEnabled(), this.services.current());
    if (this.watcher && wanted && this.watcher.key === wanted.key && this.watcher.rt === wanted.rt) return;
    this.stop();
    if (!wanted) return;
    const watcher = createImportFolderWatcher(wanted, settings, watchWithVscode, this.services.host.logger);
    this.watcher = { key: wanted.key, rt: wanted.rt, watcher };
    this.services.logger.info(`watching ${wanted.folder} for transcripts to import`);
    await watcher.start();
  }

  stop(): void {
    this.watcher?.watcher.dispose();
    this.watcher = undefined;
  }

  dispose(): void { this.stop(); }
}

export function registerImportFolder(context: vscode.ExtensionContext, services: Services): ImportFolder {
  const folder = new ImportFolder(services);
  const sync = (): void => { void folder.sync().catch((e: unknown) => services.logger.warn(`import folder: ${userMessage(e)}`)); };
  context.subscriptions.push(
    folder,
    services.onDidOpenRuntime(sync),
    vscode.workspace.onDidGrantWorkspaceTrust(sync),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('agentMemory.capture')) sync(); }),
  );
  return folder;
}

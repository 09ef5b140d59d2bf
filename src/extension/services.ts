import * as vscode from 'vscode';
import * as path from 'node:path';
import type { HostContext } from '../core/hostContext';
import { noProgress } from '../core/hostContext';
import { systemClock } from '../core/clock';

/** Everything the register* functions share. Built once in activate(). */
export interface Services extends vscode.Disposable {
  readonly logger: vscode.LogOutputChannel;
  readonly host: HostContext;
  readonly extensionUri: vscode.Uri;
}

export function createServices(context: vscode.ExtensionContext): Services {
  const logger = vscode.window.createOutputChannel('Agent Memory', { log: true });
  const configured = vscode.workspace.getConfiguration('agentMemory').get<string>('store.path', '').trim();
  const storeDir = configured || path.join(context.globalStorageUri.fsPath, 'store');
  const host: HostContext = {
    paths: {
      storeDir,
      bundledModelsDir: path.join(context.extensionUri.fsPath, 'models'),
      cacheDir: path.join(context.globalStorageUri.fsPath, 'cache'),
    },
    logger,
    clock: systemClock,
    llm: undefined,
    progress: noProgress,
  };
  return {
    logger,
    host,
    extensionUri: context.extensionUri,
    dispose: () => logger.dispose(),
  };
}

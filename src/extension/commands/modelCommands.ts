/**
 * Memory: Download Embedding Model — plans the download first (shows the size and asks), then
 * downloads with a cancellable progress notification (checksums verified, atomic install by the
 * core downloader), and offers to switch agentMemory.models.embeddingModel to it.
 */
import * as vscode from 'vscode';
import { downloadModel, downloadOptionsFor, planModelDownload } from '../../core/models/modelDownload';
import type { DownloadProgress } from '../../core/models/modelDownload';
import { downloadedModelDir, isHubModelId } from '../../core/models/modelPaths';
import type { Services } from '../host/services';
import { registerSafe } from './commandUtil';
import { downloadQuestion, progressMessage } from './modelDownloadText';

/** Suggestions in the quick pick (sentence-embedding models in transformers.js ONNX layout). */
export const SUGGESTED_MODELS = [
  { id: 'Xenova/all-MiniLM-L6-v2', detail: '384 dimensions, English, fast' },
  { id: 'Xenova/bge-small-en-v1.5', detail: '384 dimensions, English, strong retrieval' },
  { id: 'Xenova/multilingual-e5-small', detail: '384 dimensions, multilingual' },
] as const;

async function askRepo(): Promise<string | undefined> {
  const other = '$(edit) Other model id…';
  const pick = await vscode.window.showQuickPick([...SUGGESTED_MODELS.map((m) => ({ label: m.id, detail: m.detail })), { label: other, detail: 'org/name on the model hub' }], { title: 'Download an embedding model' });
  if (!pick) return undefined;
  if (pick.label !== other) return pick.label;
  return vscode.window.showInputBox({ title: 'Model id', placeHolder: 'org/name', validateInput: (v) => (isHubModelId(v.trim()) ? undefined : 'Enter a model id like "Xenova/all-MiniLM-L6-v2"') });
}

/**
 * Options for programmatic callers (other commands, tests):
 * `executeCommand('agentMemory.downloadEmbeddingModel', { repo, confirmed: true })`.
 */
export interface DownloadCommandOptions {
  readonly repo: string;
  /** The caller already showed the size and got an OK: skip the size-confirmation modal. */
  readonly confirmed?: boolean;
  /** Also told about each chunk (besides the progress notification). */
  readonly onProgress?: (progress: DownloadProgress) => void;
}

function parseArg(arg: unknown): { repo?: string; confirmed: boolean; onProgress?: (p: DownloadProgress) => void } {
  if (typeof arg === 'string') return arg.trim() ? { repo: arg.trim(), confirmed: false } : { confirmed: false };
  if (!arg || typeof arg !== 'object') return { confirmed: false };
  const o = arg as Partial<DownloadCommandOptions>;
  return {
    ...(typeof o.repo === 'string' && o.repo.trim() ? { repo: o.repo.trim() } : {}),
    confirmed: o.confirmed === true,
    ...(typeof o.onProgress === 'function' ? { onProgress: o.onProgress } : {}),
  };
}

/**
 * Returns the installed folder, or undefined when the user cancelled. `arg` is a model id (the
 * size is still confirmed in a modal), DownloadCommandOptions, or nothing (quick pick, then the
 * modal — the Command Palette path). Only `{ confirmed: true }` skips the size confirmation.
 */
export async function downloadEmbeddingModel(services: Services, arg?: unknown): Promise<string | undefined> {
  const parsed = parseArg(arg);
  const repo = parsed.repo ?? await askRepo();
  if (!repo) return undefined;
  const options = downloadOptionsFor(services.settings().models);
  const plan = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking ${repo}…` }, () => planModelDownload(repo, options));
  if (!parsed.confirmed) {
    const go = 'Download';
    const ok = await vscode.window.showInformationMessage(downloadQuestion(plan), { modal: true, detail: 'The model is stored in the extension\'s cache folder and used only on this machine.' }, go);
    if (ok !== go) return undefined;
  }
  const target = downloadedModelDir(services.host.paths.cacheDir, repo);
  const dir = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Downloading ${repo}`, cancellable: true }, async (progress, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    let reported = 0;
    try {
      return await downloadModel(plan, target, {
        ...options, signal: abort.signal,
        onProgress: (p) => {
          parsed.onProgress?.(p);
          const pct = p.totalBytes > 0 ? (100 * p.bytes) / p.totalBytes : 0;
          progress.report({ message: progressMessage(p), increment: Math.max(0, pct - reported) });
          reported = Math.max(reported, pct);
        },
      });
    } finally {
      sub.dispose();
    }
  });
  const use = 'Use it';
  void vscode.window.showInformationMessage(`Downloaded ${repo} to ${dir}.`, use).then(async (pick) => {
    if (pick === use) await vscode.workspace.getConfiguration('agentMemory').update('models.embeddingModel', repo, vscode.ConfigurationTarget.Global);
  });
  return dir;
}

export function registerModelCommands(context: vscode.ExtensionContext, services: Services): void {
  registerSafe(context, services, 'agentMemory.downloadEmbeddingModel', 'Download Embedding Model', (arg?: unknown) => downloadEmbeddingModel(services, arg));
}

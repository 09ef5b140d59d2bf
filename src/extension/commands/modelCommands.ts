/**
 * Memory: Download Embedding Model — plans the download first (shows the size and asks), then
 * downloads with a cancellable progress notification (checksums verified, atomic install by the
 * core downloader), and offers to switch agentMemory.models.embeddingModel to it.
 */
import * as vscode from 'vscode';
import { downloadModel, planModelDownload } from '../../core/models/modelDownload';
import { downloadedModelDir, isHubModelId } from '../../core/models/modelPaths';
import type { Services } from '../services';
import { registerSafe } from './commandUtil';

/** Suggestions in the quick pick (sentence-embedding models in transformers.js ONNX layout). */
export const SUGGESTED_MODELS = [
  { id: 'Xenova/all-MiniLM-L6-v2', detail: '384 dimensions, English, fast' },
  { id: 'Xenova/bge-small-en-v1.5', detail: '384 dimensions, English, strong retrieval' },
  { id: 'Xenova/multilingual-e5-small', detail: '384 dimensions, multilingual' },
] as const;

const MIB = 1024 * 1024;

function size(bytes: number): string {
  return bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

async function askRepo(): Promise<string | undefined> {
  const other = '$(edit) Other model id…';
  const pick = await vscode.window.showQuickPick([...SUGGESTED_MODELS.map((m) => ({ label: m.id, detail: m.detail })), { label: other, detail: 'org/name on the model hub' }], { title: 'Download an embedding model' });
  if (!pick) return undefined;
  if (pick.label !== other) return pick.label;
  return vscode.window.showInputBox({ title: 'Model id', placeHolder: 'org/name', validateInput: (v) => (isHubModelId(v.trim()) ? undefined : 'Enter a model id like "Xenova/all-MiniLM-L6-v2"') });
}

/** Returns the installed folder, or undefined when the user cancelled. */
export async function downloadEmbeddingModel(services: Services, repoArg?: unknown): Promise<string | undefined> {
  const repo = typeof repoArg === 'string' && repoArg.trim() ? repoArg.trim() : await askRepo();
  if (!repo) return undefined;
  const models = services.settings().models;
  const options = { baseUrl: models.hubUrl, timeoutMs: models.downloadTimeoutMs };
  const plan = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking ${repo}…` }, () => planModelDownload(repo, options));
  const go = 'Download';
  const ok = await vscode.window.showInformationMessage(`Download ${repo} (${size(plan.totalBytes)}, ${plan.files.length} files) from ${models.hubUrl}?`, { modal: true, detail: 'The model is stored in the extension\'s cache folder and used only on this machine.' }, go);
  if (ok !== go) return undefined;
  const target = downloadedModelDir(services.host.paths.cacheDir, repo);
  const dir = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Downloading ${repo}`, cancellable: true }, async (progress, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    let reported = 0;
    try {
      return await downloadModel(plan, target, {
        ...options, signal: abort.signal,
        onProgress: (p) => {
          const pct = p.totalBytes > 0 ? (100 * p.bytes) / p.totalBytes : 0;
          progress.report({ message: `${size(p.bytes)} of ${size(p.totalBytes)} (${p.file})`, increment: Math.max(0, pct - reported) });
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
  registerSafe(context, services, 'agentMemory.downloadEmbeddingModel', 'Download Embedding Model', (repo?: unknown) => downloadEmbeddingModel(services, repo));
}

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaptureConfig } from '../config/captureConfig';
import { userMessage } from '../errors';
import type { Logger } from '../logger';
import type { Disposable, MemoryStore } from '../store/storeTypes';
import type { ImportTranscriptDeps } from './transcriptImport';
import { importWatchedFile, isWatchedFile } from './watchedFileImport';
import type { FileReader, WatchedImportResult } from './watchedFileImport';

/**
 * The watched import folder (issue 8, item 3; off unless agentMemory.capture.importFolder is set):
 * transcript files dropped or appended in the folder are imported, each after capture.watchDebounceMs
 * of quiet, one at a time, JSONL files incrementally (see watchedFileImport.ts). The host supplies
 * the file watching (the extension: a vscode.FileSystemWatcher; tests: a fake), so this stays core.
 */
/** Starts watching `folder`; `onChange` receives the absolute path of every created or changed file. */
export type WatchFolder = (folder: string, onChange: (path: string) => void) => Disposable;
/** Schedules `fn` after `ms`; returns a cancel function (default setTimeout). */
export type Schedule = (fn: () => void, ms: number) => () => void;

export interface ImportFolderWatcherDeps {
  readonly store: MemoryStore;
  readonly folder: string;
  readonly watch: WatchFolder;
  readonly importDeps: ImportTranscriptDeps;
  readonly capture: CaptureConfig;
  readonly logger: Logger;
  /** Project for every imported file (default: each transcript's own). */
  readonly project?: string;
  readonly fs?: FileReader;
  /** Lists the folder's files at start (default: readdir, files only). */
  readonly listFiles?: (folder: string) => Promise<string[]>;
  readonly schedule?: Schedule;
  readonly onImported?: (result: WatchedImportResult) => void;
  readonly onError?: (path: string, error: unknown) => void;
}

const defaultSchedule: Schedule = (fn, ms) => {
  const t = setTimeout(fn, ms);
  t.unref?.();
  return () => clearTimeout(t);
};

async function listFolder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(folder, e.name)).sort();
}

export class ImportFolderWatcher {
  private readonly pending = new Map<string, () => void>();
  private queue: Promise<void> = Promise.resolve();
  private subscription: Disposable | undefined;
  private disposed = false;

  constructor(private readonly deps: ImportFolderWatcherDeps) {}

  /** Starts watching and queues every transcript already in the folder (imports what changed while closed). */
  async start(): Promise<void> {
    if (this.subscription || this.disposed) return;
    this.subscription = this.deps.watch(this.deps.folder, (path) => this.changed(path));
    let files: string[] = [];
    try {
      files = await (this.deps.listFiles ?? listFolder)(this.deps.folder);
    } catch (e) {
      this.deps.logger.warn(`import folder ${this.deps.folder}: cannot list it (${userMessage(e)})`);
    }
    for (const f of files) if (isWatchedFile(f)) this.enqueue(f);
  }

  /** A created or changed file: imported after the debounce, restarted by every further change. */
  changed(path: string): void {
    if (this.disposed || !isWatchedFile(path)) return;
    this.pending.get(path)?.();
    const cancel = (this.deps.schedule ?? defaultSchedule)(() => { this.pending.delete(path); this.enqueue(path); }, this.deps.capture.watchDebounceMs);
    this.pending.set(path, cancel);
  }

  /** Imports every debounced file now and waits until all queued imports are done. */
  async flush(): Promise<void> {
    const paths = [...this.pending.keys()];
    for (const p of paths) { this.pending.get(p)?.(); this.pending.delete(p); this.enqueue(p); }
    await this.queue;
  }

  dispose(): void {
    this.disposed = true;
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
    this.subscription?.dispose();
    this.subscription = undefined;
  }

  private enqueue(path: string): void {
    this.queue = this.queue.then(() => this.importOne(path));
  }

  private async importOne(path: string): Promise<void> {
    if (this.disposed) return;
    try {
      const result = await importWatchedFile(this.deps.store, path, { ...this.deps.importDeps, ...(this.deps.fs ? { fs: this.deps.fs } : {}), ...(this.deps.project ? { project: this.deps.project } : {}) }, this.deps.capture);
      if (result.report) this.deps.logger.info(`import folder: ${path}: ${result.report.turns} turn(s), ${result.report.memoriesCreated} new memories`);
      this.deps.onImported?.(result);
    } catch (e) {
      this.deps.logger.warn(`import folder: ${path} not imported (${userMessage(e)})`);
      try { this.deps.onError?.(path, e); } catch { /* a failing listener must not break the queue */ }
    }
  }
}

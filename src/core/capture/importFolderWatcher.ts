import { lstat, readdir, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { CaptureConfig } from '../config/captureConfig';
import { MemoryError, userMessage } from '../errors';
import type { Logger } from '../logger';
import type { Disposable, MemoryStore } from '../store/storeTypes';
import type { ImportTranscriptDeps } from './transcriptImport';
import { importWatchedFile, isWatchedFile } from './watchedFileImport';
import type { FileReader, WatchedImportResult } from './watchedFileImport';

/**
 * The watched import folder (off unless agentMemory.capture.importFolder is set):
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

/** Files and links of the folder (links are checked like change events are, in importOne). */
async function listFolder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  return entries.filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => join(folder, e.name)).sort();
}

/**
 * Where `path` really is, when that is a regular file inside `folder` (links resolved on both
 * sides); undefined for anything that leads out of the folder or is not a file. Startup and
 * change events both go through this, so a link to /etc/passwd is never read.
 */
export async function resolveInsideFolder(folder: string, path: string): Promise<string | undefined> {
  let root: string;
  let real: string;
  try {
    root = await realpath(folder);
    real = await realpath(path);
  } catch {
    return undefined;
  }
  if (!real.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  try {
    return (await lstat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A failure as it is logged: the code and where (line, field, byte), never a message that might
 * quote the file (values such as a bad date are echoed in user-facing messages).
 */
export function describeFailure(e: unknown): string {
  if (!(e instanceof MemoryError)) return 'unexpected error';
  const d = e.details ?? {};
  const where = ['line', 'field', 'byte', 'size'].filter((k) => d[k] !== undefined).map((k) => `${k} ${String(d[k])}`);
  return `${e.code}${where.length ? ` at ${where.join(', ')}` : ''}`;
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
    const real = await resolveInsideFolder(this.deps.folder, path);
    if (real === undefined) {
      this.deps.logger.warn(`import folder: ${path} skipped (not a file inside ${this.deps.folder}; links out of the folder are never followed)`);
      return;
    }
    try {
      const result = await importWatchedFile(this.deps.store, real, { ...this.deps.importDeps, ...(this.deps.fs ? { fs: this.deps.fs } : {}), ...(this.deps.project ? { project: this.deps.project } : {}) }, this.deps.capture);
      if (result.report) this.deps.logger.info(`import folder: ${path}: ${result.report.turns} turn(s), ${result.report.memoriesCreated} new memories`);
      this.deps.onImported?.(result);
    } catch (e) {
      this.deps.logger.warn(`import folder: ${path} not imported (${describeFailure(e)})`);
      try { this.deps.onError?.(path, e); } catch { /* a failing listener must not break the queue */ }
    }
  }
}

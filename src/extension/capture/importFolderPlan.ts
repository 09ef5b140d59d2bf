/**
 * The import folder's decisions, free of `vscode` so they are unit-tested: whether to watch (the
 * agentMemory.capture.importFolder setting, capture allowed, an open engine) and the core
 * ImportFolderWatcher the extension runs on that engine (importFolder.ts supplies file watching).
 */
import { ImportFolderWatcher } from '../../core/capture/importFolderWatcher';
import type { WatchFolder } from '../../core/capture/importFolderWatcher';
import type { MemorySettings } from '../../core/config/memorySettings';
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import type { Logger } from '../../core/logger';
import type { MemoryStore } from '../../core/store/storeTypes';

export interface ImportFolderTarget {
  readonly folder: string;
  readonly rt: MemoryEngine<MemoryStore>;
  /** Changes when a capture setting changes (the watcher is then rebuilt). */
  readonly key: string;
}

/** What to watch now, or undefined (no folder set, capture not allowed, no engine open). */
export function importFolderTarget(settings: MemorySettings, captureAllowed: boolean, rt: MemoryEngine<MemoryStore> | undefined): ImportFolderTarget | undefined {
  const folder = settings.capture.importFolder;
  return folder && rt && captureAllowed ? { folder, rt, key: JSON.stringify(settings.capture) } : undefined;
}

/** The watcher for a target: imports through the engine's write path and wakes its job worker. */
export function createImportFolderWatcher(target: ImportFolderTarget, settings: MemorySettings, watch: WatchFolder, logger: Logger): ImportFolderWatcher {
  const { rt } = target;
  const capture = settings.capture;
  return new ImportFolderWatcher({
    store: rt.store, folder: target.folder, watch, capture, logger,
    importDeps: { remember: rt.rememberDeps(), capture },
    onImported: (r) => { if (r.report?.memoriesCreated) rt.poke(); },
  });
}

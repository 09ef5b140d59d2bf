/** Where the extension keeps its store, free of `vscode` so it is unit-tested. */
import { join } from 'node:path';
import type { MemorySettings } from '../../core/config/memorySettings';

/** agentMemory.store.path when set, else `store` in the extension's global storage folder. */
export function storeDirFor(settings: Pick<MemorySettings, 'storePath'>, globalStorageDir: string): string {
  return settings.storePath || join(globalStorageDir, 'store');
}

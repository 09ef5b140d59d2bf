import type { Clock } from '../../../src/core/clock';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { MemoryEngine } from '../../../src/core/engine/memoryEngine';
import type { LlmClient, SecretStore } from '../../../src/core/hostContext';
import { noProgress } from '../../../src/core/hostContext';
import { silentLogger } from '../../../src/core/logger';
import type { Embedder } from '../../../src/core/models/embedder';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import type { ServerOpener } from '../../../src/core/team/teamServerRecall';

/**
 * The engine on a store a test opened, assembled from settings exactly as every host assembles it
 * (the one composition root): `values` are `agentMemory.*` settings without the prefix, on top of
 * the table defaults. On-demand mode starts no timers; the test closes the store itself.
 */
export function engineOnStore<T extends MemoryStore>(store: T, clock: Clock, values: Readonly<Record<string, unknown>> = {}, extra: { readonly llm?: LlmClient; readonly embedder?: Embedder; readonly newId?: () => string; readonly secrets?: SecretStore; readonly teamServer?: ServerOpener } = {}): MemoryEngine<T> {
  return MemoryEngine.onStore(store, { paths: { storeDir: '', bundledModelsDir: '', cacheDir: '' }, logger: silentLogger, clock, llm: extra.llm, progress: noProgress, ...(extra.secrets ? { secrets: extra.secrets } : {}) },
    readMemorySettings((k) => values[k]), { mode: 'onDemand', embedder: () => extra.embedder, ...(extra.newId ? { newId: extra.newId } : {}), ...(extra.teamServer ? { teamServer: extra.teamServer } : {}) });
}

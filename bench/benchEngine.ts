/**
 * What the quality bench needs to ask its stores through the engine users run (MemoryEngine, the
 * core's composition root): a host for an in-memory store, a clock the bench can set per question,
 * an embedder that keeps vectors in memory and leaves the shared model to its owner, and engine
 * settings from settings-table overrides (the keys users set, `search.facetsEnabled`, ...) plus,
 * for the few recall switches that have no setting, a search-configuration patch.
 */
import { join } from 'node:path';
import type { Clock } from '../src/core/clock';
import { resolveSearchConfig } from '../src/core/config/searchConfig';
import type { SearchConfigInput } from '../src/core/config/searchConfig';
import { findSetting } from '../src/core/config/settingsTable';
import { defaultEngineSettings } from '../src/core/engine/engineConfig';
import type { EngineSettings } from '../src/core/engine/engineConfig';
import { MemoryEngine } from '../src/core/engine/memoryEngine';
import { noProgress } from '../src/core/hostContext';
import type { HostContext } from '../src/core/hostContext';
import { createStreamLogger } from '../src/core/logger';
import type { Embedder } from '../src/core/models/embedder';
import type { MemoryStore } from '../src/core/store/storeTypes';

/** System time until a question sets its own "now" (the store is built on real time, asked at the question's). */
export class BenchClock implements Clock {
  private fixed: number | undefined;
  now(): number { return this.fixed ?? Date.now(); }
  set(ms: number): void { this.fixed = ms; }
}

export function benchHost(store: MemoryStore, clock: Clock): HostContext {
  return {
    paths: { storeDir: store.dir, bundledModelsDir: join(__dirname, '..', 'models'), cacheDir: join(__dirname, '..', '.cache') },
    logger: createStreamLogger('error'), clock, llm: undefined, progress: noProgress,
  };
}

/**
 * Keeps every vector it returns in `cache` (the questions are embedded once, then every variant
 * gets the cached vector). Disposing it leaves `inner` alone: one model serves every store.
 */
export function cachingEmbedder(inner: Pick<Embedder, 'id' | 'dims' | 'embed'>, cache: Map<string, Float32Array>): Embedder {
  return {
    id: inner.id, dims: inner.dims,
    embed: async (texts, options) => {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      if (missing.length) (await inner.embed(missing, options)).forEach((vec, i) => cache.set(missing[i] as string, vec));
      return texts.map((t) => cache.get(t) as Float32Array);
    },
    dispose: async () => undefined,
  };
}

/** Settings-table keys set to values (unknown keys are an error: a typo would measure the defaults). */
export type SettingOverrides = Readonly<Record<string, unknown>>;

/** The engine settings a user with these settings runs on, plus a patch for switches without a setting. */
export function benchSettings(overrides: SettingOverrides = {}, search?: SearchConfigInput): EngineSettings {
  for (const key of Object.keys(overrides)) if (!findSetting(key)) throw new Error(`bench: no setting ${key} in the settings table`);
  const settings = defaultEngineSettings((key) => overrides[key]);
  if (!search) return settings;
  const base = settings.search as unknown as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(search)) merged[k] = typeof v === 'object' && v !== null ? { ...(base[k] as object), ...v } : v;
  return { ...settings, search: resolveSearchConfig(merged as SearchConfigInput) };
}

/** The default value of a setting (from the table) or of a search switch without one. */
export function settingDefault(key: string): unknown {
  const spec = findSetting(key);
  if (!spec) throw new Error(`bench: no setting ${key} in the settings table`);
  return spec.default;
}

/** An engine on a store the bench built, in on-demand mode (no background worker), on `embedder`. */
export function benchEngine(store: MemoryStore, clock: Clock, embedder: Embedder, settings: EngineSettings = benchSettings()): MemoryEngine<MemoryStore> {
  return MemoryEngine.onStore(store, benchHost(store, clock), settings, { mode: 'onDemand', embedder: () => embedder });
}


/**
 * The settings an engine runs on: the typed configuration the settings table derives
 * (src/core/config/memorySettings.ts, docs/configuration.md), under the engine's name.
 */
import { readMemorySettings } from '../config/memorySettings';
import type { MemorySettings } from '../config/memorySettings';

/** Every setting the engine honours, as plain values (the hosts read them: VS Code settings, CLI). */
export type EngineSettings = MemorySettings;

/** The documented defaults of every setting (what a host with no settings of its own runs on). */
export function defaultEngineSettings(overrides: (key: string) => unknown = () => undefined): EngineSettings {
  return readMemorySettings(overrides);
}

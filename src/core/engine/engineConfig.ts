/**
 * The one place the engine learns what its settings look like. Today the settings type and its
 * reader live beside the VS Code settings mapping (vscode-free); when they move into
 * `src/core/config/`, only these two lines change.
 */
import { readMemorySettings } from '../config/memorySettings';
import type { MemorySettings } from '../config/memorySettings';

/** Every setting the engine honours, as plain values (the hosts read them: VS Code settings, CLI). */
export type EngineSettings = MemorySettings;

/** The documented defaults of every setting (what a host with no settings of its own runs on). */
export function defaultEngineSettings(overrides: (key: string) => unknown = () => undefined): EngineSettings {
  return readMemorySettings(overrides);
}

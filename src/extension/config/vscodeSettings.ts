/**
 * The extension's settings reader: VS Code's `agentMemory` configuration fed through the core's
 * table-driven reader (src/core/config/memorySettings.ts). Settings a workspace must not change
 * are read from the user's levels only (userScopedGetter).
 */
import * as vscode from 'vscode';
import { readMemorySettings, userScopedGetter } from '../../core/config/memorySettings';
import type { MemorySettings } from '../../core/config/memorySettings';

/** The current settings; each bad value is reported through `onProblem` (key, accepted range) and gets its default. */
export function readVsCodeSettings(onProblem: (message: string) => void): MemorySettings {
  const cfg = vscode.workspace.getConfiguration('agentMemory');
  return readMemorySettings(userScopedGetter((key) => cfg.get(key), (key) => cfg.inspect(key)), onProblem);
}

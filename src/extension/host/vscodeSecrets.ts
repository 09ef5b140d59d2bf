/** The core's SecretStore (src/core/hostContext.ts) on VS Code's SecretStorage (the OS keychain). */
import type * as vscode from 'vscode';
import type { SecretStore } from '../../core/hostContext';

export function vscodeSecretStore(secrets: vscode.SecretStorage): SecretStore {
  return {
    get: async (key) => (await secrets.get(key)) ?? undefined,
    set: async (key, value) => { await secrets.store(key, value); },
    delete: async (key) => { await secrets.delete(key); },
  };
}

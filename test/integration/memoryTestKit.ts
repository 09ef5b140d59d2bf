/**
 * Helpers for the integration tests that drive the wired extension: the extension's API
 * (activate() exports), a fresh store per suite (agentMemory.store.path, applied without reload),
 * and the engine's settle() for background work (extraction) instead of polling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import type { MemoryEngine } from '../../src/core/engine/memoryEngine';
import type { ChatRequestRecord } from '../../src/extension/chat/chatParticipant';
import { waitFor } from './waitFor';

export const EXTENSION_ID = 'agent-memory.agent-memory';

export async function memoryApi(): Promise<AgentMemoryApi> {
  const ext = vscode.extensions.getExtension<AgentMemoryApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  return ext.activate();
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('agentMemory').update(key, value, vscode.ConfigurationTarget.Global);
}

/** Temp folders the suites made; removed by restoreDefaultStore once nothing uses them. */
const tempFolders: string[] = [];

/** A new temp folder for a suite (agent-memory-<label>-…), removed by restoreDefaultStore. */
export function tempFolder(label: string): string {
  const dir = resolve(mkdtempSync(join(tmpdir(), `agent-memory-${label}-`)));
  tempFolders.push(dir);
  return dir;
}

/** Points agentMemory.store.path at a new empty folder and waits until the runtime uses it. */
export async function useFreshStore(api: AgentMemoryApi, label: string): Promise<MemoryEngine> {
  const dir = tempFolder(`it-${label}`);
  await setSetting('store.path', dir);
  return waitFor(`the store to reopen at ${dir}`, async () => {
    const rt = await api.services.runtime();
    return rt.store.dir === dir ? rt : undefined;
  }, 30_000, 100);
}

/**
 * Points the store back at the default (global storage) so later suites start from the usual
 * place, waits until the runtime left the suite's folders, and removes them (the harness fails a
 * run that leaves temp folders behind, scripts/tempGuard.cjs).
 */
export async function restoreDefaultStore(): Promise<void> {
  await setSetting('store.path', undefined);
  const api = await memoryApi();
  await waitFor('the store to reopen at its default place', async () => {
    const rt = await api.services.runtime();
    return tempFolders.some((d) => rt.store.dir === d) ? undefined : true;
  }, 30_000, 100);
  for (const dir of tempFolders.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Waits until the knowledge graph holds an entity with this canonical name; returns its id. The
 * engine's settle() finishes the queued extraction first, so the check normally passes at once.
 */
export async function waitForEntity(api: AgentMemoryApi, name: string, timeoutMs = 30_000): Promise<string> {
  await (await api.services.runtime()).settle({ maxWaitMs: timeoutMs });
  return waitFor(`entity "${name}" to be extracted`, () => {
    const rt = api.services.current();
    return rt?.store.read((db) => db.get<{ id: string }>('SELECT id FROM entities WHERE canonical_name = ?', [name])?.id);
  }, timeoutMs, 200);
}

const LAST_REQUEST_COMMAND = 'agentMemory._lastChatRequest';

/** Sends a chat message to @memory and waits for the participant to finish answering it. */
export async function askMemory(query: string): Promise<ChatRequestRecord> {
  const before = await vscode.commands.executeCommand<ChatRequestRecord | undefined>(LAST_REQUEST_COMMAND);
  await vscode.commands.executeCommand('workbench.action.chat.open', { query });
  return waitFor(`@memory to answer "${query}"`, async () => {
    const last = await vscode.commands.executeCommand<ChatRequestRecord | undefined>(LAST_REQUEST_COMMAND);
    return last && last.sequence !== before?.sequence && last.done ? last : undefined;
  }, 45_000, 150);
}

export function sessionsByHarness(rt: MemoryEngine, harness: string): { session_key: string; turns: number }[] {
  return rt.store.read((db) => db.all<{ session_key: string; turns: number }>(
    'SELECT s.session_key, (SELECT COUNT(*) FROM session_turns t WHERE t.session_key = s.session_key) AS turns FROM sessions s WHERE s.harness = ?', [harness]));
}

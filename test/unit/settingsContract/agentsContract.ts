/**
 * Agent hook and agent capture settings (docs/agents.md), through the engine's captureTurns and
 * the hook handlers, assembled from the settings as every host assembles them.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import type { TranscriptTurn } from '../../../src/core/capture/transcriptTypes';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { engineOnStore } from '../helpers/testEngine';
import { settingContract } from './contractRegistry';

const PLANTED: TranscriptTurn[] = [{ role: 'user', key: 't1', text: 'We decided to use PostgreSQL 16 for the orders service.' }];

async function storedWith(values: Record<string, unknown>, harness: string, workspace?: string): Promise<number> {
  const clock = new ManualClock(Date.parse('2026-12-02T10:00:00Z'));
  const store = await openMemoryStore({ clock });
  const engine = engineOnStore(store, clock, values);
  try {
    return (await engine.captureTurns({ harness, sessionId: 's1', turns: PLANTED, ...(workspace ? { workspace } : {}) })).stored;
  } finally { await engine.close(); }
}

describe('settings contract: agent hooks and capture', () => {
  settingContract('agents.capture.vscode', 'off: VS Code agent turns (hooks and chat history) are not captured', async () => {
    assert.equal(await storedWith({}, 'vscode'), 1);
    assert.equal(await storedWith({ 'agents.capture.vscode': false }, 'vscode'), 0);
    assert.equal(await storedWith({ 'agents.capture.vscode': false }, 'vscode-chat-history'), 0);
    assert.equal(await storedWith({ 'agents.capture.vscode': false }, 'claude-code'), 1);
  });
  settingContract('agents.capture.claudeCode', 'off: Claude Code turns are not captured', async () => {
    assert.equal(await storedWith({}, 'claude-code'), 1);
    assert.equal(await storedWith({ 'agents.capture.claudeCode': false }, 'claude-code'), 0);
  });
  settingContract('agents.capture.copilot', 'off: Copilot CLI turns are not captured', async () => {
    assert.equal(await storedWith({}, 'copilot'), 1);
    assert.equal(await storedWith({ 'agents.capture.copilot': false }, 'copilot'), 0);
  });
  settingContract('agents.excludePaths', 'a workspace under a listed glob is never captured from', async () => {
    assert.equal(await storedWith({}, 'vscode', '/home/dev/clients/acme'), 1);
    assert.equal(await storedWith({ 'agents.excludePaths': ['**/clients/**'] }, 'vscode', '/home/dev/clients/acme'), 0);
    assert.equal(await storedWith({ 'agents.excludePaths': ['**/clients/**'] }, 'vscode', '/home/dev/shop'), 1);
  });
});

/**
 * Agent hook and agent capture settings (docs/agents.md), through the engine's captureTurns and
 * the hook handlers, assembled from the settings as every host assembles them.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import type { TranscriptTurn } from '../../../src/core/capture/transcriptTypes';
import { parseHookEvent } from '../../../src/core/hooks/hookEvent';
import { runHookEvent } from '../../../src/core/hooks/hookHandlers';
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

/** Injected memory count of one hook event on a store holding two memories about deploys. */
async function injectedWith(values: Record<string, unknown>, event: 'SessionStart' | 'UserPromptSubmit', prompt = 'How do we deploy the API?'): Promise<number> {
  const clock = new ManualClock(Date.parse('2026-12-02T10:00:00Z'));
  const store = await openMemoryStore({ clock });
  const engine = engineOnStore(store, clock, values);
  try {
    await engine.remember({ content: 'We deploy the API with Fly.io from the main branch.', importance: 0.9, project: 'shop' });
    await engine.remember({ content: 'API deploys must wait for the smoke tests to pass.', importance: 0.9, project: 'shop' });
    const r = await runHookEvent(engine, parseHookEvent(JSON.stringify({ session_id: 's1', cwd: '/w/shop', hook_event_name: event, prompt }), { harness: 'claude-code' }));
    return r.injectedIds?.length ?? 0;
  } finally { await engine.close(); }
}

describe('settings contract: agent hooks and capture', () => {
  settingContract('agents.inject', 'off: hooks add no memories at session start or to prompts', async () => {
    assert.ok(await injectedWith({}, 'UserPromptSubmit') > 0);
    assert.ok(await injectedWith({}, 'SessionStart') > 0);
    assert.equal(await injectedWith({ 'agents.inject': false }, 'UserPromptSubmit'), 0);
    assert.equal(await injectedWith({ 'agents.inject': false }, 'SessionStart'), 0);
  });
  settingContract('agents.sessionStartTokens', 'bounds the session-start injection (0: none, a small budget: fewer)', async () => {
    assert.equal(await injectedWith({}, 'SessionStart'), 2);
    assert.equal(await injectedWith({ 'agents.sessionStartTokens': 15 }, 'SessionStart'), 1);
    assert.equal(await injectedWith({ 'agents.sessionStartTokens': 0 }, 'SessionStart'), 0);
  });
  settingContract('agents.promptTokens', 'bounds the per-prompt injection (0: none, a small budget: fewer)', async () => {
    assert.equal(await injectedWith({}, 'UserPromptSubmit'), 2);
    assert.equal(await injectedWith({ 'agents.promptTokens': 25 }, 'UserPromptSubmit'), 1);
    assert.equal(await injectedWith({ 'agents.promptTokens': 0 }, 'UserPromptSubmit'), 0);
  });
  settingContract('agents.relevanceBar', 'memories below the bar are not added to a prompt', async () => {
    const prompt = 'How do we deploy the API to staging tonight after lunch?';
    assert.ok(await injectedWith({ 'agents.relevanceBar': 0.1 }, 'UserPromptSubmit', prompt) > 0);
    assert.equal(await injectedWith({ 'agents.relevanceBar': 0.9 }, 'UserPromptSubmit', prompt), 0);
  });
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

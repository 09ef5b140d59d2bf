import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { trustGates } from '../../src/extension/host/trustGates';
import { memoryApi, restoreDefaultStore, setSetting, useFreshStore } from './memoryTestKit';
import { waitFor } from './waitFor';

async function invokeRemember(content: string): Promise<string> {
  const cts = new vscode.CancellationTokenSource();
  const result = await vscode.lm.invokeTool('memory_remember', { input: { content }, toolInvocationToken: undefined }, cts.token);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

// code-server runs with --disable-workspace-trust, so the workspace is trusted here; the untrusted
// branches are covered by the unit tests of trustGates (test/unit/extensionWiring/trustGates.test.ts).
describe('workspace trust gates in the running extension (trusted workspace)', () => {
  let api: AgentMemoryApi;

  before(async () => {
    api = await memoryApi();
    await useFreshStore(api, 'trust');
    await setSetting('tools.confirmWrites', false);
    await waitFor('confirmWrites off', () => (api.services.settings().confirmToolWrites ? undefined : true));
  });

  after(async () => {
    await setSetting('capture.enabled', undefined);
    await setSetting('tools.confirmWrites', undefined);
    await restoreDefaultStore();
  });

  it('the workspace is trusted and capture and tool writes are enabled', () => {
    assert.equal(vscode.workspace.isTrusted, true);
    const s = api.services.settings();
    const gates = api.services.trustGates();
    assert.deepEqual(gates, trustGates({ trusted: true, captureEnabled: s.captureEnabled, llmProvider: s.llm.provider }));
    assert.equal(gates.capture, true);
    assert.equal(gates.toolWrites, true);
    assert.equal(gates.llmAllowed, true);
    assert.equal(api.services.captureEnabled(), true);
  });

  it('memory_remember writes in the trusted workspace', async () => {
    assert.match(await invokeRemember('The trust gate test stores this note about the reading list API.'), /^Remembered as /);
  });

  it('agentMemory.capture.enabled off turns capture off but keeps explicit tool writes', async () => {
    await setSetting('capture.enabled', false);
    await waitFor('capture off', () => (api.services.settings().captureEnabled ? undefined : true));
    assert.equal(api.services.captureEnabled(), false);
    assert.equal(api.services.trustGates().toolWrites, true);
    await setSetting('capture.enabled', undefined);
    await waitFor('capture back on', () => (api.services.captureEnabled() ? true : undefined));
  });
});

import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { LLM_CONSENT_KEY } from '../../src/extension/llm/llmProvider';
import { createVscodeLlmClient } from '../../src/extension/llm/vscodeLlmClient';
import { rememberText } from '../../src/extension/actions/memoryActions';
import { memoryApi, restoreDefaultStore, setSetting, useFreshStore } from './memoryTestKit';
import { waitFor } from './waitFor';

const VENDOR = 'agent-memory-fake';

describe('language model provider "vscode" on the fake model', () => {
  let api: AgentMemoryApi;

  before(async () => {
    api = await memoryApi();
    await useFreshStore(api, 'llm');
  });

  after(async () => {
    await restoreDefaultStore();
    await setSetting('llm.provider', undefined);
    await setSetting('llm.vscode.vendor', undefined);
    await waitFor('the language model to be off again', () => (api.services.llmChoice().client ? undefined : true), 20_000);
    await vscode.commands.executeCommand('fakeLanguageModel.clearRequests');
  });

  it('the VS Code LlmClient completes a prompt through the selected chat model', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR });
    assert.ok(model, 'the fake model is installed');
    const client = createVscodeLlmClient(model);
    assert.equal(await client.complete('hello', { timeoutMs: 10_000 }), 'Hello from the fake language model.');
  });

  it('a cancelled request rejects with E_CANCELLED', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR });
    assert.ok(model);
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(createVscodeLlmClient(model).complete('hello', { timeoutMs: 10_000, signal: abort.signal }), (e: unknown) => (e as { code?: string }).code === 'E_CANCELLED');
  });

  it('stays off until the provider is set and consented, then extraction goes through the model', async () => {
    assert.equal(api.services.llmChoice().client, undefined, 'off by default');
    await api.services.context.globalState.update(LLM_CONSENT_KEY, ['vscode']);
    await setSetting('llm.vscode.vendor', VENDOR);
    await setSetting('llm.provider', 'vscode');
    const label = await waitFor('the VS Code language model to be active', () => api.services.llmChoice().client?.label, 20_000);
    assert.match(label, /^VS Code: /);
    await vscode.commands.executeCommand('fakeLanguageModel.clearRequests');
    const rt = await api.services.runtime();
    assert.equal(rt.llm?.label, label, 'the rebuilt pipeline uses the model');
    await rememberText(rt, 'The catalogue importer runs nightly at 02:00 UTC from a cron job.');
    const seen = await waitFor('an extraction request to reach the model', async () => {
      const requests = await vscode.commands.executeCommand<{ prompt: string }[]>('fakeLanguageModel.requests');
      return requests.find((r) => r.prompt.includes('catalogue importer runs nightly'));
    }, 30_000, 200);
    assert.ok(seen.prompt.length > 'The catalogue importer runs nightly'.length, 'the model got an extraction prompt around the memory');
    assert.match(rt.status().llm ?? '', /^VS Code: /);
  });
});

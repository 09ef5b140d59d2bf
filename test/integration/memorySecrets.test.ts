import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { LLM_API_KEY_SECRET } from '../../src/core/llm/configuredLlm';
import { LLM_CONSENT_KEY } from '../../src/extension/llm/llmProvider';
import { rememberText } from '../../src/extension/actions/memoryActions';
import { memoryApi, restoreDefaultStore, setSetting, useFreshStore } from './memoryTestKit';
import { waitFor } from './waitFor';

const SECRET = 'sk-it-7d3e9a1c5b2f4e6a8c0d';

function allFileText(dir: string): string {
  return readdirSync(dir).map((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? allFileText(p) : readFileSync(p, 'latin1');
  }).join('\n');
}

describe('language model provider "openai-compatible" with the API key in SecretStorage', () => {
  let api: AgentMemoryApi;
  let server: Server;
  let baseUrl: string;
  const seen: { authorization: string | undefined; model: string; body: string }[] = [];

  before(async () => {
    api = await memoryApi();
    await useFreshStore(api, 'secrets');
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
      req.on('end', () => {
        seen.push({ authorization: req.headers.authorization, model: (JSON.parse(body) as { model: string }).model, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { content: '{"entities": [], "relations": []}' } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  after(async () => {
    await setSetting('llm.provider', undefined);
    await setSetting('llm.openaiCompatible.baseUrl', undefined);
    await setSetting('llm.openaiCompatible.model', undefined);
    await api.services.secrets.delete(LLM_API_KEY_SECRET);
    await api.services.context.globalState.update(LLM_CONSENT_KEY, undefined);
    await waitFor('the language model to be off again', () => (api.services.llmChoice().client ? undefined : true), 20_000);
    await restoreDefaultStore();
    await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  });

  it('sends the key from the secret store to the configured endpoint and model, and writes it to no store file', async () => {
    await api.services.secrets.set(LLM_API_KEY_SECRET, SECRET);
    await api.services.context.globalState.update(LLM_CONSENT_KEY, ['openai-compatible']);
    await setSetting('llm.openaiCompatible.baseUrl', baseUrl);
    await setSetting('llm.openaiCompatible.model', 'it-model');
    await setSetting('llm.provider', 'openai-compatible');
    const label = await waitFor('the OpenAI-compatible client to be active', () => api.services.llmChoice().client?.label, 20_000);
    assert.match(label, /^127\.0\.0\.1:\d+: it-model$/);
    const rt = await waitFor('the pipeline to use the client', async () => {
      const r = await api.services.runtime();
      return r.llm?.label === label ? r : undefined;
    }, 20_000);
    await rememberText(rt, 'The invoice exporter runs every Sunday at 03:00 from a systemd timer.');
    const request = await waitFor('an extraction request to reach the endpoint', () => seen.find((s) => s.body.includes('invoice exporter')), 30_000, 200);
    assert.deepEqual([request.model, request.authorization], ['it-model', `Bearer ${SECRET}`]);
    await rt.settle();
    await rt.store.flushDeferred();
    assert.ok(!allFileText(rt.store.dir).includes(SECRET), 'the API key is in a store file');
  });
});

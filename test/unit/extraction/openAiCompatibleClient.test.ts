import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isMemoryError } from '../../../src/core/errors';
import { createOpenAiCompatibleClient } from '../../../src/core/llm/openAiCompatibleClient';

describe('OpenAI-compatible LLM client', () => {
  let server: Server;
  let base = '';
  let lastBody: Record<string, unknown> = {};
  let lastAuth: string | undefined;
  let mode: 'ok' | 'error' | 'hang' | 'nojson' = 'ok';

  before(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => { raw += c.toString(); });
      req.on('end', () => {
        lastBody = JSON.parse(raw) as Record<string, unknown>;
        lastAuth = req.headers.authorization;
        if (req.url !== '/v1/chat/completions') { res.statusCode = 404; res.end(); return; }
        if (mode === 'hang') return;
        if (mode === 'error') { res.statusCode = 500; res.end('{}'); return; }
        res.setHeader('content-type', 'application/json');
        res.end(mode === 'nojson' ? 'oops' : JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'hello from the model' } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  });
  after(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });
  beforeEach(() => { mode = 'ok'; });

  it('posts a chat completion with the model and returns the message text', async () => {
    const c = createOpenAiCompatibleClient({ baseUrl: base, model: 'llama3.1', apiKey: 'k-123' });
    assert.equal(await c.complete('hi', { timeoutMs: 5000 }), 'hello from the model');
    assert.equal(lastBody.model, 'llama3.1');
    assert.deepEqual(lastBody.messages, [{ role: 'user', content: 'hi' }]);
    assert.equal(lastBody.temperature, 0);
    assert.equal(lastAuth, 'Bearer k-123');
    assert.match(c.label, /llama3\.1/);
  });

  it('maps HTTP errors and non-JSON answers to E_LLM_UNAVAILABLE', async () => {
    const c = createOpenAiCompatibleClient({ baseUrl: base, model: 'm' });
    mode = 'error';
    await assert.rejects(c.complete('x', { timeoutMs: 5000 }), (e: unknown) => isMemoryError(e, 'E_LLM_UNAVAILABLE') && /500/.test((e as Error).message));
    mode = 'nojson';
    await assert.rejects(c.complete('x', { timeoutMs: 5000 }), (e: unknown) => isMemoryError(e, 'E_LLM_UNAVAILABLE'));
  });

  it('times out with E_TIMEOUT and cancels with E_CANCELLED', async () => {
    const c = createOpenAiCompatibleClient({ baseUrl: base, model: 'm' });
    mode = 'hang';
    await assert.rejects(c.complete('x', { timeoutMs: 50 }), (e: unknown) => isMemoryError(e, 'E_TIMEOUT'));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    await assert.rejects(c.complete('x', { timeoutMs: 5000, signal: ac.signal }), (e: unknown) => isMemoryError(e, 'E_CANCELLED'));
  });

  it('reports an unreachable endpoint and rejects invalid settings', async () => {
    const c = createOpenAiCompatibleClient({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' });
    await assert.rejects(c.complete('x', { timeoutMs: 2000 }), (e: unknown) => isMemoryError(e, 'E_LLM_UNAVAILABLE'));
    assert.throws(() => createOpenAiCompatibleClient({ baseUrl: 'not a url', model: 'm' }), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
    assert.throws(() => createOpenAiCompatibleClient({ baseUrl: base, model: ' ' }), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
  });
});

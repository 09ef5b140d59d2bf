/**
 * Language model settings, through the chooser both hosts use (src/core/llm/configuredLlm.ts: the
 * extension's resolveLlm calls it after trust and consent, the CLI's cliLlm calls it directly)
 * and through a CLI command talking to an OpenAI-compatible endpoint on 127.0.0.1.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from '../../../src/cli/args';
import { makeRememberCommand } from '../../../src/cli/commands/remember';
import { runCli } from '../../../src/cli/run';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import type { LlmClient, SecretStore } from '../../../src/core/hostContext';
import { noSecrets } from '../../../src/core/hostContext';
import { LLM_API_KEY_SECRET, chooseLlmClient } from '../../../src/core/llm/configuredLlm';
import type { Embedder } from '../../../src/core/models/embedder';
import { makeTempDir } from '../helpers/tempDir';
import { fakeEmbedder } from '../recall/fakeEmbedder';
import { settingContract } from './contractRegistry';

interface Seen { url: string; model: string; headers: IncomingHttpHeaders }

/** An OpenAI-compatible endpoint that records each request and answers with an empty extraction. */
async function fakeEndpoint(): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      seen.push({ url: req.url ?? '', model: (JSON.parse(body) as { model: string }).model, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: '{"entities": [], "relations": []}' } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen, server };
}
const stop = (server: Server): Promise<void> => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });

const llmSettings = (values: Record<string, unknown>) => readMemorySettings((k) => values[k]).llm;
const secretsWith = (key: string): SecretStore => ({ ...noSecrets, get: async (k) => (k === LLM_API_KEY_SECRET ? key : undefined) });

/** A VS Code model picker that records the selector and the timeout each call is given. */
function recordingPicker(): { pick: (s: { vendor: string; family: string }) => Promise<LlmClient>; selectors: { vendor: string; family: string }[]; timeouts: number[] } {
  const selectors: { vendor: string; family: string }[] = [];
  const timeouts: number[] = [];
  const client: LlmClient = { label: 'fake chat model', complete: async (_p, o) => { timeouts.push(o.timeoutMs); return 'ok'; } };
  return { pick: async (s) => { selectors.push({ ...s }); return client; }, selectors, timeouts };
}

const OPENAI = (url: string): Record<string, unknown> => ({ 'llm.provider': 'openai-compatible', 'llm.openaiCompatible.baseUrl': url, 'llm.openaiCompatible.model': 'tiny-model' });

describe('settings contract: language model', function () {
  this.timeout(30_000);
  let endpoint: Awaited<ReturnType<typeof fakeEndpoint>>;
  beforeEach(async () => { endpoint = await fakeEndpoint(); });
  afterEach(async () => { await stop(endpoint.server); });

  settingContract('llm.provider', "chooses no client, the host's chat model or the OpenAI-compatible endpoint", async () => {
    const picker = recordingPicker();
    assert.equal((await chooseLlmClient(llmSettings({}), { secrets: noSecrets, pickVscodeModel: picker.pick })).client, undefined);
    const vscodeChoice = await chooseLlmClient(llmSettings({ 'llm.provider': 'vscode' }), { secrets: noSecrets, pickVscodeModel: picker.pick });
    assert.equal(vscodeChoice.client?.label, 'fake chat model');
    const openai = await chooseLlmClient(llmSettings(OPENAI(endpoint.url)), { secrets: noSecrets, pickVscodeModel: picker.pick });
    await openai.client?.complete('hello', { timeoutMs: 5_000 });
    assert.equal(endpoint.seen.length, 1);
    // Where the host has no chat models (the CLI), "vscode" says so instead of failing later.
    const cli = await chooseLlmClient(llmSettings({ 'llm.provider': 'vscode' }), { secrets: noSecrets });
    assert.equal(cli.client, undefined);
    assert.match(cli.description, /only available in VS Code/);
  });

  settingContract('llm.vscode.vendor', 'is the vendor the VS Code chat model is selected by', async () => {
    const picker = recordingPicker();
    await chooseLlmClient(llmSettings({ 'llm.provider': 'vscode' }), { secrets: noSecrets, pickVscodeModel: picker.pick });
    await chooseLlmClient(llmSettings({ 'llm.provider': 'vscode', 'llm.vscode.vendor': 'copilot' }), { secrets: noSecrets, pickVscodeModel: picker.pick });
    assert.deepEqual(picker.selectors.map((s) => s.vendor), ['', 'copilot']);
  });

  settingContract('llm.vscode.family', 'is the family the VS Code chat model is selected by', async () => {
    const picker = recordingPicker();
    await chooseLlmClient(llmSettings({ 'llm.provider': 'vscode', 'llm.vscode.family': 'gpt-4o' }), { secrets: noSecrets, pickVscodeModel: picker.pick });
    assert.deepEqual(picker.selectors, [{ vendor: '', family: 'gpt-4o' }]);
  });

  settingContract('llm.openaiCompatible.baseUrl', 'is the endpoint every request goes to (none without it)', async () => {
    assert.equal((await chooseLlmClient(llmSettings({ ...OPENAI(endpoint.url), 'llm.openaiCompatible.baseUrl': '' }), { secrets: noSecrets })).client, undefined);
    const { client } = await chooseLlmClient(llmSettings(OPENAI(endpoint.url)), { secrets: noSecrets });
    await client?.complete('hello', { timeoutMs: 5_000 });
    assert.deepEqual(endpoint.seen.map((s) => s.url), ['/v1/chat/completions']);
  });

  settingContract('llm.openaiCompatible.model', 'is the model every request names', async () => {
    const { client } = await chooseLlmClient(llmSettings({ ...OPENAI(endpoint.url), 'llm.openaiCompatible.model': 'other-model' }), { secrets: secretsWith('sk-test-abc') });
    await client?.complete('hello', { timeoutMs: 5_000 });
    assert.equal(endpoint.seen[0]?.model, 'other-model');
    assert.equal(endpoint.seen[0]?.headers.authorization, 'Bearer sk-test-abc', 'the API key comes from the secret store');
  });

  settingContract('llm.timeoutSeconds', 'caps the timeout of every language model call', async () => {
    const timeouts = async (values: Record<string, unknown>): Promise<number[]> => {
      const picker = recordingPicker();
      const { client } = await chooseLlmClient(llmSettings({ 'llm.provider': 'vscode', ...values }), { secrets: noSecrets, pickVscodeModel: picker.pick });
      await client?.complete('hello', { timeoutMs: 300_000 });
      await client?.complete('hello', { timeoutMs: 2_000 });
      return picker.timeouts;
    };
    assert.deepEqual(await timeouts({}), [60_000, 2_000]);
    assert.deepEqual(await timeouts({ 'llm.timeoutSeconds': 10 }), [10_000, 2_000]);
  });
});

/** Every file under `dir`, as text (binary bytes as latin1, so any ASCII secret would show). */
function allFileText(dir: string): string {
  return readdirSync(dir).map((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? allFileText(p) : readFileSync(p, 'latin1');
  }).join('\n');
}

describe('the CLI language model: llm.* settings, key from the environment', function () {
  this.timeout(60_000);
  const SECRET = 'sk-test-4f1c0d9e8b7a6f5e4d3c2b1a';
  let endpoint: Awaited<ReturnType<typeof fakeEndpoint>>;
  let temp: ReturnType<typeof makeTempDir>;
  let saved: string | undefined;
  beforeEach(async () => { endpoint = await fakeEndpoint(); temp = makeTempDir('am-cli-llm-'); saved = process.env.AGENT_MEMORY_LLM_KEY; });
  afterEach(async () => {
    if (saved === undefined) delete process.env.AGENT_MEMORY_LLM_KEY; else process.env.AGENT_MEMORY_LLM_KEY = saved;
    await stop(endpoint.server);
    temp.cleanup();
  });

  const fake = (): Embedder => ({ ...fakeEmbedder(), dispose: async () => undefined });
  const remember = async (argv: string[]): Promise<{ code: number; out: string; err: string }> => {
    const out: string[] = [], err: string[] = [];
    const code = await makeRememberCommand({ embedder: fake })(parseArgs(argv), { stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } });
    return { code, out: out.join(''), err: err.join('') };
  };

  it('extracts with the configured endpoint and model, sending the key from AGENT_MEMORY_LLM_KEY, which reaches no file or log', async () => {
    process.env.AGENT_MEMORY_LLM_KEY = SECRET;
    const store = join(temp.dir, 'store');
    const sets = Object.entries(OPENAI(endpoint.url)).flatMap(([k, v]) => ['--set', `${k}=${String(v)}`]);
    const r = await remember(['--store', store, '--verbose', ...sets, 'We deploy the billing API with Helm on Fridays.']);
    assert.equal(r.code, 0, r.err);
    assert.ok(endpoint.seen.length >= 1, 'extraction asked the endpoint');
    assert.deepEqual([endpoint.seen[0]?.model, endpoint.seen[0]?.headers.authorization], ['tiny-model', `Bearer ${SECRET}`]);
    const list: string[] = [];
    await runCli(['--store', store, ...sets, 'config', 'list'], { stdout: (s) => { list.push(s); }, stderr: (s) => { list.push(s); } });
    const everything = [allFileText(store), r.out, r.err, list.join('')].join('\n');
    assert.ok(everything.includes('tiny-model'), 'the grep sees the store and the output');
    assert.ok(!everything.includes(SECRET), 'the API key is in a store file, the output or the log');
  });

  it('says llm.provider "vscode" is only available in VS Code and runs without a language model', async () => {
    const r = await remember(['--store', join(temp.dir, 'store'), '--set', 'llm.provider=vscode', 'We deploy with Helm.']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /only available in VS Code/);
    assert.equal(endpoint.seen.length, 0);
  });
});

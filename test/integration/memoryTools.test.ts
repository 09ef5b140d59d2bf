import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { memoryApi, restoreDefaultStore, sessionsByHarness, setSetting, useFreshStore, waitForEntity } from './memoryTestKit';
import { waitFor } from './waitFor';

function text(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

async function invoke(name: string, input: object): Promise<string> {
  const cts = new vscode.CancellationTokenSource();
  return text(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token));
}

describe('memory language model tools (vscode.lm.invokeTool)', () => {
  let api: AgentMemoryApi;

  before(async () => {
    api = await memoryApi();
    await useFreshStore(api, 'tools');
    // Outside a chat, VS Code shows a modal for confirmation messages; the setting turns them off.
    await setSetting('tools.confirmWrites', false);
    await waitFor('confirmWrites off', () => (api.services.settings().confirmToolWrites ? undefined : true));
  });

  after(async () => {
    await restoreDefaultStore();
    await setSetting('tools.confirmWrites', undefined);
  });

  it('registers memory_recall, memory_remember and memory_pin with their schemas', () => {
    const names = vscode.lm.tools.map((t) => t.name);
    for (const n of ['memory_recall', 'memory_remember', 'memory_pin']) assert.ok(names.includes(n), `${n} missing from ${names.join(', ')}`);
    const recall = vscode.lm.tools.find((t) => t.name === 'memory_recall');
    assert.deepEqual((recall?.inputSchema as { required?: string[] }).required, ['query']);
  });

  it('memory_remember stores a memory and memory_recall finds it', async () => {
    const stored = await invoke('memory_remember', { content: 'Deployments of the shelf service run through GitHub Actions and Docker.', type: 'fact' });
    assert.match(stored, /^Remembered as /);
    // Only "docker" is a keyword hit ("deploy" and "Deployments" stem differently), so the memory is
    // found through its vector: wait for the background embed job instead of racing it.
    await waitFor('the remembered memory to be embedded', () => api.services.current()?.store.read((db) => db.get<{ ok: number }>(
      "SELECT 1 AS ok FROM memories m JOIN embeddings e ON e.source_id = m.id WHERE m.content LIKE '%GitHub Actions and Docker%'")?.ok), 30_000, 100);
    const found = await invoke('memory_recall', { query: 'how do we deploy with docker', limit: 5 });
    assert.match(found, /GitHub Actions and Docker/);
    assert.match(found, /\[1\] id=/);
  });

  it('memory_recall answers an empty query with a clear error, not an exception', async () => {
    assert.match(await invoke('memory_recall', { query: '  ' }), /^Error: The "query" input must be a non-empty string/);
  });

  it('memory_pin pins an extracted entity and reports an unknown one', async () => {
    await waitForEntity(api, 'docker');
    assert.match(await invoke('memory_pin', { entity: 'docker' }), /^Pinned /);
    assert.match(await invoke('memory_pin', { entity: 'docker', pinned: false }), /^Unpinned /);
    assert.match(await invoke('memory_pin', { entity: 'no-such-entity-xyz' }), /^Error: No entity named/);
  });

  it('asks for confirmation before writing when agentMemory.tools.confirmWrites is on', async () => {
    await setSetting('tools.confirmWrites', true);
    await waitFor('confirmWrites on', () => (api.services.settings().confirmToolWrites ? true : undefined));
    const cts = new vscode.CancellationTokenSource();
    const prepared = await api.tools.remember.prepareInvocation?.({ input: { content: 'x' } }, cts.token);
    assert.equal(prepared?.confirmationMessages?.title, 'Remember this?');
    const long = `See [this](command:workbench.action.files.delete) and ${'more words '.repeat(60)}end.`;
    const shown = (await api.tools.remember.prepareInvocation?.({ input: { content: long } }, cts.token))?.confirmationMessages?.message;
    assert.ok(shown instanceof vscode.MarkdownString);
    assert.ok(shown.value.includes(`\n\`\`\`text\n${long}\n\`\`\`\n`), 'the whole text, literally, in a fenced block');
    assert.equal(shown.isTrusted, false);
    const recall = await api.tools.recall.prepareInvocation?.({ input: { query: 'x' } }, cts.token);
    assert.equal(recall?.confirmationMessages, undefined, 'reading needs no confirmation');
    await setSetting('tools.confirmWrites', false);
    await waitFor('confirmWrites off', () => (api.services.settings().confirmToolWrites ? undefined : true));
  });

  it('a workspace cannot change agentMemory.tools.confirmWrites (application scope)', async () => {
    assert.ok(vscode.workspace.workspaceFolders?.length, 'the harness opens a workspace folder, so a workspace-level write is possible at all');
    await assert.rejects(async () => { await vscode.workspace.getConfiguration('agentMemory').update('tools.confirmWrites', true, vscode.ConfigurationTarget.Workspace); });
    assert.equal(vscode.workspace.getConfiguration('agentMemory').inspect('tools.confirmWrites')?.workspaceValue, undefined);
  });

  it('captures tool calls into a tools session', () => {
    const rt = api.services.current();
    assert.ok(rt);
    const sessions = sessionsByHarness(rt, 'vscode-lm-tools');
    assert.equal(sessions.length, 1);
    assert.ok((sessions[0]?.turns ?? 0) >= 3, `tool turns: ${JSON.stringify(sessions)}`);
  });

  it('the first tool call of a new session returns the session-start memories, marked, exactly as recorded', async () => {
    const rt = api.services.current();
    assert.ok(rt);
    for (const s of sessionsByHarness(rt, 'vscode-lm-tools')) await rt.loop.sessions.end(s.session_key, 'explicit');
    const first = await invoke('memory_recall', { query: 'github actions', limit: 1 });
    const at = first.indexOf('Session-start memories (loaded once, at the start of this tool session');
    assert.ok(at > 0, `no session-start block after the answer:\n${first}`);
    const deliveredIds = [...first.slice(at).matchAll(/\[S\d+\] id=(\S+)/g)].map((m) => m[1]);
    const answerIds = [...first.slice(0, at).matchAll(/\[\d+\] id=(\S+)/g)].map((m) => m[1]);
    const active = sessionsByHarness(rt, 'vscode-lm-tools').map((s) => s.session_key);
    const recorded = rt.store.read((db) => db.all<{ memory_id: string }>(
      `SELECT memory_id FROM session_memories WHERE session_key IN (${active.map(() => '?').join(',')}) AND was_injected = 1`, active)).map((r) => r.memory_id);
    assert.ok(deliveredIds.length >= 1, 'the store has memories to inject');
    // Recorded as injected = what the result delivered: the recalled answer plus the session-start block.
    assert.deepEqual(new Set(recorded), new Set([...answerIds, ...deliveredIds]));
    const second = await invoke('memory_recall', { query: 'github actions', limit: 1 });
    assert.doesNotMatch(second, /Session-start memories/, 'delivered once per session');
  });
});

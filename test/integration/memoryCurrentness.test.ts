import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { rememberText } from '../../src/extension/actions/memoryActions';
import { COMPOSED_ANSWER_HINT } from '../../src/extension/chat/recallFormat';
import { askMemory, memoryApi, restoreDefaultStore, useFreshStore } from './memoryTestKit';
import { waitFor } from './waitFor';

const OLD = 'We keep the reading list in a single JSON file, books.json, next to the code.';
const NEW = 'Decision: move the reading list from the JSON file to SQLite, because concurrent writes corrupted it.';

async function invokeRecall(query: string): Promise<string> {
  const cts = new vscode.CancellationTokenSource();
  const result = await vscode.lm.invokeTool('memory_recall', { input: { query, limit: 5 }, toolInvocationToken: undefined }, cts.token);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('currentness reaches the answer (@memory, memory_recall, no-model fallback)', () => {
  let api: AgentMemoryApi;

  before(async () => {
    api = await memoryApi();
    const rt = await useFreshStore(api, 'currentness');
    await rememberText(rt, OLD, { type: 'decision' });
    await new Promise((r) => setTimeout(r, 20));
    await rememberText(rt, NEW, { type: 'decision' });
    // The extract job records the memory-level supersession (no language model involved).
    await waitFor('the JSON-file decision to be superseded', () => rt.store.read((db) => db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM entity_attributes WHERE group_key = 'memory' AND status = 'superseded' AND content = ?", [OLD])?.n) || undefined, 30_000);
  });

  after(async () => {
    await vscode.commands.executeCommand('fakeLanguageModel.setScript', undefined);
    await vscode.commands.executeCommand('fakeLanguageModel.clearRequests');
    await restoreDefaultStore();
  });

  it('the answer prompt lists the current decision first and marks the stale one "SUPERSEDED by [1]"', async () => {
    await vscode.commands.executeCommand('fakeLanguageModel.clearRequests');
    await vscode.commands.executeCommand('fakeLanguageModel.setScript', [
      { match: 'SUPERSEDED by [1] — We keep the reading list', reply: 'The reading list is stored in SQLite [1]; the JSON file [2] is no longer used.' },
    ]);
    const r = await askMemory('@memory how do we store the reading list?');
    assert.match(r.answer, /The reading list is stored in SQLite \[1\]/, r.answer);
    const requests = await vscode.commands.executeCommand<{ prompt: string }[]>('fakeLanguageModel.requests');
    const prompt = requests.map((q) => q.prompt).find((p) => p.includes('Question: how do we store the reading list?'));
    assert.ok(prompt, 'the model got the answer prompt');
    assert.ok(prompt.includes(`[1] (decision, `) && prompt.indexOf(NEW) < prompt.indexOf(OLD), prompt);
    assert.match(prompt, /SUPERSEDED by \[1\] — We keep the reading list in a single JSON file/);
    assert.match(prompt, /A memory marked SUPERSEDED is no longer true/);
    assert.match(r.answer, /\*\*superseded by \\\[1\\\]\*\*/, 'the list under the answer marks the stale memory');
  });

  it('memory_recall gives a calling model the stale memory\'s status and its replacement', async () => {
    const text = await invokeRecall('how do we store the reading list');
    const blocks = text.split('\n\n');
    assert.ok(blocks[0]?.includes(NEW), text);
    const stale = blocks.find((b) => b.includes(OLD));
    assert.ok(stale, text);
    assert.match(stale, /status=superseded superseded_by=[0-9a-f-]{36}/);
    assert.match(stale, /Superseded by \[1\]\. Do not present this memory as current\./);
  });

  it('when the chat model fails, @memory answers with the memories themselves, current first, and says how to get composed answers', async () => {
    await vscode.commands.executeCommand('fakeLanguageModel.setScript', [{ match: 'Question:', error: 'model quota exhausted' }]);
    const r = await askMemory('@memory how do we store the reading list?');
    assert.match(r.answer, /The chat model could not compose an answer: .*model quota exhausted/);
    assert.match(r.answer, /From memory \[1\]: Decision: move the reading list from the JSON file to SQLite/);
    assert.match(r.answer, /current first/);
    assert.ok(r.answer.indexOf('move the reading list') < r.answer.indexOf('single JSON file'), r.answer);
    assert.match(r.answer, /superseded by \\\[1\\\]/);
    assert.ok(r.answer.includes(COMPOSED_ANSWER_HINT.slice(0, 60)), r.answer);
    assert.ok(r.references.some((u) => u.startsWith('agent-memory:/memory/')), 'the memories are cited as references');
  });

  it('slash commands keep working whatever the model does', async () => {
    await vscode.commands.executeCommand('fakeLanguageModel.setScript', [{ match: '/./', error: 'model offline' }]);
    const recalled = await askMemory('@memory /recall reading list storage');
    assert.match(recalled.answer, /superseded by \\\[1\\\]/);
    const status = await askMemory('@memory /status');
    assert.match(status.answer, /Memories: 2/);
  });
});

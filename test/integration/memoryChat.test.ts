import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { askMemory, memoryApi, restoreDefaultStore, sessionsByHarness, useFreshStore } from './memoryTestKit';

const FACT = 'The shelf service stores reading lists in SQLite with WAL journaling enabled.';

describe('@memory answers from the store (fake language model)', () => {
  let api: AgentMemoryApi;

  before(async () => {
    api = await memoryApi();
    await useFreshStore(api, 'chat');
  });

  after(async () => {
    await restoreDefaultStore();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('fakeLanguageModel.setScript', undefined);
  });

  it('gives the first-run answer when the store is empty', async () => {
    const r = await askMemory('@memory which database do we use?');
    assert.equal(r.metadata?.empty, true, r.answer);
    assert.match(r.answer, /Memory is empty so far/);
    assert.match(r.answer, /\/remember/);
  });

  it('/remember stores a memory that /recall then lists with a reference to it', async () => {
    const remembered = await askMemory(`@memory /remember ${FACT}`);
    assert.equal(remembered.command, 'remember');
    assert.match(remembered.answer, /Remembered/);
    const memoryRef = remembered.references.find((u) => u.startsWith('agent-memory:/memory/'));
    assert.ok(memoryRef, `no memory reference in ${JSON.stringify(remembered.references)}`);

    const recalled = await askMemory('@memory /recall sqlite reading lists');
    assert.equal(recalled.command, 'recall');
    assert.match(recalled.answer, /SQLite/);
    assert.ok(recalled.references.includes(memoryRef), `recall references ${JSON.stringify(recalled.references)} miss ${memoryRef}`);
    assert.match(recalled.answer, /\[why\?\]\(command:agentMemory\.showRecallExplanation\?/, 'each memory has a "why recalled" link');
    assert.match(recalled.answer, /\[forget\]\(command:agentMemory\.forgetMemory\?/, 'and a forget link');
  });

  it('composes the answer with the chat model and cites the remembered memory', async () => {
    await vscode.commands.executeCommand('fakeLanguageModel.setScript', [
      { match: 'Question: which database', reply: 'The shelf service uses SQLite [1].' },
    ]);
    const r = await askMemory('@memory which database does the shelf service use?');
    assert.equal(r.command, undefined);
    assert.match(r.answer, /The shelf service uses SQLite \[1\]\./);
    assert.ok(r.references.some((u) => u.startsWith('agent-memory:/memory/')), 'the answer references the memory it used');
    const requests = await vscode.commands.executeCommand<{ prompt: string }[]>('fakeLanguageModel.requests');
    assert.ok(requests.some((q) => q.prompt.includes(FACT)), 'the model was given the recalled memory');
  });

  it('/why shows the score breakdown of each recalled memory', async () => {
    const r = await askMemory('@memory /why sqlite journaling');
    assert.match(r.answer, /channels: lexical/);
    assert.match(r.answer, /fused score/);
  });

  it('captures the conversation as a session with turns and tracked recalls', async () => {
    const rt = api.services.current();
    assert.ok(rt);
    const sessions = sessionsByHarness(rt, 'vscode-chat');
    assert.ok(sessions.length >= 1, 'a chat session exists');
    assert.ok(sessions.some((s) => s.turns >= 2), `turns recorded: ${JSON.stringify(sessions)}`);
    const tracked = rt.store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories WHERE session_key IN (SELECT session_key FROM sessions WHERE harness = ?)', ['vscode-chat'])?.n ?? 0);
    assert.ok(tracked >= 1, 'recalled memories are tracked in session_memories');
  });

  it('/status reports the memory count and the language model state', async () => {
    const r = await askMemory('@memory /status');
    assert.match(r.answer, /Memories: 1/);
    assert.match(r.answer, /Language model: off/);
  });
});

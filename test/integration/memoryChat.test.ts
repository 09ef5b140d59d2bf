import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { askMemory, memoryApi, restoreDefaultStore, sessionsByHarness, useFreshStore } from './memoryTestKit';

const FACT = 'The shelf service stores reading lists in SQLite with WAL journaling enabled.';
const SECOND_FACT = 'The shelf service is deployed with Docker compose on the team server.';
const MEMORY_URI = 'agent-memory:/memory/';

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

  it('Agent Memory\'s memory-only chat model stays out of the picker while another chat model exists', async () => {
    const fake = await vscode.lm.selectChatModels({ vendor: 'agent-memory-fake' });
    assert.equal(fake.length, 1, 'the fake model is installed');
    assert.deepEqual(await vscode.lm.selectChatModels({ vendor: 'agent-memory' }), [], 'the memory-only model is withdrawn');
    assert.ok((await vscode.lm.selectChatModels()).every((m) => m.vendor !== 'agent-memory'));
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
    assert.match(r.answer, /Found because it shares \d+ of \d+ words with the question/);
    assert.match(r.answer, /Relevance 1\.00 of 1/);
    assert.doesNotMatch(r.answer, /channels:|fused score|traversal/);
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

  it('delivers the session-start memories to the model on the first request of a conversation, exactly as recorded', async () => {
    const rt = api.services.current();
    assert.ok(rt);
    await askMemory(`@memory /remember ${SECOND_FACT}`);
    // End the conversation's session, so the next request starts a new one with an injection.
    for (const s of sessionsByHarness(rt, 'vscode-chat')) await rt.loop.sessions.end(s.session_key, 'explicit');
    await vscode.commands.executeCommand('fakeLanguageModel.clearRequests');
    await vscode.commands.executeCommand('fakeLanguageModel.setScript', [{ match: 'Question: where is', reply: 'It runs with Docker compose [2].' }]);
    const first = await askMemory('@memory where is the shelf service deployed?');
    const key = first.metadata?.sessionKey;
    assert.ok(key, 'the request started a session');
    const delivered = first.metadata?.sessionStart ?? [];
    assert.ok(delivered.length >= 1, `the new session injected memories: ${JSON.stringify(first.metadata)}`);
    const [request] = await vscode.commands.executeCommand<{ prompt: string }[]>('fakeLanguageModel.requests');
    assert.ok(request, 'the model got the question');
    const section = request.prompt.slice(request.prompt.indexOf('Memories loaded at the start of this conversation'));
    assert.ok(section.length < request.prompt.length, `no session-start section in the prompt:\n${request.prompt}`);
    const recorded = rt.store.read((db) => db.all<{ memory_id: string; content: string }>(
      'SELECT sm.memory_id, m.content FROM session_memories sm JOIN memories m ON m.id = sm.memory_id WHERE sm.session_key = ? AND sm.was_injected = 1', [key]));
    // Everything recorded as injected reached the model (recalled or loaded at start) and is cited
    // under the answer; everything delivered at start is recorded as injected.
    for (const row of recorded) assert.ok(request.prompt.includes(row.content.replace(/\s+/g, ' ').trim()), `recorded as injected but not in the prompt: ${row.content}`);
    assert.deepEqual(new Set(first.references.filter((u) => u.startsWith(MEMORY_URI))), new Set(recorded.map((r) => `${MEMORY_URI}${r.memory_id}.md`)));
    const startRows = rt.store.read((db) => db.all<{ content: string }>(`SELECT content FROM memories WHERE id IN (${delivered.map(() => '?').join(',')})`, [...delivered]));
    assert.equal(startRows.length, delivered.length);
    for (const row of startRows) assert.ok(section.includes(row.content.replace(/\s+/g, ' ').trim()), `delivered at start but missing from the section: ${row.content}`);
    assert.ok(delivered.every((id) => recorded.some((r) => r.memory_id === id)), 'each delivered memory is recorded as injected');
    assert.match(first.answer, /It runs with Docker compose \[2\]\./);
    assert.match(first.answer, /Also loaded at the start of this conversation: \d+ memor(y|ies) \(cited \[\d+\]/);

    await vscode.commands.executeCommand('fakeLanguageModel.clearRequests');
    const second = await askMemory('@memory where is the shelf service deployed?');
    assert.equal(second.metadata?.sessionKey, key, 'the conversation keeps its session');
    assert.equal(second.metadata?.sessionStart, undefined, 'the session-start memories are delivered once');
    const [again] = await vscode.commands.executeCommand<{ prompt: string }[]>('fakeLanguageModel.requests');
    assert.ok(again && !again.prompt.includes('Memories loaded at the start'), 'the second prompt has no session-start section');
  });

  it('/status reports the memory count and the language model state', async () => {
    const r = await askMemory('@memory /status');
    const count = api.services.current()?.store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n);
    assert.ok(count !== undefined && count >= 2, 'both remembered facts (and what the ended sessions left) are stored');
    assert.match(r.answer, new RegExp(`Memories: ${count}\\b`));
    assert.match(r.answer, /Extraction model \(agentMemory\.llm\): off/);
  });
});

import { strict as assert } from 'node:assert';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cueStatements } from '../../../src/core/capture/agentJunkGuards';
import { ChatHistoryFollower } from '../../../src/core/capture/chatHistoryFollower';
import type { ChatLogCursor } from '../../../src/core/capture/chatHistoryLedger';
import { ManualClock } from '../../../src/core/clock';
import { createRecordingLogger } from '../../../src/core/logger';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { engineOnStore } from '../helpers/testEngine';
import { makeTempDir } from '../helpers/tempDir';

/**
 * A chat followed live, with the log growing in the order code-server 4.139 writes it (its
 * ChatSessionStore: the first write of a new session is one `kind: 0` line with no requests, then
 * `kind: 1` sets of the input state, then the request pushed with its message (`kind: 2`), then the
 * response and its state set (`kind: 1`)), captured through the real engine — the path of the e2e
 * test/e2e/chatHistory.e2e.ts, step "after a window reload … a new chat is still followed".
 */
const line = (o: object): string => `${JSON.stringify(o)}\n`;
const SESSION = '5b0d8f5e-0000-4000-8000-00000000f15c';
const AGREED = 'We agreed that invoice numbers in the ledger service restart every fiscal year at 1000.';

const initial = line({ kind: 0, v: { version: 3, creationDate: 1796188887311, initialLocation: 'panel', responderUsername: '', sessionId: SESSION, hasPendingEdits: false, requests: [], pendingRequests: [], inputState: { attachments: [], mode: { id: 'agent', kind: 'agent' }, inputText: '' } } });
const inputModel = line({ kind: 1, k: ['inputState', 'selectedModel'], v: { identifier: 'agent-memory/memory-only' } });
const request = line({ kind: 2, k: ['requests'], v: [{
  requestId: 'request_f15c', timestamp: 1796188946756, agent: { id: 'setup.agent', name: 'GitHub Copilot', isDefault: true, isCore: true },
  modeInfo: { kind: 'agent', telemetryModeId: 'agent' }, response: [], modelState: { value: 0 },
  message: { text: AGREED, parts: [{ kind: 'text', text: AGREED }] }, variableData: { variables: [] },
}] });
const answered = line({ kind: 1, k: ['requests', 0, 'response'], v: [{ value: 'You need to set up GitHub Copilot and be signed in to use Chat.' }] })
  + line({ kind: 1, k: ['requests', 0, 'modelState'], v: { value: 1, completedAt: 1796188953361 } })
  + line({ kind: 1, k: ['requests', 0, 'result'], v: {} });

describe('capture: chat history followed live (code-server write order, real engine)', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let store: MemoryStore;
  const clock = new ManualClock(Date.parse('2026-12-02T10:00:00Z'));
  beforeEach(async () => { tmp = makeTempDir('am-chat-live-'); store = await openMemoryStore({ clock }); });
  afterEach(async () => { await store.close(); tmp.cleanup(); });

  const contents = (): string[] => store.read((db) => db.all<{ content: string }>("SELECT content FROM memories WHERE is_deleted = 0 AND source_type = 'agent_capture' ORDER BY rowid").map((r) => r.content));

  it('"We agreed that …" is a decision cue (it was dropped as no-statement)', () => {
    assert.deepEqual(cueStatements(AGREED), [{ content: AGREED, type: 'decision' }]);
    assert.deepEqual(cueStatements('The team agreed on squash merges for every service branch.').map((s) => s.type), ['decision']);
    assert.deepEqual(cueStatements('I agreed with the reviewer about this one.'), [], 'agreeing with someone is no decision');
  });

  it('a new chat written step by step is captured once, the message as soon as it is logged', async () => {
    const engine = engineOnStore(store, clock);
    const cursors = new Map<string, ChatLogCursor>();
    const reports: { stored: number; skipped: Record<string, number> }[] = [];
    const follower = new ChatHistoryFollower({
      folder: tmp.dir, maxTurnChars: 8000, skipAgents: new Set(['agent-memory.memory']), skipMentions: ['memory'], logger: createRecordingLogger(),
      cursors: { get: (p) => cursors.get(p), set: async (p, c) => { cursors.set(p, c); } },
      capture: async (b) => { reports.push(await engine.captureTurns({ harness: 'vscode-chat-history', sessionId: b.sessionId, turns: b.turns })); },
    });
    const file = join(tmp.dir, `${SESSION}.jsonl`);
    writeFileSync(file, initial);
    await follower.fileChanged(file);
    appendFileSync(file, inputModel);
    await follower.fileChanged(file);
    assert.equal(reports.length, 0, 'no request yet');
    appendFileSync(file, request);
    await follower.fileChanged(file);
    assert.deepEqual(contents(), [AGREED], 'the message is captured while the answer is still pending');
    appendFileSync(file, answered);
    await follower.fileChanged(file);
    await follower.scanAll();
    assert.deepEqual(contents(), [AGREED], 'the answer adds no second memory');
    assert.equal(reports.reduce((n, r) => n + r.stored, 0), 1);
    follower.dispose();
    await engine.close();
  });

  it('a capture that fails (the store busy in another process) is handed over again on the next pass, once', async () => {
    const engine = engineOnStore(store, clock);
    const cursors = new Map<string, ChatLogCursor>();
    let failNext = 1;
    const logger = createRecordingLogger();
    const follower = new ChatHistoryFollower({
      folder: tmp.dir, maxTurnChars: 8000, skipAgents: new Set(['agent-memory.memory']), skipMentions: ['memory'], logger,
      cursors: { get: (p) => cursors.get(p), set: async (p, c) => { cursors.set(p, c); } },
      capture: async (b) => {
        if (failNext-- > 0) throw new Error('The memory store is busy: another process holds its write lock.');
        await engine.captureTurns({ harness: 'vscode-chat-history', sessionId: b.sessionId, turns: b.turns });
      },
    });
    const file = join(tmp.dir, `${SESSION}.jsonl`);
    writeFileSync(file, initial + inputModel + request + answered);
    await follower.fileChanged(file);
    assert.deepEqual(contents(), [], 'the first hand-over failed');
    assert.equal(follower.stats.errors, 1);
    // Nothing in the file changes: the periodic rescan alone must retry what was not handed over.
    await follower.scanAll();
    assert.deepEqual(contents(), [AGREED], 'retried on the next pass');
    await follower.scanAll();
    await follower.fileChanged(file);
    assert.deepEqual(contents(), [AGREED], 'and captured once');
    follower.dispose();
    await engine.close();
  });
});

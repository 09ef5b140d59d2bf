import { strict as assert } from 'node:assert';
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatHistoryFollower } from '../../../src/core/capture/chatHistoryFollower';
import type { ChatHistoryBatch } from '../../../src/core/capture/chatHistoryFollower';
import { readChatCursor, writeChatCursor } from '../../../src/core/capture/chatHistoryLedger';
import type { ChatLogCursor } from '../../../src/core/capture/chatHistoryLedger';
import { ChatSessionLogReplay, chatSessionView, emptySkips, newRequestTurns } from '../../../src/core/capture/vscodeChatSessionLog';
import { createRecordingLogger } from '../../../src/core/logger';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { makeTempDir } from '../helpers/tempDir';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'chatSessions');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const line = (o: object): string => `${JSON.stringify(o)}\n`;
const OWN = new Set(['agent-memory.memory']);

function replay(text: string): ChatSessionLogReplay {
  const r = new ChatSessionLogReplay();
  r.applyLines(text);
  return r;
}

describe('capture: VS Code chat-session log', () => {
  it('replays the mutation log to the state: pushes, sets, titles', () => {
    const r = replay(fixture('current-mutation-log.jsonl'));
    assert.deepEqual(r.skips, emptySkips());
    const view = chatSessionView(r.state, r.skips);
    assert.equal(view.sessionId, '7b1c2d3e-0000-4000-8000-000000000001');
    assert.equal(view.title, 'Billing database');
    assert.equal(view.requests.length, 2);
    const [a, b] = view.requests;
    assert.equal(a?.userText, 'We decided to use PostgreSQL 16 for the billing service, not MySQL.');
    assert.equal(a?.agentId, 'github.copilot.editsAgent');
    assert.equal(a?.modeId, 'agent');
    assert.equal(a?.timestamp, new Date(1764660010000).toISOString());
    assert.equal(a?.responseText, 'Noted: PostgreSQL 16 it is. I updated the docker compose file.');
    assert.deepEqual(a?.tools, [{ name: 'runInTerminal', text: 'Ran `psql --version`' }]);
    assert.equal(a?.complete, true);
    assert.equal(b?.agentId, 'agent-memory.memory');
  });

  it('truncates and pushes (kind 2 with an index) and deletes (kind 3)', () => {
    const r = replay(line({ kind: 0, v: { requests: [{ requestId: 'a', message: 'one' }, { requestId: 'b', message: 'two' }], customTitle: 'x' } })
      + line({ kind: 2, k: ['requests'], i: 1, v: [{ requestId: 'c', message: 'three' }] })
      + line({ kind: 2, k: ['requests'], i: 0 })
      + line({ kind: 2, k: ['requests'], v: [{ requestId: 'd', message: 'four' }] })
      + line({ kind: 3, k: ['customTitle'] }));
    assert.deepEqual(r.state, { requests: [{ requestId: 'd', message: 'four' }] });
  });

  it('turns: the user message at once, tools and answer once finished; our own participant skipped', () => {
    const r = replay(fixture('current-mutation-log.jsonl'));
    const { ready, skippedOwn } = newRequestTurns(chatSessionView(r.state, r.skips), { maxTurnChars: 8000, skipAgents: OWN });
    assert.equal(skippedOwn, 1);
    assert.deepEqual(ready.map((x) => x.requestId), ['request_a1', 'request_a2']);
    assert.deepEqual(ready[0]?.turns.map((t) => [t.role, t.key]), [['user', 'request_a1'], ['tool', 'request_a1#tool-0'], ['assistant', 'request_a1#response']]);
    assert.deepEqual(ready[0]?.keys, ['request_a1#user', 'request_a1#response']);
    assert.deepEqual(ready[1], { requestId: 'request_a2', turns: [], keys: ['request_a2'] });
  });

  it('a running request gives its message now and its answer later; @memory typed in the message is skipped too', () => {
    const r = replay(fixture('current-mutation-log.jsonl').split('\n').slice(0, 2).join('\n'));
    const view = chatSessionView(r.state, r.skips);
    assert.equal(view.requests[0]?.complete, false);
    const first = newRequestTurns(view, { maxTurnChars: 8000 }).ready;
    assert.deepEqual(first.map((x) => x.turns.map((t) => t.key)), [['request_a1']]);
    assert.deepEqual(newRequestTurns(view, { maxTurnChars: 8000, done: new Set(first[0]?.keys) }).ready, []);
    const mention = replay(`${line({ kind: 0, v: { requests: [{ requestId: 'm', message: { text: '@memory /remember we use tabs' } }, { requestId: 'n', message: { text: '@memoryless is a word' } }] } })}`);
    const out = newRequestTurns(chatSessionView(mention.state, mention.skips), { maxTurnChars: 8000, skipMentions: ['memory'] });
    assert.equal(out.skippedOwn, 1);
    assert.deepEqual(out.ready.map((x) => x.turns.map((t) => t.text)), [[], ['@memoryless is a word']]);
  });

  it('unknown shapes are skipped and counted, never thrown', () => {
    const r = replay(fixture('odd-shapes.jsonl'));
    assert.deepEqual({ lines: r.skips.lines, mutations: r.skips.mutations }, { lines: 2, mutations: 3 });
    const view = chatSessionView(r.state, r.skips);
    assert.equal(r.skips.requests, 1); // the number 42 where a request belongs
    assert.deepEqual(view.requests.map((q) => [q.requestId, q.complete]), [['r_ok', true], ['r_open', false]]);
    assert.equal(view.requests[0]?.responseText, 'Got it.');
    const none = replay(fixture('no-initial.jsonl'));
    assert.equal(none.state, undefined);
    assert.equal(none.skips.mutations, 1);
    assert.deepEqual(chatSessionView(undefined, emptySkips()).requests, []);
  });

  it('reads the older whole-file .json sessions (v2 and v1)', () => {
    const v2 = chatSessionView(JSON.parse(fixture('old-whole-file.json')), emptySkips(), true);
    assert.equal(v2.sessionId, 'old-json-session');
    assert.deepEqual(v2.requests.map((q) => [q.requestId, q.userText, q.agentId]), [
      ['req_old1', 'Our API responses always use camelCase keys.', 'github.copilot.default'],
      ['req_old2', '@memory what naming do we use?', 'agent-memory.memory'],
    ]);
    const v1 = chatSessionView(JSON.parse(fixture('v1-whole-file.json')), emptySkips(), true);
    assert.deepEqual(v1.requests.map((q) => [q.requestId, q.userText, q.responseText, q.complete]), [['request-0', 'Deploys happen only on Tuesdays.', 'OK.', true]]);
  });

  it('cursors round-trip through the store meta table; a damaged one reads as none', async () => {
    const store = await openMemoryStore();
    const c: ChatLogCursor = { identity: 'abc', firstLineLength: 10, offset: 99, done: ['r1'] };
    await store.write('t', (db) => writeChatCursor(db, '/a/b.jsonl', c));
    assert.deepEqual(store.read((db) => readChatCursor(db, '/a/b.jsonl')), c);
    assert.equal(store.read((db) => readChatCursor(db, '/a/other.jsonl')), undefined);
    await store.close();
  });
});

describe('capture: chat-history follower', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let batches: ChatHistoryBatch[];
  let cursors: Map<string, ChatLogCursor>;
  const follower = (): ChatHistoryFollower => new ChatHistoryFollower({
    folder: tmp.dir, maxTurnChars: 8000, skipAgents: OWN, logger: createRecordingLogger(),
    cursors: { get: (p) => cursors.get(p), set: async (p, c) => { cursors.set(p, c); } },
    capture: async (b) => { batches.push(b); },
  });
  beforeEach(() => { tmp = makeTempDir('am-chat-history-'); batches = []; cursors = new Map(); });
  afterEach(() => tmp.cleanup());

  const keys = (): string[] => batches.flatMap((b) => b.turns.map((t) => `${b.sessionId}/${t.key}`));

  it('follows appends incrementally and hands each finished request over once', async () => {
    const lines = fixture('current-mutation-log.jsonl').split('\n').filter(Boolean).map((l) => `${l}\n`);
    const file = join(tmp.dir, '7b1c.jsonl');
    writeFileSync(file, lines.slice(0, 3).join(''));
    const f = follower();
    await f.scanAll();
    const id = '7b1c2d3e-0000-4000-8000-000000000001';
    assert.deepEqual(keys(), [`${id}/request_a1`]); // the message, while the answer is still running
    appendFileSync(file, lines.slice(3, 7).join(''));
    await f.fileChanged(file);
    assert.deepEqual(keys(), [`${id}/request_a1`, `${id}/request_a1#tool-0`, `${id}/request_a1#response`]);
    appendFileSync(file, lines.slice(7).join('') + '{"kind":1,"k":["cust'); // a partial last line is left for later
    await f.fileChanged(file);
    await f.fileChanged(file);
    assert.equal(batches.length, 2, 'the @memory request adds no batch');
    assert.equal(f.stats.requestsSkipped, 1);
    assert.equal(cursors.get(file)?.offset, Buffer.byteLength(lines.join('')));
    f.dispose();
  });

  it('is idempotent across reloads: a new follower with the same cursors captures nothing again', async () => {
    copyFileSync(join(FIXTURES, 'current-mutation-log.jsonl'), join(tmp.dir, 's.jsonl'));
    copyFileSync(join(FIXTURES, 'old-whole-file.json'), join(tmp.dir, 'old.json'));
    const first = follower();
    await first.scanAll();
    const captured = keys();
    assert.deepEqual(captured.filter((k) => k.endsWith('req_old1') || k.endsWith('request_a1')).length, 2);
    first.dispose();
    batches = [];
    const second = follower();
    await second.scanAll();
    assert.deepEqual(keys(), []);
    // Appending after the reload replays the log from the start (no state in memory) and hands over only the new request.
    appendFileSync(join(tmp.dir, 's.jsonl'), line({ kind: 2, k: ['requests'], v: [{ requestId: 'r3', message: { text: 'Use port 5433 locally.' }, result: {}, response: [] }] }));
    await second.fileChanged(join(tmp.dir, 's.jsonl'));
    assert.deepEqual(keys(), ['7b1c2d3e-0000-4000-8000-000000000001/r3']); // its message; it has no answer
    second.dispose();
  });

  it('detects a rewritten (compacted) log and captures only requests it had not handed over', async () => {
    const file = join(tmp.dir, 's.jsonl');
    copyFileSync(join(FIXTURES, 'current-mutation-log.jsonl'), file);
    const f = follower();
    await f.scanAll();
    const state = replay(fixture('current-mutation-log.jsonl')).state as { requests: unknown[] };
    state.requests.push({ requestId: 'r_new', message: 'Feature flags live in LaunchDarkly.', result: {} });
    writeFileSync(file, line({ kind: 0, v: state })); // VS Code's compaction: one initial line, shorter
    batches = [];
    await f.fileChanged(file);
    assert.equal(f.stats.rewrites, 1);
    assert.deepEqual(keys(), ['7b1c2d3e-0000-4000-8000-000000000001/r_new']);
    f.dispose();
  });

  it('a failing capture leaves the request for the next pass; odd files never stop the folder', async () => {
    copyFileSync(join(FIXTURES, 'odd-shapes.jsonl'), join(tmp.dir, 'a-odd.jsonl'));
    copyFileSync(join(FIXTURES, 'no-initial.jsonl'), join(tmp.dir, 'b-none.jsonl'));
    writeFileSync(join(tmp.dir, 'c-broken.json'), '{"requests": [');
    copyFileSync(join(FIXTURES, 'v1-whole-file.json'), join(tmp.dir, 'd-v1.json'));
    let fail = true;
    const f = new ChatHistoryFollower({
      folder: tmp.dir, maxTurnChars: 8000, skipAgents: OWN, logger: createRecordingLogger(),
      cursors: { get: (p) => cursors.get(p), set: async (p, c) => { cursors.set(p, c); } },
      capture: async (b) => { if (fail && b.sessionId === 'odd-session') throw new Error('store locked'); batches.push(b); },
    });
    await f.scanAll();
    assert.equal(f.stats.errors, 1);
    assert.equal(f.stats.files, 4);
    assert.ok(f.stats.skips.lines >= 3 && f.stats.skips.mutations >= 4, JSON.stringify(f.stats.skips));
    assert.deepEqual(keys().filter((k) => !k.startsWith('odd')).length, 2); // the v1 file's user and answer turns
    fail = false;
    appendFileSync(join(tmp.dir, 'a-odd.jsonl'), '\n');
    await f.fileChanged(join(tmp.dir, 'a-odd.jsonl'));
    assert.ok(keys().includes('odd-session/r_ok'));
    f.dispose();
  });

  it('a missing folder is no error', async () => {
    const f = new ChatHistoryFollower({
      folder: join(tmp.dir, 'absent'), maxTurnChars: 8000, skipAgents: OWN, logger: createRecordingLogger(),
      cursors: { get: () => undefined, set: async () => undefined }, capture: async () => undefined,
    });
    await f.scanAll();
    assert.equal(f.stats.errors, 0);
  });
});

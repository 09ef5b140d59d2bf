import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import type { TranscriptTurn } from '../../../src/core/capture/transcriptTypes';
import type { CapturedMemory } from '../../../src/core/capture/agentCaptureTypes';
import type { MemoryEngine } from '../../../src/core/engine/memoryEngine';
import { silentLogger } from '../../../src/core/logger';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { CAPTURES_TAB_LIMIT, CapturesController, captureDoneMessage, captureView } from '../../../src/extension/knowledge/capturesController';
import type { CapturesSource } from '../../../src/extension/knowledge/capturesController';
import { EngineCapturesSource } from '../../../src/extension/knowledge/engineCapturesSource';
import { decodeHostMessage, decodeWebviewMessage, parseHostMessage } from '../../../src/shared/knowledgeProtocol';
import type { HostMessage } from '../../../src/shared/knowledgeProtocolTypes';
import { engineOnStore } from '../helpers/testEngine';

const u = (key: string, text: string): TranscriptTurn => ({ role: 'user', key, text });

/** Every message the controller posts, decoded as the webview decodes it (a malformed one fails the test). */
function recorder(): { messages: HostMessage[]; post: (m: HostMessage) => void; last<T extends HostMessage['type']>(type: T): Extract<HostMessage, { type: T }> } {
  const messages: HostMessage[] = [];
  return {
    messages,
    post: (m) => {
      const decoded = decodeHostMessage(JSON.parse(JSON.stringify(m)));
      assert.ok(decoded.ok, `the webview decodes ${m.type}: ${decoded.ok ? '' : decoded.error}`);
      messages.push(decoded.value);
    },
    last: (type) => {
      const m = [...messages].reverse().find((x) => x.type === type);
      assert.ok(m, `a ${type} message was sent`);
      return m as never;
    },
  };
}

describe('Knowledge panel: the Captured tab (host side over the engine)', () => {
  let clock: ManualClock;
  let store: MemoryStore;
  let engine: MemoryEngine<MemoryStore>;
  let source: EngineCapturesSource;

  beforeEach(async () => {
    clock = new ManualClock(Date.parse('2026-12-02T10:00:00Z'));
    store = await openMemoryStore({ clock });
    engine = engineOnStore(store, clock);
    source = new EngineCapturesSource(async () => engine);
    await engine.captureTurns({ harness: 'claude-code', sessionId: 'cc-1', workspace: '/home/dev/shop', turns: [u('u1', 'We decided to use Drizzle ORM instead of Prisma for the billing service.')] });
    clock.advance(60_000);
    await engine.captureTurns({ harness: 'vscode-chat-history', sessionId: 'chat-7', workspace: '/home/dev/shop', turns: [u('r1', 'From now on the API must return RFC 7807 problem details for every error.')] });
  });
  afterEach(async () => { await engine.close(); });

  it('lists captured memories newest first with harness, session, turn, project and time, only while the tab shows', async () => {
    const r = recorder();
    const c = new CapturesController(source, r.post, silentLogger);
    await c.handle({ type: 'ready' });
    await c.handle({ type: 'showSection', section: 'entities' });
    await c.refresh();
    assert.deepEqual(r.messages, [], 'nothing is read while another tab shows');
    await c.handle({ type: 'showSection', section: 'captured' });
    const list = r.last('captures');
    assert.equal(list.limit, CAPTURES_TAB_LIMIT);
    assert.equal(list.capturedToday, 2);
    assert.deepEqual(list.captures.map((x) => [x.harness, x.harnessLabel, x.sessionId, x.turnKey, x.project, x.status]), [
      ['vscode-chat-history', 'VS Code chat history', 'chat-7', 'r1', 'shop', 'active'],
      ['claude-code', 'Claude Code', 'cc-1', 'u1', 'shop', 'active'],
    ]);
    assert.match(list.captures[1]?.content ?? '', /Drizzle ORM instead of Prisma/);
    assert.equal(list.captures[0]?.capturedAt, '2026-12-02T10:01:00.000Z');
  });

  it('updates when something is captured, and sends nothing when nothing changed', async () => {
    const r = recorder();
    const c = new CapturesController(source, r.post, silentLogger);
    await c.handle({ type: 'showSection', section: 'captured' });
    const before = r.messages.length;
    await c.refresh();
    assert.equal(r.messages.length, before, 'an unchanged list is not resent');
    clock.advance(60_000);
    await engine.captureTurns({ harness: 'vscode', sessionId: 'vs-2', turns: [u('t1', 'We decided to deploy the API on Fly.io from now on.')] });
    await c.refresh();
    const list = r.last('captures');
    assert.equal(list.captures.length, 3);
    assert.deepEqual([list.captures[0]?.harnessLabel, list.captures[0]?.sessionId], ['VS Code agents', 'vs-2']);
  });

  it('Wrong or outdated retires the memory through the shared path: out of recall, kept as history, announced', async () => {
    const r = recorder();
    const c = new CapturesController(source, r.post, silentLogger);
    await c.handle({ type: 'showSection', section: 'captured' });
    const target = r.last('captures').captures.find((x) => x.harness === 'claude-code');
    assert.ok(target);
    await c.handle({ type: 'captureAction', id: target.id, action: 'markWrong' });
    const done = r.last('captureDone');
    assert.deepEqual([done.id, done.action], [target.id, 'markWrong']);
    assert.match(done.message, /^Marked “We decided to use Drizzle ORM.*” wrong or outdated: out of recall, kept as history/);
    const after = r.last('captures');
    assert.equal(after.captures.find((x) => x.id === target.id)?.status, 'retired', 'kept in the list as history');
    assert.equal(after.capturedToday, 1, 'a retired memory no longer counts as captured today');
    const row = store.read((db) => db.get<{ is_deleted: number; content: string }>('SELECT is_deleted, content FROM memories WHERE id = ?', [target.id]));
    assert.deepEqual(row, { is_deleted: 1, content: 'We decided to use Drizzle ORM instead of Prisma for the billing service.' });
    const recalled = await engine.recall({ query: 'Which ORM does the billing service use?' }, { track: false });
    assert.equal(recalled.some((m) => m.id === target.id), false, 'no longer recalled');
    // a second click on a stale list says so instead of failing
    await c.handle({ type: 'captureAction', id: target.id, action: 'markWrong' });
    assert.match(r.last('captureDone').message, /was already retired/);
  });

  it('Forget deletes the memory for good and drops it from the list', async () => {
    const r = recorder();
    const c = new CapturesController(source, r.post, silentLogger);
    await c.handle({ type: 'showSection', section: 'captured' });
    const target = r.last('captures').captures.find((x) => x.harness === 'vscode-chat-history');
    assert.ok(target);
    await c.handle({ type: 'captureAction', id: target.id, action: 'forget' });
    assert.match(r.last('captureDone').message, /^Forgot “From now on the API must return RFC 7807.*”: deleted/);
    assert.deepEqual(r.last('captures').captures.map((x) => x.harness), ['claude-code']);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE id = ?', [target.id])?.n), 0);
  });

  it('a failed action answers with a captures error naming the cause; malformed messages are ignored', async () => {
    const r = recorder();
    const c = new CapturesController(source, r.post, silentLogger);
    await c.handle({ type: 'showSection', section: 'captured' });
    const n = r.messages.length;
    await c.handle({ type: 'captureAction', id: 'no-such-memory', action: 'forget' });
    const err = r.last('error');
    assert.deepEqual([err.scope, err.message], ['captures', 'No memory with id no-such-memory.']);
    await c.handle({ type: 'captureAction', id: 'x', action: 'delete' });
    await c.handle({ type: 'captureAction' });
    await c.handle('garbage');
    assert.equal(r.messages.length, n + 1, 'only the one error was sent');
  });

  it('a source that fails while refreshing reports the error instead of rejecting', async () => {
    const broken: CapturesSource = {
      recentCaptures: () => Promise.reject(new Error('store closed')), capturedToday: async () => 0, forget: async () => undefined, markWrong: async () => ({ changed: false, aspectsLowered: 0 }),
    };
    const r = recorder();
    const c = new CapturesController(broken, r.post, silentLogger);
    await c.handle({ type: 'showSection', section: 'captured' });
    await c.refresh();
    assert.deepEqual(r.messages.map((m) => m.type === 'error' ? m.scope : m.type), ['captures', 'captures']);
  });
});

describe('Knowledge panel protocol: the Captured tab messages', () => {
  const row = { id: 'm1', content: 'We decided to use Drizzle.', harness: 'claude-code', harnessLabel: 'Claude Code', sessionId: 's', turnKey: 't', capturedAt: '2026-12-02T10:00:00.000Z', project: null, status: 'active' };

  it('accepts well-formed captures, captureDone, captureAction and the captured section', () => {
    assert.ok(parseHostMessage({ type: 'captures', captures: [row], capturedToday: 1, limit: 100 }));
    assert.ok(parseHostMessage({ type: 'captureDone', id: 'm1', action: 'forget', message: 'Forgot it.' }));
    assert.ok(parseHostMessage({ type: 'error', scope: 'captures', message: 'No memory with id x.' }));
    assert.ok(decodeWebviewMessage({ type: 'captureAction', id: 'm1', action: 'markWrong' }).ok);
    assert.ok(decodeWebviewMessage({ type: 'showSection', section: 'captured' }).ok);
  });

  it('rejects bad rows, actions and counts with the path of the first bad field', () => {
    const bad = (m: unknown): string => { const r = decodeHostMessage(m); assert.equal(r.ok, false); return r.ok ? '' : r.error; };
    assert.match(bad({ type: 'captures', captures: [{ ...row, status: 'forgotten' }], capturedToday: 1, limit: 100 }), /captures\[0\]\.status/);
    assert.match(bad({ type: 'captures', captures: [{ ...row, id: '' }], capturedToday: 1, limit: 100 }), /captures\[0\]\.id/);
    assert.match(bad({ type: 'captures', captures: [row, row], capturedToday: 0, limit: 1 }), /captures\.length <= limit/);
    assert.match(bad({ type: 'captures', captures: [], capturedToday: -1, limit: 1 }), /capturedToday/);
    assert.match(bad({ type: 'captureDone', id: 'm1', action: 'delete', message: 'x' }), /action/);
    const w = decodeWebviewMessage({ type: 'captureAction', id: 'm1', action: 'purge' });
    assert.equal(w.ok, false);
  });

  it('captureView maps the core row to the protocol row: a soft-deleted capture is retired, long fields are cut', () => {
    const m: CapturedMemory = { id: 'm', content: 'x'.repeat(25_000), harness: '', sessionId: 's'.repeat(600), turnKey: 't', capturedAt: '2026-12-02T10:00:00.000Z', status: 'forgotten' };
    const v = captureView(m);
    assert.deepEqual([v.status, v.harness, v.harnessLabel, v.content.length, v.sessionId.length, v.project], ['retired', 'unknown', 'unknown', 20_000, 500, null]);
    assert.ok(parseHostMessage({ type: 'captures', captures: [v], capturedToday: 0, limit: 1 }), 'the cut row is a valid protocol row');
    assert.equal(captureDoneMessage('markWrong', 'a', { changed: true, aspectsLowered: 2 }), 'Marked “a” wrong or outdated: out of recall, kept as history; 2 aspects it supported lowered.');
  });
});

import { strict as assert } from 'node:assert';
import { KnowledgeController } from '../../../src/extension/knowledge/knowledgeController';
import { createRecordingLogger } from '../../../src/core/logger';
import { MemoryError } from '../../../src/core/errors';
import { parseHostMessage } from '../../../src/shared/knowledgeProtocol';
import { PANEL_CONFIG } from '../../../webview/panelConfig';
import type { HostMessage } from '../../../src/shared/knowledgeProtocolTypes';
import { FakeKnowledgeSource } from './fakeKnowledgeSource';
import { entity, recallResult } from './fixtures';

function setup(n = 5) {
  const source = new FakeKnowledgeSource(Array.from({ length: n }, (_, i) => entity(i)));
  const sent: HostMessage[] = [];
  const actions = { tree: [] as string[], copied: [] as string[] };
  const logger = createRecordingLogger();
  const controller = new KnowledgeController(source, (m) => {
    // Everything the controller sends must pass the webview's own validation.
    assert.ok(parseHostMessage(JSON.parse(JSON.stringify(m))), `invalid host message ${JSON.stringify(m).slice(0, 300)}`);
    sent.push(m);
  }, {
    openInTree: async (id) => { actions.tree.push(id); },
    copyText: async (text) => { actions.copied.push(text); },
  }, logger);
  const take = (): HostMessage[] => sent.splice(0);
  return { source, controller, take, actions, logger };
}

async function start(t: ReturnType<typeof setup>, query = '', entityType: string | null = null): Promise<void> {
  await t.controller.handle({ type: 'ready' });
  await t.controller.handle({ type: 'search', query, entityType });
}

describe('Knowledge panel controller', () => {
  it('answers ready and search with a reset first page, then stats and focal (the list first: issue #27)', async () => {
    const t = setup();
    await start(t);
    const types = t.take().map((m) => m.type);
    assert.deepEqual(types, ['page', 'stats', 'focal']);
    // Once the list was sent, ready answers with the overview at once (a reloaded webview).
    await t.controller.handle({ type: 'ready' });
    assert.deepEqual(t.take().map((m) => m.type), ['stats', 'focal']);
  });

  it('sends the first page before the webview asks, then the overview on ready (issue #27, first open)', async () => {
    const t = setup(3);
    await t.controller.prefetchFirstPage();
    const [first, ...rest] = t.take();
    assert.deepEqual(rest, []);
    assert.ok(first?.type === 'page');
    assert.deepEqual({ query: first.query, entityType: first.entityType, offset: first.offset, reset: first.reset, total: first.total }, { query: '', entityType: null, offset: 0, reset: true, total: 3 });
    assert.ok(t.logger.lines.some((l) => /first list \(3 entities\) sent \d+ ms after the panel opened: before the webview said ready/.test(l.message)), 'logged as sent before ready');
    // The webview's own ready and search are answered as always (a webview that missed the page loses nothing).
    await start(t);
    assert.deepEqual(t.take().map((m) => m.type), ['stats', 'focal', 'page']);
    assert.ok(t.logger.lines.some((l) => /webview ready \d+ ms after the panel opened \(its first list was already sent\)/.test(l.message)));
    // Once the list was sent, a second prefetch (a reused controller) sends nothing.
    await t.controller.prefetchFirstPage();
    assert.deepEqual(t.take(), []);
  });

  it('says shown once the webview is ready and its first list was sent, in either order, or when disposed', async () => {
    const settled = (p: Promise<void>): Promise<boolean> => Promise.race([p.then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);
    // The first list before ready (the prefetch), then ready.
    const early = setup(3);
    await early.controller.prefetchFirstPage();
    assert.equal(await settled(early.controller.whenShown()), false, 'sent, but the webview has not run yet');
    await early.controller.handle({ type: 'ready' });
    assert.equal(await settled(early.controller.whenShown()), true);
    // Ready first, then the list (no prefetch).
    const late = setup(3);
    await late.controller.handle({ type: 'ready' });
    assert.equal(await settled(late.controller.whenShown()), false, 'ready, but no list yet');
    await late.controller.handle({ type: 'search', query: '', entityType: null });
    assert.equal(await settled(late.controller.whenShown()), true);
    // A panel closed before its list showed does not keep anyone waiting.
    const closed = setup(3);
    closed.controller.dispose();
    assert.equal(await settled(closed.controller.whenShown()), true);
  });

  it('turns a failed first-page prefetch into a list error, and the webview\'s search still answers', async () => {
    const t = setup(2);
    t.source.failNext = new MemoryError('E_STORE_IO', 'The memory store is not open yet.');
    await t.controller.prefetchFirstPage();
    assert.deepEqual(t.take(), [{ type: 'error', scope: 'list', message: 'The memory store is not open yet.' }]);
    await start(t);
    assert.deepEqual(t.take().map((m) => m.type), ['page', 'stats', 'focal']);
  });

  it('filters by query and type through the data source', async () => {
    const t = setup(12);
    t.source.entities[3] = entity(3, { type: 'person' });
    await start(t, 'entity 1', null);
    const page = t.take().find((m) => m.type === 'page');
    assert.ok(page && page.type === 'page');
    assert.deepEqual(page.entities.map((e) => e.id).sort(), ['e1', 'e10', 'e11']);
    await t.controller.handle({ type: 'search', query: '', entityType: 'person' });
    const typed = t.take()[0];
    assert.ok(typed?.type === 'page');
    assert.deepEqual(typed.entities.map((e) => e.id), ['e3']);
    assert.equal(typed.entityType, 'person');
  });

  it('serves requested pages with their request id and offset', async () => {
    const t = setup(PANEL_CONFIG.pageSize + 50);
    await start(t);
    t.take();
    await t.controller.handle({ type: 'requestPage', requestId: 7, offset: PANEL_CONFIG.pageSize, limit: PANEL_CONFIG.pageSize });
    const [m] = t.take();
    assert.ok(m?.type === 'page');
    assert.equal(m.requestId, 7);
    assert.equal(m.offset, PANEL_CONFIG.pageSize);
    assert.equal(m.entities.length, 50);
    assert.equal(m.reset, false);
  });

  it('ignores malformed messages without answering, and logs why', async () => {
    const t = setup();
    await t.controller.handle({ type: 'setPinned', id: 'e1', pinned: 'please' });
    await t.controller.handle('ready');
    assert.deepEqual(t.take(), []);
    assert.equal(t.source.entities[1]!.pinned, false);
    assert.ok(t.logger.lines.some((l) => l.level === 'warn' && l.message.includes('malformed') && l.message.includes('pinned')));
  });

  it('pins from the panel and sends the reordered list (a reset: the order changed)', async () => {
    const t = setup();
    await start(t);
    t.take();
    await t.controller.handle({ type: 'setPinned', id: 'e4', pinned: true });
    const msgs = t.take();
    const page = msgs.find((m) => m.type === 'page');
    assert.ok(page?.type === 'page', JSON.stringify(msgs.map((m) => m.type)));
    assert.equal(page.reset, true);
    assert.equal(page.entities[0]!.id, 'e4');
    assert.equal(page.entities[0]!.pinned, true);
    assert.ok(msgs.some((m) => m.type === 'stats'));
  });

  it('sends only the changed rows as a delta when the order is unchanged', async () => {
    const t = setup();
    await start(t);
    t.take();
    t.source.entities[2] = { ...t.source.entities[2]!, attributes: 99 };
    await t.controller.refresh();
    const delta = t.take().find((m) => m.type === 'delta');
    assert.ok(delta?.type === 'delta');
    assert.deepEqual(delta.upserts.map((e) => e.id), ['e2']);
    assert.deepEqual(delta.removed, []);
  });

  it('sends removals as a delta when the whole list is loaded', async () => {
    const t = setup();
    await start(t);
    t.take();
    t.source.entities.splice(1, 1);
    await t.controller.refresh();
    const delta = t.take().find((m) => m.type === 'delta');
    assert.ok(delta?.type === 'delta');
    assert.deepEqual(delta.removed, ['e1']);
    assert.equal(delta.total, 4);
  });

  it('sends no list message when nothing changed', async () => {
    const t = setup();
    await start(t);
    t.take();
    await t.controller.refresh();
    assert.deepEqual(t.take().map((m) => m.type), ['stats', 'focal']);
  });

  it('re-sends the open detail after a change only when it differs', async () => {
    const t = setup();
    await start(t);
    await t.controller.handle({ type: 'selectEntity', id: 'e2' });
    const first = t.take().filter((m) => m.type === 'detail');
    assert.equal(first.length, 1);
    await t.controller.refresh();
    assert.equal(t.take().filter((m) => m.type === 'detail').length, 0);
    t.source.entities[2] = { ...t.source.entities[2]!, mentions: 77 };
    await t.controller.refresh();
    const again = t.take().filter((m) => m.type === 'detail');
    assert.equal(again.length, 1);
  });

  it('answers a missing entity with a null detail', async () => {
    const t = setup();
    await start(t);
    t.take();
    await t.controller.handle({ type: 'selectEntity', id: 'nope' });
    assert.deepEqual(t.take(), [{ type: 'detail', id: 'nope', detail: null }]);
  });

  it('turns a data-source failure into a scoped error message without a stack trace', async () => {
    const t = setup();
    await start(t);
    t.take();
    await t.controller.handle({ type: 'setPinned', id: 'missing', pinned: true });
    assert.deepEqual(t.take(), [{ type: 'error', scope: 'pin', message: 'No entity missing.' }]);
    t.source.failNext = new Error('SQLITE_ERROR: near "MATCH": syntax error\n    at Statement.step');
    await t.controller.handle({ type: 'recall', requestId: 1, query: 'x', limit: 5 });
    const [err] = t.take();
    assert.ok(err?.type === 'error');
    assert.equal(err.scope, 'recall');
    assert.ok(!err.message.includes('at Statement'));
  });

  it('runs the recall playground and echoes the request id', async () => {
    const t = setup();
    t.source.recallResults = [recallResult()];
    await t.controller.handle({ type: 'recall', requestId: 9, query: 'how do tests run', limit: 5 });
    const [m] = t.take();
    assert.ok(m?.type === 'recallResult');
    assert.equal(m.requestId, 9);
    assert.equal(m.results[0]!.explain!.boosts[0]!.name, 'graph');
  });

  it('hands open-in-tree and copy to the editor actions', async () => {
    const t = setup();
    await t.controller.handle({ type: 'openInTree', id: 'e3' });
    await t.controller.handle({ type: 'copy', id: 'e3', what: 'name' });
    await t.controller.handle({ type: 'copy', id: 'e3', what: 'id' });
    assert.deepEqual(t.actions.tree, ['e3']);
    assert.deepEqual(t.actions.copied, ['Entity 3', 'e3']);
  });

  it('reports copying a forgotten entity as not found', async () => {
    const t = setup();
    await t.controller.handle({ type: 'copy', id: 'gone', what: 'json' });
    const [m] = t.take();
    assert.ok(m?.type === 'error');
    assert.equal(m.scope, 'action');
    assert.match(m.message, /no longer exists/);
  });

  it('refreshes on a data-source change only after the webview is ready, and coalesces bursts', async () => {
    const t = setup();
    await t.controller.refresh();
    assert.deepEqual(t.take(), []);
    await start(t);
    t.take();
    const calls = t.source.listCalls.length;
    t.source.entities[0] = { ...t.source.entities[0]!, mentions: 50 };
    await Promise.all([t.controller.refresh(), t.controller.refresh(), t.controller.refresh()]);
    assert.ok(t.source.listCalls.length - calls <= 2, `list read ${t.source.listCalls.length - calls} times`);
  });

  it('shows an entity on request from the editor (select, then detail)', async () => {
    const t = setup();
    await start(t);
    t.take();
    await t.controller.showEntity('e1');
    assert.deepEqual(t.take().map((m) => m.type), ['select', 'detail']);
  });

  it('sends nothing after dispose', async () => {
    const t = setup();
    t.controller.dispose();
    await start(t);
    assert.deepEqual(t.take(), []);
  });

  it('maps an expected MemoryError to its own message', async () => {
    const t = setup();
    t.source.failNext = new MemoryError('E_STORE_IO', 'The memory store is not open yet.');
    await start(t);
    const sent = t.take();
    assert.deepEqual(sent.find((x) => x.type === 'error'), { type: 'error', scope: 'list', message: 'The memory store is not open yet.' });
    // A failed list does not hold the overview back.
    assert.deepEqual(sent.map((x) => x.type).sort(), ['error', 'focal', 'stats']);
  });

  it('re-reads stats and focal entities only while the overview shows, and on switching to it', async () => {
    const t = setup();
    await start(t);
    await t.controller.handle({ type: 'showSection', section: 'entities' });
    t.take();
    t.source.entities[0] = { ...t.source.entities[0]!, mentions: 40 };
    await t.controller.refresh();
    assert.deepEqual(t.take().map((m) => m.type), ['delta']);
    await t.controller.handle({ type: 'showSection', section: 'overview' });
    assert.deepEqual(t.take().map((m) => m.type), ['stats', 'focal']);
  });
});

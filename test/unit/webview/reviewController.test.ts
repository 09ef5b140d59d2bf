/**
 * The Knowledge panel's review part over a real engine and store (issue #27): the conflicts go out
 * side by side, an answer comes back through the protocol and is applied, and an entity the list
 * showed that maintenance merged away is reported as "merged into" the entity it went to.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { recordProposals } from '../../../src/core/consolidation/conflictRecords';
import { applyExtractionPayload } from '../../../src/core/graph/applyExtraction';
import { graphContext } from '../../../src/core/graph/graphApply';
import { silentLogger } from '../../../src/core/logger';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { engineReviewSource } from '../../../src/extension/knowledge/engineReviewSource';
import { ReviewController } from '../../../src/extension/knowledge/reviewController';
import { decodeHostMessage, decodeWebviewMessage } from '../../../src/shared/knowledgeProtocol';
import type { HostMessage } from '../../../src/shared/knowledgeProtocolTypes';
import { engineOnStore } from '../helpers/testEngine';
import { entity } from './fixtures';

async function world() {
  const clock = new ManualClock(Date.UTC(2026, 9, 1));
  const store = await openMemoryStore({ clock });
  const engine = engineOnStore(store, clock, {});
  const older = (await engine.remember({ content: 'We store the reading list in a single JSON file (books.json).', type: 'decision', createdAt: '2026-06-02T09:00:00.000Z' })).id;
  const newer = (await engine.remember({ content: 'Decision: move the reading list from the JSON file to SQLite.', type: 'decision', createdAt: '2026-06-23T10:41:00.000Z' })).id;
  await store.write('t', (db) => recordProposals(db, [{ olderId: older, newerId: newer, reason: 'decision_change', detail: 'reading list', confidence: 0.8 }], '2026-10-01T00:00:00.000Z', () => 'c-1'));
  const sent: HostMessage[] = [];
  const review = new ReviewController(engineReviewSource(async () => engine as never), (m) => {
    // What the webview would receive must decode.
    const d = decodeHostMessage(m);
    assert.ok(d.ok, d.ok ? '' : d.error);
    sent.push(m);
  }, silentLogger);
  return { clock, store, engine, older, newer, sent, review };
}

describe('Knowledge panel review part (conflicts, merged-away notices)', () => {
  it('decodes the new messages and refuses an unknown answer, naming the field', () => {
    assert.ok(decodeWebviewMessage({ type: 'resolveConflict', id: 'c-1', choice: 'keep-older' }).ok);
    const bad = decodeWebviewMessage({ type: 'resolveConflict', id: 'c-1', choice: 'keep-all' });
    assert.ok(!bad.ok && /choice/.test(bad.error));
    assert.ok(!decodeHostMessage({ type: 'mergedAway', items: [{ id: 'a', name: '', intoId: 'b', intoName: 'B', at: 'x' }] }).ok, 'a nameless notice');
  });

  it('sends the conflicts side by side, applies Keep newer, and says what it did', async () => {
    const w = await world();
    await w.review.handle({ type: 'ready' });
    const first = w.sent.find((m) => m.type === 'conflicts');
    assert.ok(first && first.type === 'conflicts');
    assert.deepEqual(first.conflicts.map((c) => [c.older.createdAt.slice(0, 10), c.newer.createdAt.slice(0, 10), c.reason]), [['2026-06-02', '2026-06-23', 'decision change']]);
    assert.equal(first.notice, null);
    w.sent.length = 0;
    await w.review.handle({ type: 'resolveConflict', id: 'c-1', choice: 'keep-newer' });
    const after = w.sent.find((m) => m.type === 'conflicts');
    assert.ok(after && after.type === 'conflicts');
    assert.deepEqual(after.conflicts, []);
    assert.match(after.notice ?? '', /^Kept the newer memory "Decision: move the reading list/);
    // A second answer to the same conflict is an error the panel shows, not a crash.
    w.sent.length = 0;
    await w.review.handle({ type: 'resolveConflict', id: 'c-1', choice: 'keep-older' });
    assert.deepEqual(w.sent.map((m) => m.type), ['error']);
    await w.engine.close();
  });

  it('tells the panel when an entity it showed was merged into another, with where it went', async () => {
    const w = await world();
    const m = w.older;
    const ctx = graphContext({ actor: 'extractor:llm', reason: 'test', clock: w.clock });
    await w.store.write('g', (db) => applyExtractionPayload(db, ctx, [m], { entities: [{ name: 'shelf/server.py', type: 'file', description: '' }, { name: 'shelf.server', type: 'file', description: '' }, { name: 'SQLite', type: 'tool', description: '' }] }, 'llm'));
    const ids = w.store.read((db) => db.all<{ id: string; name: string }>('SELECT id, name FROM entities'));
    const id = (name: string) => ids.find((e) => e.name === name)?.id as string;
    await w.review.handle({ type: 'ready' });
    // The list showed shelf.server and SQLite (not shelf/server.py).
    w.review.observe({ type: 'page', requestId: 1, query: '', entityType: null, offset: 0, total: 2, reset: true, types: [], entities: [entity(1, { id: id('shelf.server'), name: 'shelf.server' }), entity(2, { id: id('SQLite'), name: 'SQLite' })] });
    await w.engine.maintenance.run(['merge-entities']);
    w.sent.length = 0;
    await w.review.refresh();
    const notice = w.sent.find((x) => x.type === 'mergedAway');
    assert.ok(notice && notice.type === 'mergedAway');
    assert.deepEqual(notice.items.map((i) => [i.name, i.intoName, i.intoId]), [['shelf.server', 'shelf/server.py', id('shelf/server.py')]]);
    w.sent.length = 0;
    await w.review.refresh();
    assert.equal(w.sent.filter((x) => x.type === 'mergedAway').length, 0, 'said once');
    await w.engine.close();
  });
});

import { strict as assert } from 'node:assert';
import { decodeHostMessage, decodeWebviewMessage, parseHostMessage, parseWebviewMessage, PROTOCOL_LIMITS } from '../../../src/shared/knowledgeProtocol';
import { detail, entity, mutate, recallResult, stats } from './fixtures';

function page(entities = [entity(0), entity(1)]): Record<string, unknown> {
  return { type: 'page', requestId: 1, query: '', entityType: null, offset: 0, total: entities.length, reset: true, entities, types: ['tool'] };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function rejectsHost(raw: unknown, pathPart: string): void {
  const r = decodeHostMessage(raw);
  assert.equal(r.ok, false, `expected rejection of ${JSON.stringify(raw).slice(0, 200)}`);
  if (!r.ok) assert.match(r.error, new RegExp(escape(pathPart)));
}

function rejectsWebview(raw: unknown, pathPart: string): void {
  const r = decodeWebviewMessage(raw);
  assert.equal(r.ok, false, `expected rejection of ${JSON.stringify(raw)}`);
  if (!r.ok) assert.match(r.error, new RegExp(escape(pathPart)));
}

describe('webview protocol: webview → host messages', () => {
  it('accepts every well-formed message type', () => {
    const good = [
      { type: 'ready' }, { type: 'refresh' },
      { type: 'search', query: 'sql', entityType: 'tool' }, { type: 'search', query: '', entityType: null },
      { type: 'requestPage', requestId: 3, offset: 200, limit: 200 },
      { type: 'selectEntity', id: 'e1' }, { type: 'setPinned', id: 'e1', pinned: true },
      { type: 'recall', requestId: 1, query: 'how do tests run', limit: 10 },
      { type: 'openInTree', id: 'e1' }, { type: 'copy', id: 'e1', what: 'json' },
      { type: 'showSection', section: 'overview' },
    ];
    for (const m of good) assert.deepEqual(parseWebviewMessage(m), m);
  });

  it('rejects non-objects, arrays, a missing type and unknown types', () => {
    for (const raw of [null, undefined, 42, 'ready', [], [{ type: 'ready' }], {}, { type: 7 }]) assert.equal(parseWebviewMessage(raw), undefined);
    rejectsWebview({ type: 'dropTables' }, 'type');
  });

  it('rejects mistyped fields, naming the field', () => {
    rejectsWebview({ type: 'search', query: 5, entityType: null }, 'query');
    rejectsWebview({ type: 'search', query: 'x' }, 'entityType');
    rejectsWebview({ type: 'setPinned', id: 'e1', pinned: 'yes' }, 'pinned');
    rejectsWebview({ type: 'selectEntity', id: '' }, 'id');
    rejectsWebview({ type: 'copy', id: 'e1', what: 'password' }, 'what');
    rejectsWebview({ type: 'showSection', section: 'settings' }, 'section');
  });

  it('enforces bounds on lengths, offsets and limits', () => {
    rejectsWebview({ type: 'search', query: 'x'.repeat(PROTOCOL_LIMITS.searchLength + 1), entityType: null }, 'query');
    rejectsWebview({ type: 'requestPage', requestId: 1, offset: -1, limit: 10 }, 'offset');
    rejectsWebview({ type: 'requestPage', requestId: 1, offset: 0, limit: 0 }, 'limit');
    rejectsWebview({ type: 'requestPage', requestId: 1, offset: 0, limit: PROTOCOL_LIMITS.pageMax + 1 }, 'limit');
    rejectsWebview({ type: 'requestPage', requestId: 1, offset: 1.5, limit: 10 }, 'offset');
    rejectsWebview({ type: 'requestPage', requestId: 1, offset: Number.NaN, limit: 10 }, 'offset');
    rejectsWebview({ type: 'recall', requestId: 1, query: 'q', limit: PROTOCOL_LIMITS.recallLimitMax + 1 }, 'limit');
    rejectsWebview({ type: 'selectEntity', id: 'x'.repeat(PROTOCOL_LIMITS.idLength + 1) }, 'id');
  });

  it('rejects a blank recall query', () => {
    rejectsWebview({ type: 'recall', requestId: 1, query: '   ', limit: 5 }, 'query');
  });

  it('drops unknown extra fields instead of passing them on', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'selectEntity', id: 'e1', sql: 'DROP TABLE entities' }), { type: 'selectEntity', id: 'e1' });
  });
});

describe('webview protocol: host → webview messages', () => {
  it('accepts well-formed page, delta, detail, stats, focal, recall, select and error messages', () => {
    const good = [
      page(),
      { type: 'delta', total: 2, upserts: [entity(1, { pinned: true, pinnedAt: '2026-11-29T00:00:00Z' })], removed: ['e9'] },
      { type: 'detail', id: 'e3', detail: detail(3) },
      { type: 'detail', id: 'gone', detail: null },
      { type: 'stats', stats: stats() },
      { type: 'stats', stats: { ...stats(), telemetry: { feedbackAspectsUpdated: 1, feedbackFtsConfirmations: 2, feedbackDecayedAspects: 0, feedbackPropagatedAttributes: 0, lastRunAt: null } } },
      { type: 'focal', focal: { source: 'project', resolvedAt: null, entities: [{ id: 'e1', name: 'E', pinned: true }] } },
      { type: 'focal', focal: null },
      { type: 'recallResult', requestId: 2, query: 'q', tookMs: 3.5, results: [recallResult()] },
      { type: 'select', id: 'e1' },
      { type: 'error', scope: 'pin', message: 'The entity no longer exists.' },
    ];
    for (const m of good) assert.deepEqual(parseHostMessage(m), m);
  });

  it('rejects an entity row with a bad field, naming the row and field', () => {
    rejectsHost(mutate(page(), (m) => { (m.entities as Record<string, unknown>[])[1]!.aspects = -1; }), 'entities[1].aspects');
    rejectsHost(mutate(page(), (m) => { (m.entities as Record<string, unknown>[])[0]!.pinned = 1; }), 'entities[0].pinned');
    rejectsHost(mutate(page(), (m) => { delete (m.entities as Record<string, unknown>[])[0]!.name; }), 'entities[0].name');
  });

  it('rejects health outside its ranges and unknown trends', () => {
    rejectsHost(mutate(page(), (m) => { ((m.entities as Record<string, Record<string, unknown>>[])[0]!.health!).winRate = 1.2; }), 'health.winRate');
    rejectsHost(mutate(page(), (m) => { ((m.entities as Record<string, Record<string, unknown>>[])[0]!.health!).trend = 'skyrocketing'; }), 'health.trend');
  });

  it('rejects a page whose rows overrun its total', () => {
    rejectsHost({ ...page(), total: 1 }, 'offset + entities.length <= total');
  });

  it('rejects a page larger than the page limit', () => {
    const many = Array.from({ length: PROTOCOL_LIMITS.pageMax + 1 }, (_, i) => entity(i));
    rejectsHost(page(many), 'entities');
  });

  it('rejects aspect weights outside [0, 1] and aspects not sorted by weight', () => {
    rejectsHost(mutate({ type: 'detail', id: 'e3', detail: detail(3) }, (m) => { ((m.detail as Record<string, Record<string, unknown>[]>).aspects[0]!).weight = 1.5; }), 'aspects[0].weight');
    rejectsHost(mutate({ type: 'detail', id: 'e3', detail: detail(3) }, (m) => { ((m.detail as Record<string, Record<string, unknown>[]>).aspects[1]!).weight = 0.95; }), 'sorted by weight');
  });

  it('rejects an attribute with an unknown kind or status', () => {
    const bad = (field: string, value: string) => mutate({ type: 'detail', id: 'e3', detail: detail(3) }, (m) => {
      (((m.detail as Record<string, Record<string, Record<string, unknown>[]>[]>).aspects[0]!).attributes[0]!)[field] = value;
    });
    rejectsHost(bad('kind', 'rumour'), 'attributes[0].kind');
    rejectsHost(bad('status', 'archived'), 'attributes[0].status');
  });

  it('rejects a detail whose summary is another entity', () => {
    rejectsHost({ type: 'detail', id: 'e4', detail: detail(3) }, 'detail.summary.id');
  });

  it('rejects non-finite scores and negative counts in stats and recall results', () => {
    rejectsHost(mutate({ type: 'recallResult', requestId: 1, query: 'q', tookMs: 1, results: [recallResult()] }, (m) => {
      ((m.results as Record<string, unknown>[])[0]!).score = 'high';
    }), 'results[0].score');
    rejectsHost(mutate({ type: 'stats', stats: stats() }, (m) => { ((m.stats as Record<string, Record<string, unknown>>).counts!).memories = -3; }), 'counts.memories');
    rejectsHost(mutate({ type: 'stats', stats: stats() }, (m) => { ((m.stats as Record<string, Record<string, unknown>>).feedback!).avgAspectWeight = 2; }), 'feedback.avgAspectWeight');
  });

  it('rejects an error message without text or with an unknown scope', () => {
    rejectsHost({ type: 'error', scope: 'pin', message: '' }, 'message');
    rejectsHost({ type: 'error', scope: 'kernel', message: 'x' }, 'scope');
  });
});

import { strict as assert } from 'node:assert';
import { toRecallView } from '../../../src/extension/knowledge/recallView';
import { recallResultDecoder } from '../../../src/shared/knowledgeProtocol';
import { runDecoder } from '../../../src/shared/decode';
import type { RecallResult } from '../../../src/core/recall/recallTypes';

const base: RecallResult = { id: 'old', sourceId: null, content: 'We store the reading list in a JSON file.', score: 0.5, relevance: 1, type: 'decision', createdAt: '2026-06-01T00:00:00.000Z' };

describe('recall playground view of currentness', () => {
  it('marks a superseded memory with its replacement, and the view passes the protocol decoder', () => {
    const view = toRecallView({ ...base, currentness: { status: 'superseded', replacement: 'Decision: move the reading list to SQLite.', replacementId: 'new' } });
    assert.deepEqual(view.stale, { status: 'superseded', replacement: 'Decision: move the reading list to SQLite.' });
    const decoded = runDecoder(recallResultDecoder, JSON.parse(JSON.stringify(view)));
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.error);
  });

  it('leaves a current memory unmarked and a replacement without text as null', () => {
    assert.equal(toRecallView(base).stale, null);
    assert.deepEqual(toRecallView({ ...base, currentness: { status: 'partly-superseded' } }).stale, { status: 'partly-superseded', replacement: null });
  });

  it('refuses an unknown staleness status from the host', () => {
    const view = { ...toRecallView(base), stale: { status: 'obsolete', replacement: null } };
    assert.equal(runDecoder(recallResultDecoder, view).ok, false);
  });
});

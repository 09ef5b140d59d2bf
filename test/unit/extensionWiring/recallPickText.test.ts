import { strict as assert } from 'node:assert';
import { recallPickItems } from '../../../src/extension/commands/recallPickText';
import type { RecallResult } from '../../../src/core/recall/recallTypes';

const explain = (sources: string[]): NonNullable<RecallResult['explain']> => ({
  channels: { lexical: 0.6, semantic: 0.35, hint: 0, traversal: 0 }, fused: 0.6, sources, termsHit: 2, termCount: 3, boosts: [], penalties: [], notes: [], score: 1.1121,
});

describe('the Recall command\'s quick pick', () => {
  const current: RecallResult = { id: 'new', sourceId: null, content: 'Decision: move the reading list from the JSON file to SQLite.', score: 1.1121, relevance: 1, type: 'decision', createdAt: '2026-06-23T10:41:00.000Z', explain: explain(['lexical', 'vector']) };
  const stale: RecallResult = { id: 'old', sourceId: null, content: 'We store the reading list in a single JSON file.', score: 0.4449, relevance: 0.4, type: 'fact', createdAt: '2026-06-02T09:00:00.000Z',
    currentness: { status: 'superseded', replacement: current.content, replacementId: 'new' }, explain: explain(['lexical']) };

  it('shows relevance on 0–1, never the ranking score that went above 1', () => {
    const items = recallPickItems([current, stale]);
    assert.equal(items[0]?.description, 'decision · 2026-06-23 · relevance 1.00');
    assert.doesNotMatch(items.map((i) => i.description).join(' '), /1\.11|score/);
  });

  it('says how each memory was found in the words of "Why", and which memory replaced a stale one', () => {
    const items = recallPickItems([current, stale]);
    assert.equal(items[0]?.detail, 'Found because it shares 2 of 3 words with the question; is close in meaning (similarity 0.35).');
    assert.equal(items[1]?.detail, 'Found because it shares 2 of 3 words with the question.');
    assert.equal(items[1]?.description, 'fact · 2026-06-02 · relevance 0.40 · superseded by [1]');
    assert.deepEqual(items.map((i) => i.id), ['new', 'old']);
  });

  it('leaves the detail out when the recall carried no explanation', () => {
    const { explain: _explain, ...bare } = current;
    assert.equal(recallPickItems([bare])[0]?.detail, undefined);
  });
});

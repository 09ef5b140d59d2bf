import { strict as assert } from 'node:assert';
import { recallPickItems } from '../../../src/extension/commands/recallPickText';
import type { RecallPickItem, RecallPickMemory } from '../../../src/extension/commands/recallPickText';
import type { RecallResult } from '../../../src/core/recall/recallTypes';

const explain = (sources: string[], semantic = 0.35): NonNullable<RecallResult['explain']> => ({
  channels: { lexical: 0.6, semantic, hint: 0, traversal: 0 }, fused: 0.6, sources, termsHit: 2, termCount: 3, boosts: [], penalties: [], notes: [], score: 1.1121,
});
const memory = (i: RecallPickItem | undefined): RecallPickMemory => {
  assert.ok(i && !('separator' in i), JSON.stringify(i));
  return i as RecallPickMemory;
};

describe('the Recall command\'s quick pick', () => {
  const current: RecallResult = { id: 'new', sourceId: null, content: 'Decision: move the reading list from the JSON file to SQLite.', score: 1.1121, relevance: 1, type: 'decision', createdAt: '2026-06-23T10:41:00.000Z', explain: explain(['lexical', 'vector']) };
  const stale: RecallResult = { id: 'old', sourceId: null, content: 'We store the reading list in a single JSON file.', score: 0.4449, relevance: 0.4, type: 'fact', createdAt: '2026-06-02T09:00:00.000Z',
    currentness: { status: 'superseded', replacement: current.content, replacementId: 'new' }, explain: explain(['lexical']) };
  const weak: RecallResult = { id: 'weak', sourceId: null, content: 'The user prefers unittest over pytest.', score: 0.2224, relevance: 0.2, type: 'preference', createdAt: '2026-06-03T09:00:00.000Z', explain: explain(['vector'], 0.3) };

  it('puts relevance on 0–1 on the second line, never the ranking score that went above 1', () => {
    const items = recallPickItems([current, stale]);
    assert.equal(memory(items[0]).label, 'Decision: move the reading list from the JSON file to SQLite.');
    assert.match(memory(items[0]).detail, /^decision · 2026-06-23 · relevance 1\.00 — /);
    assert.doesNotMatch(items.map((i) => memory(i).detail).join(' '), /1\.11|score/);
  });

  it('says how each memory was found in the words of "Why", and which memory replaced a stale one', () => {
    const items = recallPickItems([current, stale]);
    assert.equal(memory(items[0]).detail, 'decision · 2026-06-23 · relevance 1.00 — Found because it shares 2 of 3 words with the question; is close in meaning (similarity 0.35).');
    assert.equal(memory(items[1]).detail, 'fact · 2026-06-02 · relevance 0.40 · superseded by: "Decision: move the reading list from the JSON file to SQLit…" — Found because it shares 2 of 3 words with the question.');
    assert.deepEqual(items.map((i) => memory(i).id), ['new', 'old']);
  });

  it('lists memories below the relevance floor after a separator, not among the answers', () => {
    const items = recallPickItems([current, weak, stale]);
    assert.deepEqual(items.map((i) => ('separator' in i ? `-- ${i.label}` : i.id)), ['new', 'old', '-- weaker matches, below 0.35 of the best', 'weak']);
    assert.match(memory(items[3]).detail, /^preference · 2026-06-03 · relevance 0\.20 — Found because it is close in meaning/);
  });

  it('keeps the facts when the recall carried no explanation', () => {
    const { explain: _explain, ...bare } = current;
    assert.equal(memory(recallPickItems([bare])[0]).detail, 'decision · 2026-06-23 · relevance 1.00');
  });
});

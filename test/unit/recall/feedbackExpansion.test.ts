import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { blendFeedback, feedbackLexical, feedbackTerms } from '../../../src/core/recall/feedbackExpansion';
import { lexicalSearch } from '../../../src/core/recall/lexicalArm';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { insertMemory } from './recallDb';

describe('pseudo-relevance feedback for the lexical arm', () => {
  it('picks words shared by the feedback docs, not query words, stop words, numbers or one-doc words', () => {
    const docs = [
      { content: 'Mel: we went camping by the lake in 2023', score: 1 },
      { content: 'Mel: camping again, the lake was cold', score: 0.8 },
      { content: 'Mel: pottery class tonight', score: 0.5 },
    ];
    const terms = feedbackTerms(docs, ['trip'], () => 1, 5, 2);
    assert.deepEqual(terms.sort(), ['camping', 'lake', 'mel']);
    // A query word (compared by stem) is never feedback.
    assert.deepEqual(feedbackTerms(docs, ['camp'], () => 1, 5, 2).sort(), ['lake', 'mel']);
  });

  it('ranks by score mass times rarity, so a name held by half the store drops behind rare words', () => {
    const docs = [
      { content: 'Mel: camping by the lake', score: 1 },
      { content: 'Mel: the lake and camping', score: 1 },
    ];
    const rarity = (w: string): number => (w === 'mel' ? 0.1 : w === 'lake' ? 0.9 : 0.5);
    assert.deepEqual(feedbackTerms(docs, [], rarity, 2, 2), ['lake', 'camping']);
    // A word of weight 0 (held by every memory) is never added.
    assert.deepEqual(feedbackTerms(docs, [], (w) => (w === 'lake' ? 1 : 0), 5, 2), ['lake']);
  });

  it('blends feedback into the lexical channel and lets feedback-only memories join with no hits', () => {
    const lexical = new Map([['a', { score: 1, hits: 2, termCount: 2 }], ['b', { score: 0.5, hits: 1, termCount: 2 }]]);
    const out = blendFeedback(lexical, new Map([['b', 1], ['c', 0.5], ['d', 0]]), 0.2, 2);
    assert.deepEqual([...out.entries()].map(([id, h]) => [id, Number(h.score.toFixed(3)), h.hits]), [['a', 0.8, 2], ['b', 0.6, 1], ['c', 0.1, 0]]);
  });

  describe('over a store', () => {
    let store: MemoryStore;
    beforeEach(async () => {
      store = await openMemoryStore({ clock: new ManualClock() });
      await store.write('seed', (w) => {
        insertMemory(w, { id: 'q1', content: 'Our holiday trip went to the lake, camping with the kids' });
        insertMemory(w, { id: 'q2', content: 'The holiday trip: camping at the lake was lovely' });
        insertMemory(w, { id: 'ans', content: 'Camping by the lake again next summer, the kids loved it' });
        for (let i = 0; i < 12; i++) insertMemory(w, { id: `n${i}`, content: `unrelated note ${i} about the office printer` });
      });
    });
    afterEach(async () => { await store.close(); });

    it('finds a memory that shares no query word through the words of the best hits', () => {
      const off = resolveSearchConfig();
      const cfg = resolveSearchConfig({ feedback: { enabled: true, weight: 0.3, docs: 2, terms: 3, minDocs: 2 } });
      const terms = ['holiday', 'trip'];
      const hits = store.read((db) => lexicalSearch(db, terms, {}, cfg));
      assert.equal(hits.has('ans'), false);
      assert.equal(store.read((db) => feedbackLexical(db, hits, terms, {}, off)).has('ans'), false);
      const expanded = store.read((db) => feedbackLexical(db, hits, terms, {}, cfg));
      assert.equal(expanded.get('ans')?.hits, 0);
      assert.ok((expanded.get('ans')?.score ?? 0) > 0);
      // The query's own hits stay ahead of the feedback-only one.
      assert.ok((expanded.get('q1')?.score ?? 0) > (expanded.get('ans')?.score ?? 0));
      assert.equal([...expanded.keys()].some((id) => id.startsWith('n')), false);
    });
  });
});

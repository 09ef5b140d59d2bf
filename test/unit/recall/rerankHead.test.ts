import { strict as assert } from 'node:assert';
import { DEFAULT_SEARCH_CONFIG } from '../../../src/core/config/searchConfig';
import { embeddingBlendReranker, rerankHead } from '../../../src/core/recall/rerankHead';
import type { RecallReranker } from '../../../src/core/recall/rerankHead';
import { cand } from './candidateFixture';

const cfg = DEFAULT_SEARCH_CONFIG.rerank;
const list = (): ReturnType<typeof cand>[] => [cand('a', 0.9), cand('b', 0.8), cand('c', 0.7)];

describe('recall rerank of the head', () => {
  it('blends 0.7·score + 0.3·cosine and re-sorts the head', async () => {
    const r = embeddingBlendReranker(new Map([['a', 0], ['b', 1]]));
    const { ranked } = await rerankHead('q', list(), r, cfg);
    assert.deepEqual(ranked.map((c) => c.id), ['b', 'c', 'a']); // b 0.86, c 0.7 (no vector), a 0.63
    assert.ok(Math.abs(ranked[0]!.score - 0.86) < 1e-9);
  });

  it('reranks only topN and appends the tail untouched', async () => {
    const reverse: RecallReranker = { id: 'rev', rerank: async (_q, items) => items.map((it, i) => ({ id: it.id, score: i })) };
    const { ranked } = await rerankHead('q', list(), reverse, { ...cfg, topN: 2 });
    assert.deepEqual(ranked.map((c) => c.id), ['b', 'a', 'c']);
    assert.equal(ranked[2]!.score, 0.7);
  });

  it('keeps the original order when the reranker throws or times out', async () => {
    const boom: RecallReranker = { id: 'boom', rerank: async () => { throw new Error('x'); } };
    const slow: RecallReranker = { id: 'slow', rerank: () => new Promise((res) => setTimeout(() => res([{ id: 'c', score: 9 }]), 200)) };
    const r1 = await rerankHead('q', list(), boom, cfg);
    assert.deepEqual(r1.ranked.map((c) => c.id), ['a', 'b', 'c']);
    assert.match(r1.note!, /failed/);
    const r2 = await rerankHead('q', list(), slow, { ...cfg, timeoutMs: 10 });
    assert.deepEqual(r2.ranked.map((c) => c.id), ['a', 'b', 'c']);
    assert.equal(r2.ranked[2]!.score, 0.7);
  });

  it('never drops a candidate when the provider returns fewer or unknown ids', async () => {
    const partial: RecallReranker = { id: 'p', rerank: async () => [{ id: 'zzz', score: 5 }, { id: 'c', score: 1 }] };
    const { ranked } = await rerankHead('q', list(), partial, cfg);
    assert.deepEqual(ranked.map((c) => c.id), ['c', 'a', 'b']);
  });
});

import { strict as assert } from 'node:assert';
import { DEFAULT_SEARCH_CONFIG } from '../../../src/core/config/searchConfig';
import { createEmbeddingReranker } from '../../../src/core/models/embeddingReranker';
import type { Reranker } from '../../../src/core/models/rerank';
import { rerankHead } from '../../../src/core/recall/rerankHead';
import { cand } from './candidateFixture';

// The stage is off by default (docs/recall-design.md, "Sixth round"); these cases test it switched on.
const cfg = { ...DEFAULT_SEARCH_CONFIG.rerank, enabled: true };
const list = (): ReturnType<typeof cand>[] => [cand('a', 0.9), cand('b', 0.8), cand('c', 0.7)];

describe('recall rerank of the head', () => {
  it('blends 0.7·score + 0.3·cosine (embedding reranker) and records the change in explain', async () => {
    const vecs = new Map([['a', new Float32Array([0, 1])], ['b', new Float32Array([1, 0])]]);
    const r = createEmbeddingReranker({ queryVector: new Float32Array([1, 0]), vectorFor: (id) => vecs.get(id) });
    const { ranked } = await rerankHead('q', list(), r, cfg);
    assert.deepEqual(ranked.map((c) => c.id), ['b', 'c', 'a']); // b 0.86, c 0.7 (no vector), a 0.63
    assert.ok(Math.abs(ranked[0]!.score - 0.86) < 1e-9);
    assert.equal(ranked[2]!.explain.penalties[0]?.stage, 'rerank:embedding');
  });

  it('reranks only topN and appends the tail untouched', async () => {
    const reverse: Reranker = { id: 'rev', rerank: async (_q, head) => [...head].reverse().map((c, i) => ({ ...c, score: 1 - i / 10 })) };
    const { ranked } = await rerankHead('q', list(), reverse, { ...cfg, topN: 2 });
    assert.deepEqual(ranked.map((c) => c.id), ['b', 'a', 'c']);
    assert.equal(ranked[2]!.score, 0.7);
  });

  it('keeps the original order when the reranker throws or times out', async () => {
    const boom: Reranker = { id: 'boom', rerank: async () => { throw new Error('x'); } };
    const slow: Reranker = { id: 'slow', rerank: () => new Promise((res) => setTimeout(() => res([]), 200)) };
    const r1 = await rerankHead('q', list(), boom, cfg);
    assert.deepEqual(r1.ranked.map((c) => c.id), ['a', 'b', 'c']);
    assert.match(r1.note!, /failed/);
    const r2 = await rerankHead('q', list(), slow, { ...cfg, timeoutMs: 10 });
    assert.deepEqual(r2.ranked.map((c) => c.id), ['a', 'b', 'c']);
    assert.match(r2.note!, /timed out/);
  });

  it('never drops a candidate when the provider returns fewer or unknown ids', async () => {
    const partial: Reranker = { id: 'p', rerank: async () => [{ id: 'zzz', content: '', score: 5 }, { id: 'c', content: '', score: 1 }] };
    const { ranked } = await rerankHead('q', list(), partial, cfg);
    assert.deepEqual(ranked.map((c) => c.id), ['c', 'a', 'b']);
  });
});

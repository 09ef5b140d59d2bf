import { strict as assert } from 'node:assert';
import { createEmbeddingReranker } from '../../../src/core/models/embeddingReranker';
import { createLlmReranker, parseLlmRanking } from '../../../src/core/models/llmReranker';
import { noopReranker, rerank } from '../../../src/core/models/rerank';
import type { RerankCandidate, Reranker } from '../../../src/core/models/rerank';
import type { LlmClient } from '../../../src/core/hostContext';

const cands = (n: number): (RerankCandidate & { extra: number })[] =>
  Array.from({ length: n }, (_, i) => ({ id: `m${i}`, content: `memory ${i}`, score: 1 - i / 100, extra: i }));
const ids = (xs: readonly { id: string }[]) => xs.map((x) => x.id);
const reversing: Reranker = { id: 'rev', rerank: async (_q, head) => head.slice().reverse() };

describe('rerank()', () => {
  it('sends only the head (topN, default 20) to the provider and appends the tail untouched', async () => {
    let seen = 0;
    const spy: Reranker = { id: 'spy', rerank: async (q, head) => { seen = head.length; return reversing.rerank(q, head, undefined as never); } };
    const input = cands(30);
    const out = await rerank('q', input, spy);
    assert.equal(seen, 20);
    assert.deepEqual(ids(out.candidates.slice(0, 3)), ['m19', 'm18', 'm17']);
    assert.deepEqual(out.candidates.slice(20), input.slice(20));
    assert.equal(out.status, 'reranked');
    assert.equal(out.candidates[0]?.extra, 19, 'extra fields survive');
  });

  it('returns the original order when the provider throws', async () => {
    const input = cands(5);
    const out = await rerank('q', input, { id: 'boom', rerank: async () => { throw new Error('boom'); } });
    assert.deepEqual(out.candidates, input);
    assert.equal(out.status, 'failed');
    assert.match(out.note ?? '', /boom/);
  });

  it('returns the original order on timeout and aborts the provider signal', async () => {
    let aborted = false;
    const slow: Reranker = { id: 'slow', rerank: (_q, _h, call) => new Promise(() => { call.signal.addEventListener('abort', () => { aborted = true; }); }) };
    const input = cands(5);
    const started = Date.now();
    const out = await rerank('q', input, slow, { timeoutMs: 30 });
    assert.deepEqual(out.candidates, input);
    assert.equal(out.status, 'timeout');
    assert.ok(aborted);
    assert.ok(Date.now() - started < 1000);
  });

  it('never drops or duplicates a candidate, whatever the provider returns', async () => {
    const input = cands(6);
    const weird: Reranker = { id: 'weird', rerank: async (_q, head) => [head[2] as RerankCandidate, { id: 'ghost', content: '', score: 9 }, head[2] as RerankCandidate, head[0] as RerankCandidate] };
    const out = await rerank('q', input, weird, { topN: 4 });
    assert.deepEqual(ids(out.candidates), ['m2', 'm0', 'm1', 'm3', 'm4', 'm5']);
  });

  it('falls back when the provider answers with something that is not a list', async () => {
    const input = cands(3);
    const out = await rerank('q', input, { id: 'bad', rerank: async () => 'nope' as never });
    assert.deepEqual(out.candidates, input);
    assert.equal(out.status, 'failed');
  });

  it('keeps the order with the noop provider and handles an empty list', async () => {
    const input = cands(4);
    assert.deepEqual((await rerank('q', input, noopReranker)).candidates, input);
    assert.deepEqual((await rerank('q', [], reversing)).candidates, []);
  });

  it("uses the provider's defaults when the caller gives none", async () => {
    let seen = 0;
    const p: Reranker = { id: 'p', defaults: { topN: 6 }, rerank: async (_q, head) => { seen = head.length; return head; } };
    await rerank('q', cands(10), p);
    assert.equal(seen, 6);
    await rerank('q', cands(10), p, { topN: 3 });
    assert.equal(seen, 3);
  });
});

describe('embedding reranker', () => {
  const q = Float32Array.from([1, 0]);
  const vectors = new Map([['a', Float32Array.from([0, 1])], ['b', Float32Array.from([1, 0])]]);

  it('blends 0.7 × score + 0.3 × cosine and sorts by the blend', async () => {
    const r = createEmbeddingReranker({ queryVector: q, vectorFor: (id) => vectors.get(id) });
    const out = await rerank('q', [{ id: 'a', content: '', score: 0.9 }, { id: 'b', content: '', score: 0.8 }], r);
    assert.deepEqual(ids(out.candidates), ['b', 'a']);
    assert.ok(Math.abs((out.candidates[0]?.score ?? 0) - (0.7 * 0.8 + 0.3)) < 1e-9);
    assert.ok(Math.abs((out.candidates[1]?.score ?? 0) - 0.63) < 1e-9);
  });

  it('lets a candidate without a cached vector keep its score', async () => {
    const r = createEmbeddingReranker({ queryVector: q, vectorFor: (id) => vectors.get(id) });
    const out = await rerank('q', [{ id: 'none', content: '', score: 0.7 }, { id: 'a', content: '', score: 0.9 }], r);
    assert.deepEqual(out.candidates.map((c) => [c.id, Number(c.score.toFixed(2))]), [['none', 0.7], ['a', 0.63]]);
  });
});

describe('LLM reranker', () => {
  const llm = (answer: string | Error): LlmClient => ({
    label: 'fake',
    complete: async () => { if (answer instanceof Error) throw answer; return answer; },
  });

  it('parses objects, plain numbers, a "ranking" field, code fences and surrounding prose', () => {
    assert.deepEqual(parseLlmRanking('[{"index": 2, "score": 0.9}, {"index": 1, "score": 0.2}]', 2).order, [2, 1]);
    assert.deepEqual(parseLlmRanking('Sure! ```json\n[3, 1]\n``` hope that helps', 3).order, [3, 1]);
    assert.deepEqual(parseLlmRanking('{"ranking": [2, 2, 9, 1]}', 3).order, [2, 1]);
    assert.throws(() => parseLlmRanking('I think the second one.', 3));
    assert.throws(() => parseLlmRanking('[7, 8]', 3));
  });

  it('maps the answer back by candidate number and keeps unmentioned candidates after', async () => {
    const out = await rerank('q', cands(4), createLlmReranker(llm('[{"index": 3, "score": 0.95}, {"index": 1, "score": 0.5}]')));
    assert.deepEqual(ids(out.candidates), ['m2', 'm0', 'm1', 'm3']);
    assert.equal(out.candidates[0]?.score, 0.95);
  });

  it('keeps the original order when the answer is unusable or the client throws', async () => {
    const input = cands(3);
    assert.deepEqual((await rerank('q', input, createLlmReranker(llm('no idea')))).candidates, input);
    assert.deepEqual((await rerank('q', input, createLlmReranker(llm(new Error('offline'))))).candidates, input);
  });
});

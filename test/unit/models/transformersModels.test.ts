import { strict as assert } from 'node:assert';
import { MemoryError } from '../../../src/core/errors';
import { createCrossEncoderReranker, createTransformersPairScorer, relevanceFromLogits } from '../../../src/core/models/crossEncoderReranker';
import type { PairScorer } from '../../../src/core/models/crossEncoderReranker';
import { cosine } from '../../../src/core/models/embedder';
import { rerank } from '../../../src/core/models/rerank';
import { TransformersEmbedder } from '../../../src/core/models/transformersEmbedder';
import { createWorkerPairScorer } from '../../../src/core/models/workerPairScorer';
import { tinyBertFixture } from './tinyBertFixture';

const isCode = (code: string) => (e: unknown) => e instanceof MemoryError && e.code === code;
const docs = ['the port is 8080', 'deploy on tuesday', 'use sqlite for the database', 'dark mode theme', 'the api key is in the vault',
  'node worker thread', 'fix the cache bug', 'release weekly'];
const cands = docs.map((content, i) => ({ id: `m${i}`, content, score: 1 - i / 10 }));

describe('transformers.js models (tiny BERT-shaped fixture, not a real model)', function () {
  this.timeout(60_000);

  describe('TransformersEmbedder', () => {
    it('embeds with a local Hugging Face folder: one normalised vector per text, dims from config.json', async () => {
      const e = new TransformersEmbedder({ modelDir: await tinyBertFixture(), id: 'tiny-bert-fixture', batchSize: 3 });
      assert.equal(e.dims, 8);
      const texts = ['what port', 'the database', 'what port', 'deploy', ''];
      const v = await e.embed(texts);
      assert.equal(v.length, 5);
      for (const x of v) assert.ok(Math.abs(Math.hypot(...Array.from(x)) - 1) < 1e-5);
      assert.ok(cosine(v[0] as Float32Array, v[2] as Float32Array) > 0.9999, 'same text, different batch');
      await e.dispose();
    });

    it('refuses a folder without a model with E_MODEL_MISSING', () => {
      assert.throws(() => new TransformersEmbedder({ modelDir: '/nonexistent', id: 'x' }), isCode('E_MODEL_MISSING'));
    });

    it('stops between batches when cancelled', async () => {
      const e = new TransformersEmbedder({ modelDir: await tinyBertFixture(), id: 'tiny', batchSize: 1 });
      const c = new AbortController();
      const p = e.embed(['a', 'b', 'c'], { signal: c.signal });
      c.abort();
      await assert.rejects(p, isCode('E_CANCELLED'));
    });
  });

  describe('cross-encoder reranker', () => {
    it('scores only the head (default 6) and orders it by score, mapped back by index', async () => {
      const dir = await tinyBertFixture();
      const scorer = createTransformersPairScorer(dir);
      const single = await Promise.all(docs.slice(0, 6).map(async (d) => (await scorer.score('what port', [d]))[0] as number));
      const reranker = createCrossEncoderReranker({ modelDir: dir });
      await reranker.warmUp?.();
      const out = await rerank('what port', cands, reranker);
      assert.equal(out.status, 'reranked');
      const expected = docs.slice(0, 6).map((_d, i) => ({ id: `m${i}`, s: single[i] as number })).sort((a, b) => b.s - a.s);
      assert.deepEqual(out.candidates.slice(0, 6).map((c) => c.id), expected.map((x) => x.id));
      out.candidates.slice(0, 6).forEach((c, k) => assert.ok(Math.abs(c.score - (expected[k]?.s ?? NaN)) < 1e-5));
      assert.deepEqual(out.candidates.slice(6), cands.slice(6), 'tail untouched');
    });

    it('scores the same in a worker thread as in-process, in document order', async () => {
      const dir = await tinyBertFixture();
      const inProcess = Array.from(await createTransformersPairScorer(dir).score('what port', docs));
      const worker = createWorkerPairScorer(dir);
      try {
        const fromWorker = Array.from(await worker.score('what port', docs));
        assert.equal(fromWorker.length, docs.length);
        fromWorker.forEach((s, i) => assert.ok(Math.abs(s - (inProcess[i] as number)) < 1e-6));
      } finally {
        await worker.dispose();
      }
    });

    it('keeps the original order when no model is configured or the folder is missing', async () => {
      for (const r of [createCrossEncoderReranker({}), createCrossEncoderReranker({ modelDir: '/nonexistent' })]) {
        const out = await rerank('q', cands, r);
        assert.deepEqual(out.candidates, cands);
        assert.equal(out.status, 'failed');
      }
    });

    it('keeps the original order on a count mismatch, a non-numeric score, or a throw', async () => {
      const scorers: PairScorer[] = [
        { score: async (_q, d) => d.slice(1).map(() => 0.5) },
        { score: async (_q, d) => d.map(() => NaN) },
        { score: async () => { throw new Error('onnx exploded'); } },
      ];
      for (const scorer of scorers) assert.deepEqual((await rerank('q', cands, createCrossEncoderReranker({ scorer }))).candidates, cands);
    });

    it('keeps the original order when scoring exceeds the timeout (default 1,500 ms)', async () => {
      const r = createCrossEncoderReranker({ scorer: { score: () => new Promise(() => undefined) }, timeoutMs: 20 });
      const out = await rerank('q', cands, r);
      assert.equal(out.status, 'timeout');
      assert.deepEqual(out.candidates, cands);
      assert.deepEqual(createCrossEncoderReranker({}).defaults, { topN: 6, timeoutMs: 1500 });
    });

    it('turns one logit into a sigmoid and several into the last label probability', () => {
      assert.ok(Math.abs((relevanceFromLogits([0], 1, 1)[0] as number) - 0.5) < 1e-12);
      const two = relevanceFromLogits([0, Math.log(3)], 1, 2)[0] as number;
      assert.ok(Math.abs(two - 0.75) < 1e-12);
    });
  });
});

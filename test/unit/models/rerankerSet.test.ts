import { strict as assert } from 'node:assert';
import { resolveModelConfig } from '../../../src/core/config/modelConfig';
import { rerank } from '../../../src/core/models/rerank';
import { RerankerSet } from '../../../src/core/models/rerankerSet';
import { tinyBertFixture } from './tinyBertFixture';

const dirs = { bundledModelsDir: '/nonexistent', cacheDir: '/nonexistent' };
const cands = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id, i) => ({ id, content: `the port ${id}`, score: 1 - i / 10 }));

describe('RerankerSet (configured reranker)', function () {
  this.timeout(30_000);

  it('picks the provider named by the setting, with pass-through when its inputs are missing', () => {
    assert.equal(new RerankerSet(resolveModelConfig({ rerankProvider: 'none' }), { dirs }).forQuery().id, 'none');
    const emb = new RerankerSet(resolveModelConfig({ rerankProvider: 'embedding' }), { dirs });
    assert.equal(emb.forQuery().id, 'none');
    assert.equal(emb.forQuery({ queryVector: Float32Array.from([1]), vectorFor: () => undefined }).id, 'embedding');
    assert.equal(new RerankerSet(resolveModelConfig({ rerankProvider: 'llm' }), { dirs }).forQuery().id, 'none');
    assert.equal(new RerankerSet(resolveModelConfig({ rerankProvider: 'llm' }), { dirs, llm: { label: 'x', complete: async () => '[1]' } }).forQuery().id, 'llm:x');
  });

  it('uses the cross-encoder head and timeout (6, 1,500 ms) and reuses one model loaded in a worker', async () => {
    const set = new RerankerSet(resolveModelConfig({ rerankProvider: 'crossEncoder', crossEncoderModel: await tinyBertFixture() }), { dirs });
    assert.deepEqual(set.options(), { topN: 6, timeoutMs: 1500 });
    assert.equal(set.forQuery(), set.forQuery());
    await set.warmUp();
    const out = await rerank('what port', cands, set.forQuery(), set.options());
    assert.equal(out.status, 'reranked');
    assert.deepEqual(out.candidates.slice(6), cands.slice(6));
    assert.notDeepEqual(out.candidates.slice(0, 6).map((c) => c.score), cands.slice(0, 6).map((c) => c.score));
    await set.dispose();
  });

  it('keeps the original order when the configured cross-encoder is not installed', async () => {
    const set = new RerankerSet(resolveModelConfig({ rerankProvider: 'crossEncoder', crossEncoderModel: 'org/missing' }), { dirs });
    const out = await rerank('q', cands, set.forQuery(), set.options());
    assert.deepEqual(out.candidates, cands);
    assert.equal(out.status, 'failed');
    await assert.rejects(set.warmUp());
  });
});

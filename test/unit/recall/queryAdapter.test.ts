import { strict as assert } from 'node:assert';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { adaptQuery, bundledQueryAdapter, decodeQueryAdapter, embedQuery, encodeMatrix, isQueryAdapter, queryAdapterFor } from '../../../src/core/recall/queryAdapter';
import type { QueryAdapter } from '../../../src/core/recall/queryAdapter';
import { QUERY_ADAPTER_WEIGHTS } from '../../../src/core/recall/queryAdapterWeights';
import { fakeEmbedder } from './fakeEmbedder';

/** A small adapter: d 3, rank 1, W = I + u·vᵀ. */
const tiny = (modelId = 'm'): QueryAdapter => ({ modelId, dims: 3, rank: 1, u: Float32Array.from([1, 0, 0]), v: Float32Array.from([0, 2, 0]) });

describe('query adapter', () => {
  it('maps q to normalise(q + (q·U)·Vᵀ)', () => {
    // q = (1, 0, 0): q·U = 1, plus 1·v = (1, 2, 0), normalised.
    const out = adaptQuery(Float32Array.from([1, 0, 0]), tiny());
    const n = Math.sqrt(5);
    assert.deepEqual([...out].map((x) => Number(x.toFixed(6))), [1 / n, 2 / n, 0].map((x) => Number(x.toFixed(6))));
    // q orthogonal to U: unchanged (already unit length).
    assert.deepEqual([...adaptQuery(Float32Array.from([0, 0, 1]), tiny())], [0, 0, 1]);
    // A vector of another width is returned as it is.
    const other = Float32Array.from([1, 0]);
    assert.equal(adaptQuery(other, tiny()), other);
  });

  it('encodes to int8 columns and decodes within one quantisation step', () => {
    const d = 5, r = 2;
    const m = Float32Array.from({ length: d * r }, (_, i) => Math.sin(i + 1) * (i % 2 ? 0.01 : 3));
    const { scale, base64 } = encodeMatrix(m, d, r);
    const back = decodeQueryAdapter({ modelId: 'm', dims: d, rank: r, uScale: scale, vScale: scale, u: base64, v: base64 });
    for (let i = 0; i < d * r; i++) assert.ok(Math.abs((back.u[i] as number) - (m[i] as number)) <= (scale[i % r] as number) / 2 + 1e-9, `value ${i}`);
    assert.throws(() => decodeQueryAdapter({ modelId: 'm', dims: d + 1, rank: r, uScale: scale, vScale: scale, u: base64, v: base64 }), /expected 6×2 values/);
  });

  it('ships weights for the bundled model that decode to their stated size', () => {
    const a = bundledQueryAdapter();
    assert.equal(a.modelId, 'use-lite');
    assert.equal(QUERY_ADAPTER_WEIGHTS.modelId, 'use-lite');
    assert.ok(isQueryAdapter(a));
    assert.equal(a.u.length, a.dims * a.rank);
    assert.ok(a.u.some((x) => x !== 0) && a.v.some((x) => x !== 0), 'learned, not empty');
  });

  it('fits only the model and width it was learned for', () => {
    assert.ok(queryAdapterFor('use-lite', 512));
    assert.equal(queryAdapterFor('use-lite', 384), undefined);
    assert.equal(queryAdapterFor('Xenova/all-MiniLM-L6-v2', 512), undefined);
    assert.equal(queryAdapterFor('m', 3, tiny())?.modelId, 'm', 'an override for its model applies');
    assert.equal(queryAdapterFor('use-lite', 3, tiny()), undefined, 'an override for another model does not apply');
  });

  it('embedQuery adapts only when switched on and an adapter fits', async () => {
    const emb = fakeEmbedder(3, 'm');
    const raw = emb.vector('alpha beta');
    const on = await embedQuery(emb, 'alpha beta', { queryAdapter: true, adapter: tiny() });
    const off = await embedQuery(emb, 'alpha beta', { queryAdapter: false, adapter: tiny() });
    const otherModel = await embedQuery(emb, 'alpha beta', { queryAdapter: true, adapter: tiny('n') });
    assert.deepEqual([...(off as Float32Array)], [...raw]);
    assert.deepEqual([...(otherModel as Float32Array)], [...raw]);
    assert.deepEqual([...(on as Float32Array)], [...adaptQuery(raw, tiny())]);
  });

  it('is on by default; a malformed override is dropped by the configuration', () => {
    assert.equal(resolveSearchConfig().vector.queryAdapter, true);
    assert.equal(resolveSearchConfig({ vector: { adapter: { ...tiny(), u: new Float32Array(2) } } }).vector.adapter, undefined);
    assert.ok(resolveSearchConfig({ vector: { adapter: tiny() } }).vector.adapter);
  });
});

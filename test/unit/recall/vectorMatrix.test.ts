import { strict as assert } from 'node:assert';
import { VectorMatrix, blobToFloat32, normalise } from '../../../src/core/recall/vectorMatrix';

describe('recall vector matrix', () => {
  it('returns the top k by cosine, normalising rows', () => {
    const m = new VectorMatrix(2, 1);
    m.upsert('x', [10, 0]);
    m.upsert('y', [0, 3]);
    m.upsert('xy', [1, 1]);
    const top = m.topK(normalise([1, 0.1]), 2);
    assert.deepEqual(top.map((t) => t[0]), ['x', 'xy']);
    assert.ok(Math.abs(top[0]![1] - 1 / Math.sqrt(1.01)) < 1e-6);
  });

  it('updates and removes rows incrementally', () => {
    const m = new VectorMatrix(2);
    m.upsert('a', [1, 0]); m.upsert('b', [0, 1]); m.upsert('c', [1, 1]);
    m.remove('a');
    assert.equal(m.size, 2);
    assert.equal(m.cosine('a', normalise([1, 0])), undefined);
    m.upsert('b', [1, 0]);
    assert.ok(Math.abs(m.cosine('b', normalise([1, 0]))! - 1) < 1e-6);
    assert.deepEqual(m.topK(normalise([1, 0]), 5).map((t) => t[0]), ['b', 'c']);
  });

  it('agrees with a full sort on random data and honours the accept filter', () => {
    let seed = 7;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
    const m = new VectorMatrix(8, 4);
    const vecs = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i++) { const v = normalise(Array.from({ length: 8 }, rnd)); vecs.set(`m${i}`, v); m.upsert(`m${i}`, v); }
    const q = normalise(Array.from({ length: 8 }, rnd));
    const dot = (v: Float32Array): number => v.reduce((s, x, i) => s + x * q[i]!, 0);
    const expected = [...vecs].filter(([id]) => id !== 'm0').map(([id, v]) => [id, dot(v)] as const).sort((a, b) => b[1] - a[1]).slice(0, 10).map((x) => x[0]);
    assert.deepEqual(m.topK(q, 10, (id) => id !== 'm0').map((t) => t[0]), expected);
  });

  it('rejects vectors of the wrong dimension and decodes float32 blobs', () => {
    const m = new VectorMatrix(3);
    assert.throws(() => m.upsert('a', [1, 2]), /2 dims for a 3-dim index/);
    const blob = new Uint8Array(new Float32Array([1, 2, 3]).buffer);
    assert.deepEqual([...blobToFloat32(blob, 3)], [1, 2, 3]);
    assert.throws(() => blobToFloat32(blob, 4), /expected 4/);
  });

  it('scores with the WebAssembly SIMD kernel exactly like the scalar loop, across growth', () => {
    let seed = 11;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
    const simd = new VectorMatrix(48, 2);
    const plain = new VectorMatrix(48, 2, false);
    assert.equal(simd.simd, true);
    assert.equal(plain.simd, false);
    assert.equal(new VectorMatrix(3).simd, false);
    for (let i = 0; i < 500; i++) { const v = Array.from({ length: 48 }, rnd); simd.upsert(`m${i}`, v); plain.upsert(`m${i}`, v); }
    simd.remove('m7'); plain.remove('m7');
    const q = normalise(Array.from({ length: 48 }, rnd));
    const a = simd.topK(q, 25), b = plain.topK(q, 25);
    assert.deepEqual(a.map((x) => x[0]), b.map((x) => x[0]));
    a.forEach((x, i) => assert.ok(Math.abs(x[1] - b[i]![1]) < 1e-5));
  });
});

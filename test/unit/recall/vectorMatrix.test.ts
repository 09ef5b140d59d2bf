import { strict as assert } from 'node:assert';
import { createDotKernel, kernelSupports } from '../../../src/core/recall/dotKernel';
import { VectorMatrix, blobToFloat32, normalise } from '../../../src/core/recall/vectorMatrix';
import { decodeVector, int8Codes, vectorToBlob } from '../../../src/core/models/vectorStore';

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

  it('the int8 kernel computes the exact integer dot products of int8 rows and an int16 query', () => {
    let seed = 5;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
    const dims = 64, rows = 37;
    const k = createDotKernel(1);
    assert.ok(k, 'WebAssembly SIMD is available on the supported Node versions');
    const q = new Int16Array(k.memory.buffer, 0, dims);
    for (let i = 0; i < dims; i++) q[i] = Math.round(rnd() * 65534);
    const m = new Int8Array(k.memory.buffer, 256, rows * dims);
    for (let i = 0; i < m.length; i++) m[i] = Math.round(rnd() * 254);
    m.fill(127, 0, dims); q.fill(32767); // the largest products: no overflow within kernelSupports' widths
    k.dots(256, 0, rows, dims, 256 + rows * dims);
    const out = new Int32Array(k.memory.buffer, 256 + rows * dims, rows);
    for (let r = 0; r < rows; r++) {
      let s = 0;
      for (let i = 0; i < dims; i++) s += m[r * dims + i]! * q[i]!;
      assert.equal(out[r], s, `row ${r}`);
    }
    assert.equal(kernelSupports(512), true);
    assert.equal(kernelSupports(24), false);
    assert.equal(kernelSupports(16 * 9000), false, 'a width whose integer products could overflow 32 bits');
  });

  it('a stored int8 vector scores as its decoded, normalised float vector', () => {
    let seed = 3;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
    const m = new VectorMatrix(32);
    const q = normalise(Array.from({ length: 32 }, rnd));
    for (let i = 0; i < 20; i++) {
      const blob = vectorToBlob(Float32Array.from({ length: 32 }, () => rnd() * 3));
      m.upsertCodes(`m${i}`, int8Codes(blob, 32)!);
      const decoded = normalise(decodeVector(blob, 32)!);
      const expected = decoded.reduce((s, x, j) => s + x * q[j]!, 0);
      assert.ok(Math.abs(m.cosine(`m${i}`, q)! - expected) < 1e-6);
      m.row(`m${i}`)!.forEach((x, j) => assert.ok(Math.abs(x - decoded[j]!) < 1e-6));
    }
    assert.equal(int8Codes(new Uint8Array(32 * 4), 32), undefined, 'a float32 blob has no codes');
  });

  it('the two-pass SIMD top k equals the exact scan, also among near-ties, after growth, removals and with a filter', () => {
    let seed = 19;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
    for (const dims of [32, 96, 512]) {
      const simd = new VectorMatrix(dims, 4);
      const plain = new VectorMatrix(dims, 4, false);
      assert.equal(simd.simd, true);
      const base = Array.from({ length: dims }, rnd);
      for (let i = 0; i < 1500; i++) {
        // Two thirds are one vector with one code nudged: their cosines differ by less than the
        // int16 query's error, so the kernel's order alone would pick some of them wrongly.
        const v = i % 3 === 0 ? Array.from({ length: dims }, rnd) : base.map((x, j) => (j === i % dims ? x + 0.02 : x));
        simd.upsert(`m${i}`, v); plain.upsert(`m${i}`, v);
      }
      for (const id of ['m4', 'm900', 'm1499']) { simd.remove(id); plain.remove(id); }
      for (const q of [normalise(base), normalise(Array.from({ length: dims }, rnd))]) {
        for (const k of [1, 10, 100, 2000]) {
          const a = simd.topK(q, k), b = plain.topK(q, k);
          assert.deepEqual(a.map((x) => x[1]), b.map((x) => x[1]), `dims ${dims} k ${k}`);
          // Equal vectors tie; every id returned carries its own exact cosine.
          for (const [id, score] of a) assert.equal(score, plain.cosine(id, q));
        }
        const odd = (id: string): boolean => Number(id.slice(1)) % 2 === 1;
        assert.deepEqual(simd.topK(q, 25, odd).map((x) => x[1]), plain.topK(q, 25, odd).map((x) => x[1]));
      }
      // One dominant query component: the small ones lose most of their precision as int16, so
      // rows differing only there are ordered by the kernel's first pass nearly at random.
      const sharp = normalise(Array.from({ length: dims }, (_, j) => (j === 0 ? 1 : 0.0005 + Math.abs(rnd()) * 0.002)));
      const rows = new VectorMatrix(dims), exact = new VectorMatrix(dims, 4, false);
      for (let i = 0; i < 1500; i++) {
        const codes = Int8Array.from({ length: dims }, (_, j) => (j === 0 ? 100 : Math.round(rnd() * 254)));
        rows.upsertCodes(`r${i}`, codes); exact.upsertCodes(`r${i}`, codes);
      }
      for (const k of [5, 50, 300]) assert.deepEqual(rows.topK(sharp, k).map((x) => x[1]), exact.topK(sharp, k).map((x) => x[1]), `sharp query, dims ${dims} k ${k}`);
    }
  });
});

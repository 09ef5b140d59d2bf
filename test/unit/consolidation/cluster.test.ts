import { strict as assert } from 'node:assert';
import { findConflictCandidates, kMeans, seededRng } from '../../../src/core/consolidation/cluster';
import { cosine as cosineSimilarity } from '../../../src/core/models/embedder';

describe('consolidation primitives', () => {
  it('cosine of identical, orthogonal and opposite vectors', () => {
    assert.equal(cosineSimilarity([1, 2], [1, 2]).toFixed(6), '1.000000');
    assert.equal(cosineSimilarity([1, 0], [0, 1]), 0);
    assert.equal(cosineSimilarity([1, 0], [-1, 0]), -1);
  });

  it('degenerate vectors score 0, never NaN', () => {
    for (const [a, b] of [[[], []], [[0, 0], [0, 0]], [[1, 2], [1]], [[NaN, 1], [1, 1]], [[Infinity, 1], [1, 1]]] as number[][][]) {
      const s = cosineSimilarity(a as number[], b as number[]);
      assert.equal(s, 0, JSON.stringify([a, b]));
    }
  });

  it('k-means separates two disjoint blobs', () => {
    const rng = seededRng(7);
    const blobA = Array.from({ length: 10 }, () => [rng() * 0.1, rng() * 0.1]);
    const blobB = Array.from({ length: 10 }, () => [5 + rng() * 0.1, 5 + rng() * 0.1]);
    const r = kMeans([...blobA, ...blobB], 2, { rng: seededRng(1) });
    const a = new Set(r.assignments.slice(0, 10));
    const b = new Set(r.assignments.slice(10));
    assert.equal(a.size, 1);
    assert.equal(b.size, 1);
    assert.notEqual([...a][0], [...b][0]);
  });

  it('k-means is reproducible with the same seed', () => {
    const pts = Array.from({ length: 30 }, (_, i) => [Math.sin(i), Math.cos(i * 3)]);
    assert.deepEqual(kMeans(pts, 3, { rng: seededRng(42) }).assignments, kMeans(pts, 3, { rng: seededRng(42) }).assignments);
  });

  it('collapses to one cluster when k >= n or k <= 0', () => {
    assert.deepEqual(kMeans([[1, 1], [2, 2]], 5, { rng: seededRng(1) }).assignments, [0, 0]);
    assert.deepEqual(kMeans([[1, 1], [3, 3]], 0, { rng: seededRng(1) }).centroids, [[2, 2]]);
    assert.deepEqual(kMeans([], 3, { rng: seededRng(1) }).assignments, []);
  });

  it('repairs an empty cluster instead of leaving a dead centroid', () => {
    // Identical points make k-means++ pick duplicate centroids; every point then joins cluster 0 and
    // the other clusters are empty. Repair re-seeds them; the result still assigns every point.
    const pts = [[0, 0], [0, 0], [0, 0], [10, 10]];
    const r = kMeans(pts, 3, { rng: seededRng(3) });
    assert.equal(r.assignments.length, 4);
    assert.ok(r.assignments.every((c) => c >= 0 && c < 3));
    assert.notEqual(r.assignments[0], r.assignments[3]);
  });

  it('pairs conflict candidates only within the same key', () => {
    const v = [[1, 0], [0.99, 0.01], [1, 0.001], [0, 1]];
    const pairs = findConflictCandidates(['database', 'database', 'cache', 'database'], v);
    assert.deepEqual(pairs.map((p) => [p.a, p.b]), [[0, 1]]);
    assert.deepEqual(findConflictCandidates([null, null], [[1, 0], [1, 0]]), []);
  });
});

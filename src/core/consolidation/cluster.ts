/**
 * Consolidation primitives (after slow-stack/mneme
 * clustering.js, MIT): k-means with k-means++ seeding and empty-cluster repair, and same-key
 * conflict candidates (cosine similarity comes from the models module). Pure, no database.
 * Randomness is injected.
 */
import { cosine as cosineSimilarity } from '../models/embedder';

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/** mulberry32: a small deterministic generator for tests and reproducible runs. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Vec = ArrayLike<number>;

function sqDist(a: Vec, b: Vec): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) { const d = (a[i] as number) - (b[i] as number); s += d * d; }
  return s;
}

export interface KMeansOptions {
  readonly rng: Rng;
  readonly maxIter?: number;
  readonly tol?: number;
}

export interface KMeansResult {
  /** Cluster index per input vector. */
  readonly assignments: number[];
  readonly centroids: number[][];
  readonly iterations: number;
}

/** Default iteration cap and centroid-move tolerance (default 100, 1e-4). */
export const KMEANS_MAX_ITER = 100;
export const KMEANS_TOL = 1e-4;

function nearest(v: Vec, centroids: number[][]): number {
  let best = 0;
  let bestD = Infinity;
  centroids.forEach((c, j) => { const d = sqDist(v, c); if (d < bestD) { bestD = d; best = j; } });
  return best;
}

function seedPlusPlus(vectors: Vec[], k: number, rng: Rng): number[][] {
  const pick = (i: number): number[] => Array.from(vectors[i] as Vec);
  const centroids: number[][] = [pick(Math.floor(rng() * vectors.length))];
  while (centroids.length < k) {
    const d = vectors.map((v) => Math.min(...centroids.map((c) => sqDist(v, c))));
    const total = d.reduce((s, x) => s + x, 0);
    if (total === 0) { centroids.push(pick(Math.floor(rng() * vectors.length))); continue; }
    let r = rng() * total;
    let idx = d.length - 1;
    for (let i = 0; i < d.length; i++) { r -= d[i] as number; if (r <= 0) { idx = i; break; } }
    centroids.push(pick(idx));
  }
  return centroids;
}

/** k-means with k-means++ seeding; k ≤ 0 or k ≥ n collapses to one cluster. */
export function kMeans(vectors: readonly Vec[], k: number, opts: KMeansOptions): KMeansResult {
  const n = vectors.length;
  if (n === 0) return { assignments: [], centroids: [], iterations: 0 };
  const dims = (vectors[0] as Vec).length;
  if (k <= 0 || k >= n) {
    const mean = new Array<number>(dims).fill(0);
    for (const v of vectors) for (let i = 0; i < dims; i++) mean[i] = (mean[i] as number) + (v[i] as number) / n;
    return { assignments: new Array<number>(n).fill(0), centroids: [mean], iterations: 0 };
  }
  const maxIter = opts.maxIter ?? KMEANS_MAX_ITER;
  const tol = opts.tol ?? KMEANS_TOL;
  const vs = vectors as Vec[];
  let centroids = seedPlusPlus(vs, k, opts.rng);
  let assignments = new Array<number>(n).fill(-1);
  let iter = 0;
  for (; iter < maxIter; iter++) {
    const next = vs.map((v) => nearest(v, centroids));
    const changed = next.some((c, i) => c !== assignments[i]);
    assignments = next;
    if (!changed) break;
    const sums = centroids.map(() => new Array<number>(dims).fill(0));
    const counts = new Array<number>(k).fill(0);
    vs.forEach((v, i) => {
      const c = assignments[i] as number;
      counts[c] = (counts[c] as number) + 1;
      const s = sums[c] as number[];
      for (let d = 0; d < dims; d++) s[d] = (s[d] as number) + (v[d] as number);
    });
    let repaired = false;
    const moved = centroids.map((_old, j) => {
      const cnt = counts[j] as number;
      if (cnt === 0) {
        repaired = true;
        return Array.from(vs[Math.floor(opts.rng() * n)] as Vec);
      }
      return (sums[j] as number[]).map((x) => x / cnt);
    });
    const shift = Math.max(...moved.map((c, j) => Math.sqrt(sqDist(c, centroids[j] as number[]))));
    centroids = moved;
    if (!repaired && shift < tol) { assignments = vs.map((v) => nearest(v, centroids)); iter++; break; }
  }
  return { assignments, centroids, iterations: iter };
}

export interface ConflictCandidate {
  readonly a: number;
  readonly b: number;
  readonly similarity: number;
}

/** Default similarity above which two same-key items are conflict candidates (default 0.85). */
export const CONFLICT_THRESHOLD = 0.85;

/**
 * Pairs (lower index first) whose `key` is equal and whose cosine exceeds `threshold`.
 * Items with different keys — or no key — are never paired.
 */
export function findConflictCandidates(keys: readonly (string | null | undefined)[], vectors: readonly Vec[], threshold = CONFLICT_THRESHOLD): ConflictCandidate[] {
  const out: ConflictCandidate[] = [];
  for (let i = 0; i < keys.length; i++) {
    const ki = keys[i];
    if (ki === null || ki === undefined) continue;
    for (let j = i + 1; j < keys.length; j++) {
      if (keys[j] !== ki) continue;
      const s = cosineSimilarity(vectors[i] as Vec, vectors[j] as Vec);
      if (s > threshold) out.push({ a: i, b: j, similarity: s });
    }
  }
  return out;
}

/**
 * The vector arm's in-memory index: one packed matrix of int8 rows (row = memory, dims columns),
 * the codes the store keeps for every vector (models/vectorStore.ts), with incremental upserts and
 * removals (a removed row is swapped with the last row) and brute-force cosine. A row's cosine
 * with a query is factor × Σ code·query, factor = 1 / ‖codes‖: the store's scale cancels in the
 * normalisation, so this is the cosine of the stored vector exactly as the float32 matrix this
 * replaced computed it, at a quarter of its memory (docs/store.md, "Recall latency, fourth round").
 *
 * When the width suits the WebAssembly SIMD kernel (dotKernel.ts) the codes live in the kernel's
 * memory, laid out as [query as int16 | codes (capacity rows) | scores (capacity int32)], and a
 * query runs in two passes: the kernel's integer scores with the query quantised to int16 select
 * every row that can be in the top k (each approximate score is within a bound of the exact one,
 * so a row is dropped only when even its best case is below k rows' worst case), and those few
 * are scored exactly. Otherwise a plain array and an exact scalar loop. Measured in bench/recall.ts.
 */
import { quantizeInt8 } from '../models/vectorStore';
import { createDotKernel, kernelSupports } from './dotKernel';
import type { DotKernel } from './dotKernel';

const PAGE = 65536;

export class VectorMatrix {
  private codes: Int8Array;
  /** 1 / ‖codes‖ per row (0 for a zero row). */
  private factors: Float64Array;
  /** factor × Σ |code| per row: the quantised query's error bound of the row is l1 × 0.5 / scale. */
  private l1: Float64Array;
  private rowIds: string[] = [];
  private rowOf = new Map<string, number>();
  private capacity: number;
  private readonly kernel: DotKernel | undefined;
  /** Byte offset of the codes in kernel memory (after the int16 query slot, 16-byte aligned). */
  private readonly matrixOffset: number;
  /** The int16 query's largest magnitude: a row's integer dot product stays within 32 bits. */
  private readonly queryRange: number;
  private readonly scratch: Int8Array;
  /** Every row's score of the current query (reused: at 100k rows a fresh one per query was 0.8 MB of garbage). */
  private scores = new Float64Array(0);

  constructor(readonly dims: number, initialCapacity = 1024, useKernel = true) {
    if (!Number.isInteger(dims) || dims <= 0) throw new RangeError(`dims must be a positive integer, got ${dims}`);
    this.capacity = Math.max(1, initialCapacity);
    this.matrixOffset = Math.ceil((dims * 2) / 16) * 16;
    this.queryRange = Math.min(32767, Math.floor(0x7fffffff / (dims * 127)));
    this.kernel = useKernel && kernelSupports(dims) ? createDotKernel(this.pagesFor(this.capacity)) : undefined;
    this.codes = this.kernel ? new Int8Array(this.kernel.memory.buffer, this.matrixOffset, this.capacity * dims) : new Int8Array(dims * this.capacity);
    this.factors = new Float64Array(this.capacity);
    this.l1 = new Float64Array(this.capacity);
    this.scratch = new Int8Array(dims);
  }

  /** Whether queries run on the WebAssembly SIMD kernel. */
  get simd(): boolean { return this.kernel !== undefined; }

  private pagesFor(capacity: number): number {
    return Math.ceil((this.matrixOffset + capacity * this.dims + capacity * 4) / PAGE);
  }

  /**
   * Makes room for `rows` rows in one step. The index's first load knows its row count: growing by
   * doubling up to 100k rows re-made the matrix seven times and left it at 131,072 rows.
   */
  reserve(rows: number): void {
    if (rows > this.capacity) this.grow(rows);
  }

  private grow(next = this.capacity * 2): void {
    if (this.kernel) {
      const need = this.pagesFor(next) - this.kernel.memory.buffer.byteLength / PAGE;
      if (need > 0) this.kernel.memory.grow(need);
      this.codes = new Int8Array(this.kernel.memory.buffer, this.matrixOffset, next * this.dims);
    } else {
      const grown = new Int8Array(next * this.dims);
      grown.set(this.codes);
      this.codes = grown;
    }
    const factors = new Float64Array(next); factors.set(this.factors); this.factors = factors;
    const l1 = new Float64Array(next); l1.set(this.l1); this.l1 = l1;
    this.capacity = next;
  }

  get size(): number { return this.rowIds.length; }

  has(id: string): boolean { return this.rowOf.has(id); }

  /** Inserts or replaces the vector of `id`, quantised as the store quantises it (a zero vector stays zero). */
  upsert(id: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dims) throw new RangeError(`vector of ${vector.length} dims for a ${this.dims}-dim index`);
    quantizeInt8(vector, this.scratch);
    this.upsertCodes(id, this.scratch);
  }

  /** Inserts or replaces the vector of `id` from its stored int8 codes (copied). */
  upsertCodes(id: string, codes: Int8Array): void {
    if (codes.length !== this.dims) throw new RangeError(`vector of ${codes.length} dims for a ${this.dims}-dim index`);
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.rowIds.length;
      if (row + 1 > this.capacity) this.grow();
      this.rowIds.push(id);
      this.rowOf.set(id, row);
    }
    let sq = 0, abs = 0;
    for (let i = 0; i < this.dims; i++) { const c = codes[i] as number; sq += c * c; abs += c < 0 ? -c : c; }
    const factor = sq > 0 ? 1 / Math.sqrt(sq) : 0;
    this.codes.set(codes, row * this.dims);
    this.factors[row] = factor;
    this.l1[row] = abs * factor;
  }

  remove(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    const last = this.rowIds.length - 1;
    if (row !== last) {
      this.codes.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.factors[row] = this.factors[last] as number;
      this.l1[row] = this.l1[last] as number;
      const moved = this.rowIds[last] as string;
      this.rowIds[row] = moved;
      this.rowOf.set(moved, row);
    }
    this.rowIds.pop();
    this.rowOf.delete(id);
    return true;
  }

  /** `id`'s normalised vector as float32 (a copy), or undefined. */
  row(id: string): Float32Array | undefined {
    const row = this.rowOf.get(id);
    if (row === undefined) return undefined;
    const out = new Float32Array(this.dims), f = this.factors[row] as number, off = row * this.dims;
    for (let i = 0; i < this.dims; i++) out[i] = (this.codes[off + i] as number) * f;
    return out;
  }

  /** Cosine of `id`'s row with a normalised query, or undefined when the id has no vector. */
  cosine(id: string, query: Float32Array): number | undefined {
    const row = this.rowOf.get(id);
    if (row === undefined) return undefined;
    return this.exact(row, query);
  }

  private exact(row: number, q: Float32Array): number {
    const c = this.codes, off = row * this.dims, n = this.dims;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, i = 0;
    for (; i + 3 < n; i += 4) {
      s0 += (c[off + i] as number) * (q[i] as number);
      s1 += (c[off + i + 1] as number) * (q[i + 1] as number);
      s2 += (c[off + i + 2] as number) * (q[i + 2] as number);
      s3 += (c[off + i + 3] as number) * (q[i + 3] as number);
    }
    for (; i < n; i++) s0 += (c[off + i] as number) * (q[i] as number);
    return (s0 + s1 + s2 + s3) * (this.factors[row] as number);
  }

  /**
   * The kernel's first pass: approximate scores of every row (a view into kernel memory, valid
   * until the next call) and the scale the int16 query was multiplied by.
   */
  private approximate(query: Float32Array): { dots: Int32Array; scale: number } {
    const k = this.kernel as DotKernel;
    let max = 0;
    for (let i = 0; i < this.dims; i++) max = Math.max(max, Math.abs(query[i] as number));
    const scale = max > 0 && Number.isFinite(max) ? this.queryRange / max : 0;
    const q16 = new Int16Array(k.memory.buffer, 0, this.dims);
    for (let i = 0; i < this.dims; i++) q16[i] = Math.round((query[i] as number) * scale);
    const outOffset = this.matrixOffset + this.capacity * this.dims;
    k.dots(this.matrixOffset, 0, this.rowIds.length, this.dims, outOffset);
    return { dots: new Int32Array(k.memory.buffer, outOffset, this.rowIds.length), scale };
  }

  /**
   * Scores every row against the (normalised) query and returns the best `k` as [id, cosine]
   * sorted descending; `accept` leaves rows out.
   */
  topK(query: Float32Array, k: number, accept?: (id: string) => boolean): Array<[string, number]> {
    if (query.length !== this.dims) throw new RangeError(`query of ${query.length} dims for a ${this.dims}-dim index`);
    const n = this.rowIds.length;
    const kk = Math.max(0, Math.min(k, n));
    if (kk === 0) return [];
    if (this.scores.length < n) this.scores = new Float64Array(this.capacity);
    const scores = this.scores;
    const keep = this.acceptRow(accept);
    if (!this.kernel) {
      for (let r = 0; r < n; r++) scores[r] = this.exact(r, query);
      return this.best(selectTop(scores, n, kk, keep), query, kk);
    }
    const { dots, scale } = this.approximate(query);
    const f = this.factors, l1 = this.l1;
    if (scale === 0) return this.best(selectTop(scores.fill(0, 0, n), n, kk, keep), query, kk);
    for (let r = 0; r < n; r++) scores[r] = ((dots[r] as number) / scale) * (f[r] as number);
    const head = selectTop(scores, n, kk, keep);
    if (head.length < kk) return this.best(head, query, kk);
    // The bound: each int16 component is within 0.5 of query × scale (plus a hair for rounding).
    const half = 0.5 / scale + 1e-12;
    // k rows score at least `floor` exactly; a row whose best case is below it cannot be in the top k.
    let floor = Infinity;
    for (const r of head) floor = Math.min(floor, (scores[r] as number) - (l1[r] as number) * half);
    const candidates: number[] = [];
    for (let r = 0; r < n; r++) {
      if ((scores[r] as number) + (l1[r] as number) * half < floor) continue;
      if (keep && !keep(r)) continue;
      candidates.push(r);
    }
    return this.best(candidates, query, kk);
  }

  private acceptRow(accept: ((id: string) => boolean) | undefined): ((row: number) => boolean) | undefined {
    return accept ? (r) => accept(this.rowIds[r] as string) : undefined;
  }

  /** The best `k` of `rows` by exact cosine, as [id, cosine] sorted descending. */
  private best(rows: readonly number[], query: Float32Array, k: number): Array<[string, number]> {
    return rows.map((r): [string, number] => [this.rowIds[r] as string, this.exact(r, query)]).sort((a, b) => b[1] - a[1]).slice(0, k);
  }
}

/** The rows with the `k` highest `scores` among the first `n` that `accept` keeps (a bounded min-heap), unordered. */
function selectTop(scores: Float64Array, n: number, k: number, accept: ((row: number) => boolean) | undefined): number[] {
  const hs = new Float64Array(k), hr = new Int32Array(k);
  let size = 0;
  for (let r = 0; r < n; r++) {
    const s = scores[r] as number;
    if (size === k && s <= (hs[0] as number)) continue;
    if (accept && !accept(r)) continue;
    if (size < k) {
      let i = size++;
      while (i > 0) { const p = (i - 1) >> 1; if ((hs[p] as number) <= s) break; hs[i] = hs[p] as number; hr[i] = hr[p] as number; i = p; }
      hs[i] = s; hr[i] = r;
    } else {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, rr = l + 1;
        let m = i, ms = s;
        if (l < k && (hs[l] as number) < ms) { m = l; ms = hs[l] as number; }
        if (rr < k && (hs[rr] as number) < ms) { m = rr; }
        if (m === i) break;
        hs[i] = hs[m] as number; hr[i] = hr[m] as number; i = m;
      }
      hs[i] = s; hr[i] = r;
    }
  }
  return Array.from(hr.subarray(0, size));
}

/** Decodes a float32 BLOB (little-endian, as written by the store) without copying when aligned. */
export function blobToFloat32(blob: Uint8Array, dims?: number): Float32Array {
  const n = Math.floor(blob.byteLength / 4);
  if (dims !== undefined && n !== dims) throw new RangeError(`vector blob holds ${n} floats, expected ${dims}`);
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, n);
  return new Float32Array(blob.slice().buffer, 0, n);
}

/** l2-normalises a vector (a copy); a zero vector stays zero. */
export function normalise(v: ArrayLike<number>): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) ** 2;
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) * inv;
  return out;
}

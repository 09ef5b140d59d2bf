/**
 * The vector arm's in-memory index: one packed float32 matrix (row = memory, dims columns) with
 * incremental upserts and removals (a removed row is swapped with the last row), and brute-force
 * cosine. Rows are l2-normalised on insert, so cosine is a dot product. When the width suits the
 * WebAssembly SIMD kernel (dotKernel.ts) the matrix lives in the kernel's memory, laid out as
 * [query | matrix (capacity rows) | scores (capacity floats)]; otherwise a plain Float32Array and a
 * scalar loop. Measured in bench/recall.ts.
 */
import { createDotKernel, kernelSupports } from './dotKernel';
import type { DotKernel } from './dotKernel';

const PAGE = 65536;

export class VectorMatrix {
  private data: Float32Array;
  private rowIds: string[] = [];
  private rowOf = new Map<string, number>();
  private capacity: number;
  private readonly kernel: DotKernel | undefined;
  /** Byte offset of the matrix in kernel memory (after the query slot, 16-byte aligned). */
  private readonly matrixOffset: number;

  constructor(readonly dims: number, initialCapacity = 1024, useKernel = true) {
    if (!Number.isInteger(dims) || dims <= 0) throw new RangeError(`dims must be a positive integer, got ${dims}`);
    this.capacity = Math.max(1, initialCapacity);
    this.matrixOffset = Math.ceil((dims * 4) / 16) * 16;
    this.kernel = useKernel && kernelSupports(dims) ? createDotKernel(this.pagesFor(this.capacity)) : undefined;
    this.data = this.kernel ? new Float32Array(this.kernel.memory.buffer, this.matrixOffset, this.capacity * dims) : new Float32Array(dims * this.capacity);
  }

  /** Whether queries run on the WebAssembly SIMD kernel. */
  get simd(): boolean { return this.kernel !== undefined; }

  private pagesFor(capacity: number): number {
    return Math.ceil((this.matrixOffset + capacity * this.dims * 4 + capacity * 4) / PAGE);
  }

  /**
   * Makes room for `rows` rows in one step. The index's first load knows its row count: growing by
   * doubling up to 100k rows re-made the matrix seven times and left it at 131,072 rows (268 MB of
   * float32 at 512 dimensions instead of 205 MB).
   */
  reserve(rows: number): void {
    if (rows > this.capacity) this.grow(rows);
  }

  private grow(next = this.capacity * 2): void {
    if (this.kernel) {
      const need = this.pagesFor(next) - this.kernel.memory.buffer.byteLength / PAGE;
      if (need > 0) this.kernel.memory.grow(need);
      this.data = new Float32Array(this.kernel.memory.buffer, this.matrixOffset, next * this.dims);
    } else {
      const grown = new Float32Array(next * this.dims);
      grown.set(this.data);
      this.data = grown;
    }
    this.capacity = next;
  }

  get size(): number { return this.rowIds.length; }

  has(id: string): boolean { return this.rowOf.has(id); }

  /** Inserts or replaces the vector of `id` (normalised; a zero vector is stored as zeros). */
  upsert(id: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dims) throw new RangeError(`vector of ${vector.length} dims for a ${this.dims}-dim index`);
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.rowIds.length;
      if (row + 1 > this.capacity) this.grow();
      this.rowIds.push(id);
      this.rowOf.set(id, row);
    }
    let norm = 0;
    for (let i = 0; i < this.dims; i++) norm += (vector[i] as number) * (vector[i] as number);
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const off = row * this.dims;
    for (let i = 0; i < this.dims; i++) this.data[off + i] = (vector[i] as number) * inv;
  }

  remove(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    const last = this.rowIds.length - 1;
    if (row !== last) {
      this.data.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      const moved = this.rowIds[last] as string;
      this.rowIds[row] = moved;
      this.rowOf.set(moved, row);
    }
    this.rowIds.pop();
    this.rowOf.delete(id);
    return true;
  }

  /** A view of `id`'s normalised row (valid until the next upsert or removal), or undefined. */
  row(id: string): Float32Array | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.data.subarray(row * this.dims, (row + 1) * this.dims);
  }

  /** Cosine of `id`'s row with a normalised query, or undefined when the id has no vector. */
  cosine(id: string, query: Float32Array): number | undefined {
    const row = this.rowOf.get(id);
    if (row === undefined) return undefined;
    return this.dot(row, query);
  }

  private dot(row: number, q: Float32Array): number {
    const d = this.data, off = row * this.dims, n = this.dims;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, i = 0;
    for (; i + 3 < n; i += 4) {
      s0 += (d[off + i] as number) * (q[i] as number);
      s1 += (d[off + i + 1] as number) * (q[i + 1] as number);
      s2 += (d[off + i + 2] as number) * (q[i + 2] as number);
      s3 += (d[off + i + 3] as number) * (q[i + 3] as number);
    }
    for (; i < n; i++) s0 += (d[off + i] as number) * (q[i] as number);
    return s0 + s1 + s2 + s3;
  }

  /** All row scores from the SIMD kernel (a view into kernel memory, valid until the next call). */
  private kernelScores(query: Float32Array): Float32Array {
    const k = this.kernel as DotKernel;
    const n = this.rowIds.length;
    new Float32Array(k.memory.buffer, 0, this.dims).set(query);
    const outOffset = this.matrixOffset + this.capacity * this.dims * 4;
    k.dots(this.matrixOffset, 0, n, this.dims, outOffset);
    return new Float32Array(k.memory.buffer, outOffset, n);
  }

  /**
   * Scores every row against the (normalised) query and returns the best `k` as [id, cosine]
   * sorted descending; also returns every score through `all` when asked (for fusion).
   */
  topK(query: Float32Array, k: number, accept?: (id: string) => boolean): Array<[string, number]> {
    if (query.length !== this.dims) throw new RangeError(`query of ${query.length} dims for a ${this.dims}-dim index`);
    const n = this.rowIds.length;
    const kk = Math.max(0, Math.min(k, n));
    if (kk === 0) return [];
    const scores = this.kernel ? this.kernelScores(query) : undefined;
    // Bounded min-heap of (score, row).
    const hs = new Float64Array(kk), hr = new Int32Array(kk);
    let size = 0;
    for (let r = 0; r < n; r++) {
      const s = scores ? (scores[r] as number) : this.dot(r, query);
      if (size === kk && s <= (hs[0] as number)) continue;
      if (accept && !accept(this.rowIds[r] as string)) continue;
      if (size < kk) {
        let i = size++;
        while (i > 0) { const p = (i - 1) >> 1; if ((hs[p] as number) <= s) break; hs[i] = hs[p] as number; hr[i] = hr[p] as number; i = p; }
        hs[i] = s; hr[i] = r;
      } else {
        let i = 0;
        for (;;) {
          const l = 2 * i + 1, rr = l + 1;
          let m = i, ms = s;
          if (l < kk && (hs[l] as number) < ms) { m = l; ms = hs[l] as number; }
          if (rr < kk && (hs[rr] as number) < ms) { m = rr; }
          if (m === i) break;
          hs[i] = hs[m] as number; hr[i] = hr[m] as number; i = m;
        }
        hs[i] = s; hr[i] = r;
      }
    }
    const out: Array<[string, number]> = [];
    for (let i = 0; i < size; i++) out.push([this.rowIds[hr[i] as number] as string, hs[i] as number]);
    return out.sort((a, b) => b[1] - a[1]);
  }
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

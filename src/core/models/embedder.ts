/**
 * The embedding seam every module uses. Vectors are l2-normalised Float32Arrays, one per input,
 * in input order; `id` is the model id stored with every vector (see staleVectors.ts).
 */
import { MemoryError } from '../errors';

export interface EmbedOptions {
  /** Aborting rejects with E_CANCELLED at the next batch boundary. */
  readonly signal?: AbortSignal;
}

export interface Embedder {
  /** Stable model id stored with each vector ("use-lite", "Xenova/all-MiniLM-L6-v2", ...). */
  readonly id: string;
  /** Vector width. */
  readonly dims: number;
  /** One normalised vector per text, in order. Loads the model on first use. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Frees the model (and worker). A later embed() loads it again. */
  dispose(): Promise<void>;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new MemoryError('E_CANCELLED', 'Embedding was cancelled.');
}

export function assertTexts(texts: unknown): asserts texts is readonly string[] {
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
    throw new MemoryError('E_INVALID_INPUT', 'Texts to embed must be an array of strings.');
  }
}

/** Consecutive slices of at most `size` items. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** In-place l2 normalisation; a zero vector stays zero. */
export function l2Normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) * (v[i] as number);
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv;
  }
  return v;
}

/** Cosine similarity; empty, mismatched, zero-norm or non-finite input scores 0, never NaN. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (!(na > 0 && nb > 0)) return 0;
  const s = dot / Math.sqrt(na * nb);
  return Number.isFinite(s) ? s : 0;
}

/** Splits a [rows × dims] buffer into per-row copies. */
export function splitRows(data: Float32Array, rows: number, dims: number): Float32Array[] {
  const out: Float32Array[] = [];
  for (let r = 0; r < rows; r++) out.push(data.slice(r * dims, (r + 1) * dims));
  return out;
}

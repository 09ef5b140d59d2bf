/**
 * Query adapter (docs/recall-design.md, "Ninth round"): a learned linear map applied to the
 * question's vector before the vector arm, q' = normalise(q + (q·U)·Vᵀ), U and V d × r. The stored
 * memory vectors are not touched (nothing is re-embedded). It was learned by bench/trainQueryAdapter.ts
 * on the LoCoMo development conversations so that a question's vector lands nearer the turns that
 * answer it ("What books has Tim read?" → "…The Hobbit is great…"); the bundled sentence model
 * places a question near other questions with the same words instead.
 *
 * Weights belong to one embedding model (its id and width): a store embedded by another model
 * gets no adapter. The shipped weights are int8 with a scale per column, in queryAdapterWeights.ts.
 */
import type { VectorConfig } from '../config/searchConfig';
import type { Embedder } from '../models/embedder';
import { QUERY_ADAPTER_WEIGHTS } from './queryAdapterWeights';

/** A decoded adapter: U and V row-major, d × r each. */
export interface QueryAdapter {
  readonly modelId: string;
  readonly dims: number;
  readonly rank: number;
  readonly u: Float32Array;
  readonly v: Float32Array;
}

/** The adapter as stored: each of U and V as base64 int8 (row-major d × r) with one scale per column. */
export interface EncodedQueryAdapter {
  readonly modelId: string;
  readonly dims: number;
  readonly rank: number;
  readonly uScale: readonly number[];
  readonly vScale: readonly number[];
  readonly u: string;
  readonly v: string;
}

/** q' = normalise(q + (q·U)·Vᵀ); q unchanged when its width is not the adapter's. */
export function adaptQuery(q: Float32Array, a: QueryAdapter): Float32Array {
  const { dims: d, rank: r, u, v } = a;
  if (q.length !== d) return q;
  const p = new Float64Array(r);
  for (let i = 0; i < d; i++) {
    const qi = q[i] as number;
    if (qi === 0) continue;
    const row = i * r;
    for (let k = 0; k < r; k++) p[k] = (p[k] as number) + qi * (u[row + k] as number);
  }
  const out = new Float32Array(d);
  let norm = 0;
  for (let j = 0; j < d; j++) {
    let x = q[j] as number;
    const row = j * r;
    for (let k = 0; k < r; k++) x += (p[k] as number) * (v[row + k] as number);
    out[j] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (!(norm > 0)) return q;
  for (let j = 0; j < d; j++) out[j] = (out[j] as number) / norm;
  return out;
}

/** Int8 columns (row-major d × r) back to floats. */
function decodeMatrix(base64: string, scales: readonly number[], d: number, r: number): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== d * r || scales.length !== r) throw new Error(`query adapter: expected ${d}×${r} values and ${r} scales, got ${bytes.length} and ${scales.length}`);
  const out = new Float32Array(d * r);
  for (let i = 0; i < d * r; i++) {
    const b = bytes[i] as number;
    out[i] = (b > 127 ? b - 256 : b) * (scales[i % r] as number);
  }
  return out;
}

/** Floats (row-major d × r) to int8 columns with a scale each (what bench/trainQueryAdapter.ts writes). */
export function encodeMatrix(m: Float32Array | Float64Array, d: number, r: number): { scale: number[]; base64: string } {
  const scale = Array.from({ length: r }, (_, k) => {
    let max = 0;
    for (let i = 0; i < d; i++) max = Math.max(max, Math.abs(m[i * r + k] as number));
    return max > 0 ? Number((max / 127).toPrecision(6)) : 1;
  });
  const bytes = Buffer.alloc(d * r);
  for (let i = 0; i < d * r; i++) bytes[i] = Math.max(-127, Math.min(127, Math.round((m[i] as number) / (scale[i % r] as number)))) & 0xff;
  return { scale, base64: bytes.toString('base64') };
}

/** Whether `x` is a decoded adapter whose matrices have its stated size. */
export function isQueryAdapter(x: unknown): x is QueryAdapter {
  const a = x as Partial<QueryAdapter> | undefined;
  return !!a && typeof a.modelId === 'string' && Number.isInteger(a.dims) && Number.isInteger(a.rank) && (a.dims as number) > 0 && (a.rank as number) > 0
    && a.u instanceof Float32Array && a.v instanceof Float32Array && a.u.length === (a.dims as number) * (a.rank as number) && a.v.length === a.u.length;
}

export function decodeQueryAdapter(e: EncodedQueryAdapter): QueryAdapter {
  return { modelId: e.modelId, dims: e.dims, rank: e.rank, u: decodeMatrix(e.u, e.uScale, e.dims, e.rank), v: decodeMatrix(e.v, e.vScale, e.dims, e.rank) };
}

let bundled: QueryAdapter | undefined;

/** The shipped adapter (decoded once, on first use). */
export function bundledQueryAdapter(): QueryAdapter {
  bundled ??= decodeQueryAdapter(QUERY_ADAPTER_WEIGHTS);
  return bundled;
}

/**
 * The adapter for a query embedded by `modelId` with `dims` values: `override` (a bench's fold
 * weights) or the shipped one, when it was learned for that model; else none.
 */
export function queryAdapterFor(modelId: string, dims: number, override?: QueryAdapter): QueryAdapter | undefined {
  const a = override ?? bundledQueryAdapter();
  return a.modelId === modelId && a.dims === dims ? a : undefined;
}

/**
 * The question's vector as every vector search uses it (local recall, team recall, the team
 * server): embedded, then adapted when `vector.queryAdapter` is on and an adapter fits the model.
 */
export async function embedQuery(embedder: Pick<Embedder, 'id' | 'embed'>, query: string, cfg: Pick<VectorConfig, 'queryAdapter' | 'adapter'>): Promise<Float32Array | undefined> {
  const [q] = await embedder.embed([query]);
  if (!q || !cfg.queryAdapter) return q;
  const a = queryAdapterFor(embedder.id, q.length, cfg.adapter);
  return a ? adaptQuery(q, a) : q;
}

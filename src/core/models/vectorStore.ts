/**
 * Vectors in the `embeddings` table (schema: src/core/store/schema/coreSchema.ts). Every row carries
 * the model id it was computed with, so a model change never mixes vector spaces: a memory is
 * "stale" for model M when no row for its current content hash exists under M. Rows are keyed by
 * (content_hash, model_id) with source_type 'memory' and source_id = the memory id, which is what
 * the recall vector index reads. Vectors are BLOBs in one of two layouts, told apart by length
 * (the row's `dimensions` says how many components): `dims × 4` bytes of little-endian float32
 * (rows written before int8 storage, still read), or `4 + dims` bytes: a float32 scale then one
 * signed byte per component (v[i] ≈ q[i] × scale). New rows use STORED_VECTOR_ENCODING; the
 * measurement that chose it is in docs/store.md ("What the store keeps").
 */
import { MemoryError } from '../errors';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

export type VectorEncoding = 'float32' | 'int8';

/** The layout new vector rows are written in. */
export const STORED_VECTOR_ENCODING: VectorEncoding = 'int8';

/**
 * Quantises `vector` into `out` (one signed byte per dimension, ±127 at the largest magnitude) and
 * returns the scale that maps a byte back (0 for a zero or non-finite vector, then every byte is 0).
 * The stored int8 layout and the vector index (recall/vectorMatrix.ts) both quantise this way.
 */
export function quantizeInt8(vector: ArrayLike<number>, out: Int8Array): number {
  let max = 0;
  for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i] as number));
  const scale = max > 0 && Number.isFinite(max) ? max / 127 : 0;
  for (let i = 0; i < vector.length; i++) out[i] = scale > 0 ? Math.max(-127, Math.min(127, Math.round((vector[i] as number) / scale))) : 0;
  return scale;
}

/** Float32 vector → BLOB bytes in `encoding` (a copy). */
export function vectorToBlob(vector: Float32Array, encoding: VectorEncoding = STORED_VECTOR_ENCODING): Uint8Array {
  if (encoding === 'float32') return new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
  const out = new Uint8Array(4 + vector.length);
  const scale = quantizeInt8(vector, new Int8Array(out.buffer, 4));
  new DataView(out.buffer).setFloat32(0, scale, true);
  return out;
}

/** The int8 codes of a BLOB in the int8 layout (a view, no copy), or undefined for another layout. */
export function int8Codes(blob: Uint8Array, dims: number): Int8Array | undefined {
  return dims > 0 && blob.byteLength === dims + 4 ? new Int8Array(blob.buffer, blob.byteOffset + 4, dims) : undefined;
}

/** The vector in a BLOB of either layout, or undefined when its length fits neither for `dims`. */
export function decodeVector(blob: Uint8Array, dims: number): Float32Array | undefined {
  if (!Number.isInteger(dims) || dims < 0) return undefined;
  const out = new Float32Array(dims);
  return decodeVectorInto(blob, dims, out) ? out : undefined;
}

/**
 * Decodes a BLOB of either layout into `out` (at least `dims` long) without allocating a vector;
 * false when its length fits neither. The vector index loads every row through one scratch vector
 * this way (at 100k memories a fresh array per row was a fifth of the first recall's index load).
 */
export function decodeVectorInto(blob: Uint8Array, dims: number, out: Float32Array): boolean {
  if (!Number.isInteger(dims) || dims < 0 || out.length < dims) return false;
  if (blob.byteLength === dims * 4) {
    new Uint8Array(out.buffer, out.byteOffset, dims * 4).set(blob);
    return true;
  }
  const q = int8Codes(blob, dims);
  if (q) {
    const scale = new DataView(blob.buffer, blob.byteOffset, 4).getFloat32(0, true);
    for (let i = 0; i < dims; i++) out[i] = (q[i] as number) * scale;
    return true;
  }
  return false;
}

/**
 * BLOB bytes → a fresh Float32Array. With `dims`, either layout; without, float32 only. Throws
 * E_STORE_CORRUPT on a length that fits no layout.
 */
export function blobToVector(blob: Uint8Array, dims?: number): Float32Array {
  const v = dims !== undefined ? decodeVector(blob, dims) : blob.byteLength % 4 === 0 ? decodeVector(blob, blob.byteLength / 4) : undefined;
  if (!v) {
    throw new MemoryError('E_STORE_CORRUPT', `A stored vector has ${blob.byteLength} bytes${dims !== undefined ? `, expected ${dims * 4} (float32) or ${dims + 4} (int8)` : ''}.`);
  }
  return v;
}

export interface StaleMemory {
  readonly id: string;
  readonly content: string;
  readonly contentHash: string;
}

const STALE_WHERE = `m.is_deleted = 0 AND m.content_hash IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.content_hash = m.content_hash AND e.model_id = ?)`;

/** Live memories without a vector from `modelId` (oldest first). */
export function listStaleVectors(db: SqlReader, modelId: string, limit = 1000): StaleMemory[] {
  return db.all<{ id: string; content: string; content_hash: string }>(
    `SELECT m.id, m.content, m.content_hash FROM memories m WHERE ${STALE_WHERE} ORDER BY m.created_at, m.id LIMIT ?`, [modelId, limit],
  ).map((r) => ({ id: r.id, content: r.content, contentHash: r.content_hash }));
}

export function countStaleVectors(db: SqlReader, modelId: string): number {
  return db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM memories m WHERE ${STALE_WHERE}`, [modelId])?.n ?? 0;
}

/**
 * Records a model change: clears `memories.embedding_model` where it names another model (so UIs
 * and recall can tell the vector is outdated). Returns how many memories became stale. Old rows
 * stay until `deleteVectorsOfOtherModels` runs after the re-embed, so nothing is lost meanwhile.
 */
export function markStaleVectors(db: SqlWriter, modelId: string): number {
  return db.run('UPDATE memories SET embedding_model = NULL WHERE embedding_model IS NOT NULL AND embedding_model <> ?', [modelId]).changes;
}

/** Removes vectors computed by any model other than `modelId`. */
export function deleteVectorsOfOtherModels(db: SqlWriter, modelId: string): number {
  return db.run('DELETE FROM embeddings WHERE model_id <> ?', [modelId]).changes;
}

export interface MemoryVector {
  readonly memoryId: string;
  readonly contentHash: string;
  readonly vector: Float32Array;
}

/**
 * Stores a memory's vector for `modelId` (replacing an earlier one for the same content and model,
 * and dropping this memory's vectors for older content under the same model) and records the
 * model on the memory row. `now` is an ISO time from the injected clock.
 */
export function upsertMemoryVector(db: SqlWriter, modelId: string, item: MemoryVector, now: string): void {
  db.run(`DELETE FROM embeddings WHERE source_type = 'memory' AND source_id = ? AND model_id = ? AND content_hash <> ?`, [item.memoryId, modelId, item.contentHash]);
  db.run(
    `INSERT INTO embeddings (content_hash, model_id, vector, dimensions, source_type, source_id, created_at)
     VALUES (?, ?, ?, ?, 'memory', ?, ?)
     ON CONFLICT(content_hash, model_id) DO UPDATE SET vector = excluded.vector, dimensions = excluded.dimensions`,
    [item.contentHash, modelId, vectorToBlob(item.vector), item.vector.length, item.memoryId, now],
  );
  db.run('UPDATE memories SET embedding_model = ? WHERE id = ?', [modelId, item.memoryId]);
}

/** Cached vectors of the given memories under `modelId` (for the embedding reranker). */
export function memoryVectors(db: SqlReader, modelId: string, memoryIds: readonly string[]): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (memoryIds.length === 0) return out;
  for (let i = 0; i < memoryIds.length; i += 500) {
    const chunk = memoryIds.slice(i, i + 500);
    const rows = db.all<{ id: string; vector: Uint8Array; dimensions: number }>(
      `SELECT m.id, e.vector, e.dimensions FROM memories m JOIN embeddings e ON e.content_hash = m.content_hash AND e.model_id = ?
        WHERE m.id IN (${chunk.map(() => '?').join(',')})`, [modelId, ...chunk]);
    for (const r of rows) {
      const v = decodeVector(r.vector, r.dimensions);
      if (v) out.set(r.id, v);
    }
  }
  return out;
}

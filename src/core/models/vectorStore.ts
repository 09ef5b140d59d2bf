/**
 * Vectors in the `embeddings` table (schema: src/core/store/schema/coreSchema.ts). Every row carries
 * the model id it was computed with, so a model change never mixes vector spaces: a memory is
 * "stale" for model M when no row for its current content hash exists under M. Rows are keyed by
 * (content_hash, model_id) with source_type 'memory' and source_id = the memory id, which is what
 * the recall vector index reads. Vectors are raw little-endian float32 BLOBs.
 */
import { randomUUID } from 'node:crypto';
import { MemoryError } from '../errors';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

/** Float32 vector → BLOB bytes (little-endian float32, a copy). */
export function vectorToBlob(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
}

/** BLOB bytes → a fresh Float32Array; throws E_STORE_CORRUPT on a length that is not whole floats or not `dims`. */
export function blobToVector(blob: Uint8Array, dims?: number): Float32Array {
  if (blob.byteLength % 4 !== 0 || (dims !== undefined && blob.byteLength !== dims * 4)) {
    throw new MemoryError('E_STORE_CORRUPT', `A stored vector has ${blob.byteLength} bytes${dims !== undefined ? `, expected ${dims * 4}` : ''}.`);
  }
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
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
  if (!db.hasTable('embeddings')) return [];
  return db.all<{ id: string; content: string; content_hash: string }>(
    `SELECT m.id, m.content, m.content_hash FROM memories m WHERE ${STALE_WHERE} ORDER BY m.created_at, m.id LIMIT ?`, [modelId, limit],
  ).map((r) => ({ id: r.id, content: r.content, contentHash: r.content_hash }));
}

export function countStaleVectors(db: SqlReader, modelId: string): number {
  if (!db.hasTable('embeddings')) return 0;
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
    `INSERT INTO embeddings (id, content_hash, model_id, vector, dimensions, source_type, source_id, created_at)
     VALUES (?, ?, ?, ?, ?, 'memory', ?, ?)
     ON CONFLICT(content_hash, model_id) DO UPDATE SET vector = excluded.vector, dimensions = excluded.dimensions`,
    [randomUUID(), item.contentHash, modelId, vectorToBlob(item.vector), item.vector.length, item.memoryId, now],
  );
  db.run('UPDATE memories SET embedding_model = ? WHERE id = ?', [modelId, item.memoryId]);
}

/** Cached vectors of the given memories under `modelId` (for the embedding reranker). */
export function memoryVectors(db: SqlReader, modelId: string, memoryIds: readonly string[]): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (memoryIds.length === 0 || !db.hasTable('embeddings')) return out;
  for (let i = 0; i < memoryIds.length; i += 500) {
    const chunk = memoryIds.slice(i, i + 500);
    const rows = db.all<{ id: string; vector: Uint8Array }>(
      `SELECT m.id, e.vector FROM memories m JOIN embeddings e ON e.content_hash = m.content_hash AND e.model_id = ?
        WHERE m.id IN (${chunk.map(() => '?').join(',')})`, [modelId, ...chunk]);
    for (const r of rows) if (r.vector.byteLength % 4 === 0) out.set(r.id, blobToVector(r.vector));
  }
  return out;
}

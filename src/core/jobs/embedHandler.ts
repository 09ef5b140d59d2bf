import { randomUUID } from 'node:crypto';
import { isoFromMs } from '../clock';
import type { Embedder } from '../models/embedder';
import type { SqlWriter } from '../store/storeTypes';
import { JOB_TYPES } from './jobQueue';
import type { JobHandler } from './jobWorker';

/** Raw little-endian float32 bytes, the layout of embeddings.vector. */
export function float32ToBlob(v: Float32Array): Uint8Array {
  return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

/**
 * Writes a memory's vector: the embeddings row keyed by (content hash, model) is replaced (new
 * rowid, so the recall index picks it up) and the memory records the model.
 */
export function storeEmbedding(db: SqlWriter, memoryId: string, modelId: string, vector: Float32Array, nowIso: string): void {
  const mem = db.get<{ content_hash: string | null; is_deleted: number }>('SELECT content_hash, is_deleted FROM memories WHERE id = ?', [memoryId]);
  if (!mem || mem.is_deleted || !mem.content_hash) return;
  db.run('DELETE FROM embeddings WHERE source_type = ? AND source_id = ? AND model_id = ?', ['memory', memoryId, modelId]);
  db.run(
    `INSERT OR REPLACE INTO embeddings (id, content_hash, model_id, vector, dimensions, source_type, source_id, created_at)
     VALUES (?, ?, ?, ?, ?, 'memory', ?, ?)`,
    [randomUUID(), mem.content_hash, modelId, float32ToBlob(vector), vector.length, memoryId, nowIso]);
  db.run('UPDATE memories SET embedding_model = ? WHERE id = ?', [modelId, memoryId]);
}

/**
 * The `embed` job: embeds the memory's (already redacted) content with the configured embedder.
 * A memory that was deleted or forgotten meanwhile completes as skipped. A vector of the wrong
 * width is an error (retried, then dead) rather than a silently unusable row.
 */
export function createEmbedHandler(embedder: Embedder): JobHandler {
  return {
    type: JOB_TYPES.embed,
    async run(job, ctx) {
      const memoryId = job.memoryId;
      if (!memoryId) return { skipped: 'no memory' };
      const mem = ctx.store.read((db) => db.get<{ content: string; is_deleted: number }>('SELECT content, is_deleted FROM memories WHERE id = ?', [memoryId]));
      if (!mem || mem.is_deleted) return { skipped: 'memory deleted' };
      const [vector] = await embedder.embed([mem.content], { signal: ctx.signal });
      if (!vector || vector.length !== embedder.dims) throw new Error(`embedder ${embedder.id} returned a vector of width ${vector?.length ?? 0}, expected ${embedder.dims}`);
      await ctx.store.write('embed', (db) => storeEmbedding(db, memoryId, embedder.id, vector, isoFromMs(ctx.clock.now())));
      return { model: embedder.id, dims: vector.length };
    },
  };
}

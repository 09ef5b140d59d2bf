import { isoFromMs } from '../clock';
import type { Embedder } from '../models/embedder';
import { upsertMemoryVector } from '../models/vectorStore';
import type { SqlWriter } from '../store/storeTypes';
import { JOB_TYPES } from './jobQueue';
import type { JobHandler } from './jobWorker';

/**
 * Writes a live memory's vector through the models module's upsertMemoryVector (one row per
 * content hash and model, memory's embedding_model recorded). Deleted or missing memories are skipped.
 */
export function storeEmbedding(db: SqlWriter, memoryId: string, modelId: string, vector: Float32Array, nowIso: string): boolean {
  const mem = db.get<{ content_hash: string | null; is_deleted: number }>('SELECT content_hash, is_deleted FROM memories WHERE id = ?', [memoryId]);
  if (!mem || mem.is_deleted || !mem.content_hash) return false;
  upsertMemoryVector(db, modelId, { memoryId, contentHash: mem.content_hash, vector }, nowIso);
  return true;
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

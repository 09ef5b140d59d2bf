import { isoFromMs } from '../clock';
import type { Embedder } from '../models/embedder';
import { upsertMemoryVector } from '../models/vectorStore';
import type { SqlWriter } from '../store/storeTypes';
import { JOB_TYPES } from './jobQueue';
import type { JobRecord } from './jobQueue';
import type { JobContext, JobHandler, JobOutcome } from './jobWorker';

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
 * width is an error (retried, then dead) rather than a silently unusable row. In a batch the
 * live memories' contents go to the embedder in one call (it splits them by
 * `models.embedBatchSize`), and each vector is written with its job's completion.
 */
export function createEmbedHandler(embedder: Embedder): JobHandler {
  const runBatch = async (jobs: readonly JobRecord[], ctx: JobContext): Promise<JobOutcome[]> => {
    const mems = ctx.store.read((db) => jobs.map((job) => job.memoryId
      ? db.get<{ content: string; is_deleted: number }>('SELECT content, is_deleted FROM memories WHERE id = ?', [job.memoryId])
      : undefined));
    const live = jobs.map((_, i) => i).filter((i) => { const m = mems[i]; return m !== undefined && !m.is_deleted; });
    const vectors = live.length ? await embedder.embed(live.map((i) => (mems[i] as { content: string }).content), { signal: ctx.signal }) : [];
    const vectorOf = new Map(live.map((jobIndex, k) => [jobIndex, vectors[k]]));
    return jobs.map((job, i): JobOutcome => {
      const memoryId = job.memoryId;
      if (!memoryId) return { apply: () => ({ skipped: 'no memory' }) };
      if (!vectorOf.has(i)) return { apply: () => ({ skipped: 'memory deleted' }) };
      const vector = vectorOf.get(i);
      if (!vector || vector.length !== embedder.dims) return { error: new Error(`embedder ${embedder.id} returned a vector of width ${vector?.length ?? 0}, expected ${embedder.dims}`) };
      return { apply: (db) => { storeEmbedding(db, memoryId, embedder.id, vector, isoFromMs(ctx.clock.now())); return { model: embedder.id, dims: vector.length }; } };
    });
  };
  return {
    type: JOB_TYPES.embed,
    runBatch,
    async run(job, ctx) {
      const [outcome] = await runBatch([job], ctx);
      if (!outcome || 'error' in outcome) throw outcome?.error ?? new Error('no outcome');
      return ctx.store.write('embed', outcome.apply);
    },
  };
}

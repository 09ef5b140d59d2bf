/**
 * The maintenance task that (re-)embeds memories lacking a vector from the current model, e.g.
 * after the model setting changed. Works in batches, one short write transaction per batch, so
 * lexical recall and other writers keep going meanwhile; reports progress; stops between batches
 * when cancelled (what was written stays written).
 */
import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import { DEFAULT_EMBED_BATCH_SIZE } from '../config/modelConfig';
import type { MemoryStore } from '../store/storeTypes';
import type { Embedder } from './embedder';
import { countStaleVectors, listStaleVectors, markStaleVectors, upsertMemoryVector } from './vectorStore';

export interface ReembedProgress {
  readonly done: number;
  readonly total: number;
}

export interface ReembedOptions {
  readonly clock: Clock;
  readonly batchSize?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ReembedProgress) => void;
}

export interface ReembedResult {
  readonly embedded: number;
  readonly remaining: number;
  readonly cancelled: boolean;
}

export async function reembedStale(store: MemoryStore, embedder: Embedder, options: ReembedOptions): Promise<ReembedResult> {
  const batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH_SIZE;
  await store.write('embed:mark-stale', (db) => markStaleVectors(db, embedder.id));
  const total = store.read((db) => countStaleVectors(db, embedder.id));
  let done = 0;
  let embedded = 0;
  // Every memory is tried at most once per run, so the loop always ends.
  const attempted = new Set<string>();
  options.onProgress?.({ done, total });
  while (!options.signal?.aborted) {
    const batch = store.read((db) => listStaleVectors(db, embedder.id, batchSize + attempted.size)).filter((m) => !attempted.has(m.id)).slice(0, batchSize);
    if (batch.length === 0) break;
    for (const m of batch) attempted.add(m.id);
    let vectors: Float32Array[];
    try {
      vectors = await embedder.embed(batch.map((m) => m.content), options.signal ? { signal: options.signal } : {});
    } catch (e) {
      if (options.signal?.aborted) break;
      throw e;
    }
    const now = isoFromMs(options.clock.now());
    await store.write('embed', (db) => {
      batch.forEach((m, i) => {
        // A memory edited or deleted since it was read is left for the next pass.
        const current = db.get<{ content_hash: string | null; is_deleted: number }>('SELECT content_hash, is_deleted FROM memories WHERE id = ?', [m.id]);
        if (!current || current.is_deleted || current.content_hash !== m.contentHash) return;
        upsertMemoryVector(db, embedder.id, { memoryId: m.id, contentHash: m.contentHash, vector: vectors[i] as Float32Array }, now);
        embedded++;
      });
    });
    done += batch.length;
    options.onProgress?.({ done: Math.min(done, total), total });
  }
  const remaining = store.read((db) => countStaleVectors(db, embedder.id));
  return { embedded, remaining, cancelled: options.signal?.aborted ?? false };
}

/**
 * Keeps a VectorMatrix in step with the `embeddings` table for one embedding model: the first sync
 * loads every memory vector of that model, later syncs read only rows with a larger rowid (new or
 * replaced vectors) and rebuild only when rows disappeared. Cheap enough to call before every
 * query (one indexed MAX/COUNT when nothing changed).
 */
import type { Disposable, MemoryStore, SqlReader } from '../store/storeTypes';
import { decodeVectorInto, int8Codes } from '../models/vectorStore';
import { VectorMatrix } from './vectorMatrix';

interface EmbeddingRow { rid: number; source_id: string; vector: Uint8Array; dimensions: number }

/**
 * Rows read per statement while loading. The first load of a 100k store read every row in one
 * `all()`: 100k row objects and their blobs (~60 MB) alive at once, and the collector's work on
 * them was a fifth of the load (docs/store.md, "recall --stdin at 100k").
 */
const LOAD_BATCH = 2048;

export class VectorIndex {
  private matrix: VectorMatrix;
  private lastRowid = 0;
  private rowCount = 0;
  /** Vectors skipped because their width differs from the model's (stale or corrupt rows). */
  skipped = 0;
  /** Set by watch(): the row count is checked only after the store reported a change. */
  private watching: Disposable | undefined;
  private changed = true;

  constructor(readonly modelId: string, readonly dims: number) {
    this.matrix = new VectorMatrix(dims);
  }

  get size(): number { return this.matrix.size; }
  get vectors(): VectorMatrix { return this.matrix; }

  /**
   * Counts rows only after `store` reports a change (any write, own or another process's). New or
   * replaced vectors always raise MAX(rowid), which every sync still reads; the COUNT(*) that detects
   * deletions walks a whole index (tens of ms on a busy machine at 10k rows) and ran on every
   * recall. A deletion seen a moment late costs nothing: hydration never returns a deleted memory.
   */
  watch(store: MemoryStore): void {
    this.watching ??= store.onDidChange(() => { this.changed = true; });
  }

  sync(db: SqlReader): void {
    if (this.watching && !this.changed) {
      const top = db.get<{ mx: number | null }>('SELECT MAX(rowid) AS mx FROM embeddings')?.mx ?? 0;
      if (top === this.lastRowid) return;
    }
    this.changed = false;
    // Change detection over the whole table: MAX(rowid) is O(1) and COUNT(*) walks the smallest
    // index, never the vector pages (a filtered count would read every 2 KB blob row).
    const stat = db.get<{ n: number; mx: number | null }>('SELECT COUNT(*) AS n, MAX(rowid) AS mx FROM embeddings');
    const n = stat?.n ?? 0, mx = stat?.mx ?? 0;
    if (n === this.rowCount && mx === this.lastRowid) return;
    if (n < this.rowCount || mx < this.lastRowid) this.reset();
    // A first load knows how many rows are coming (every other sync adds a few).
    if (this.matrix.size === 0) this.matrix.reserve(n);
    const scratch = new Float32Array(this.dims);
    for (let after = this.lastRowid; ;) {
      const rows = db.all<EmbeddingRow>(
        `SELECT rowid AS rid, source_id, vector, dimensions FROM embeddings
          WHERE model_id = ? AND source_type = 'memory' AND source_id IS NOT NULL AND rowid > ? ORDER BY rowid LIMIT ?`, [this.modelId, after, LOAD_BATCH]);
      for (const r of rows) {
        if (r.dimensions !== this.dims) { this.skipped++; continue; }
        // The stored int8 codes go into the matrix as they are; a float32 row (written before int8
        // storage) is quantised there as the store quantises, through one scratch vector.
        const codes = int8Codes(r.vector, this.dims);
        if (codes) { this.matrix.upsertCodes(r.source_id, codes); continue; }
        if (!decodeVectorInto(r.vector, this.dims, scratch)) { this.skipped++; continue; }
        this.matrix.upsert(r.source_id, scratch);
      }
      if (rows.length < LOAD_BATCH) break;
      after = (rows[rows.length - 1] as EmbeddingRow).rid;
    }
    this.lastRowid = mx;
    this.rowCount = n;
    // A replaced row keeps its memory id, so the matrix never holds more rows than live vectors;
    // if rows were deleted without a replacement, rebuild once from scratch.
    if (this.matrix.size > n) { this.reset(); this.sync(db); }
  }

  private reset(): void {
    this.matrix = new VectorMatrix(this.dims);
    this.lastRowid = 0;
    this.rowCount = 0;
    this.skipped = 0;
  }
}

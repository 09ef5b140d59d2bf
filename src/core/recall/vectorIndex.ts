/**
 * Keeps a VectorMatrix in step with the `embeddings` table for one embedding model: the first sync
 * loads every memory vector of that model, later syncs read only rows with a larger rowid (new or
 * replaced vectors) and rebuild only when rows disappeared. Cheap enough to call before every
 * query (one indexed MAX/COUNT when nothing changed).
 */
import type { Disposable, MemoryStore, SqlReader } from '../store/storeTypes';
import { decodeVector } from '../models/vectorStore';
import { VectorMatrix } from './vectorMatrix';

interface EmbeddingRow { rid: number; source_id: string; vector: Uint8Array; dimensions: number }

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
    const rows = db.all<EmbeddingRow>(
      `SELECT rowid AS rid, source_id, vector, dimensions FROM embeddings
        WHERE model_id = ? AND source_type = 'memory' AND source_id IS NOT NULL AND rowid > ? ORDER BY rowid`, [this.modelId, this.lastRowid]);
    for (const r of rows) {
      const v = r.dimensions === this.dims ? decodeVector(r.vector, this.dims) : undefined;
      if (!v) { this.skipped++; continue; }
      this.matrix.upsert(r.source_id, v);
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

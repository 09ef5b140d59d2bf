/**
 * Migration 26: the embeddings table without its per-row UUID `id` (a text primary key nobody
 * reads: rows are found by (content_hash, model_id), by source_id, or by rowid in the vector
 * index) and without the index on model_id (only the rare "drop other models' vectors" step used
 * it, and a scan is fine there). Each dropped a ~36-byte column plus two index entries per vector,
 * about 110 bytes per memory (docs/store.md, "What the store keeps"). Rows keep their rowids, so
 * a vector index built before the migration stays valid. Journaled like any migration: other
 * processes replay the same statements.
 */
import type { Migration } from '../migrations';

export const COMPACT_EMBEDDINGS_MIGRATION_VERSION = 26;

export const COMPACT_EMBEDDINGS_MIGRATION: Migration = {
  version: COMPACT_EMBEDDINGS_MIGRATION_VERSION,
  name: 'embeddings: drop the unused id column and the model_id index (smaller rows and indexes)',
  up(db) {
    const columns = db.all<{ name: string }>('PRAGMA table_info(embeddings)').map((c) => c.name);
    if (!columns.includes('id')) return;
    for (const sql of [
      `CREATE TABLE embeddings_compact (
        content_hash TEXT NOT NULL,
        model_id TEXT NOT NULL,
        vector BLOB NOT NULL,
        dimensions INTEGER NOT NULL,
        source_type TEXT NOT NULL DEFAULT 'memory',
        source_id TEXT,
        chunk_text TEXT,
        created_at TEXT NOT NULL,
        UNIQUE(content_hash, model_id)
      )`,
      `INSERT INTO embeddings_compact (rowid, content_hash, model_id, vector, dimensions, source_type, source_id, chunk_text, created_at)
         SELECT rowid, content_hash, model_id, vector, dimensions, source_type, source_id, chunk_text, created_at FROM embeddings ORDER BY rowid`,
      'DROP TABLE embeddings',
      'ALTER TABLE embeddings_compact RENAME TO embeddings',
      'CREATE INDEX IF NOT EXISTS idx_embeddings_source ON embeddings(source_id)',
    ]) db.run(sql);
  },
};

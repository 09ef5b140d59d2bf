/**
 * Migration 27: a partial index over soft-deleted memories only (`is_deleted = 1`). Counting live
 * and deleted memories (`agent-memory stats`, countMemories) scanned the whole memories table,
 * about a second of a 100k store's open-and-count under load (docs/store.md, "Measured: size,
 * open and ingest at scale"); with it the deleted count reads this small index and the live count
 * is the table's row count (read from its smallest index) minus it. It holds one entry per
 * deleted memory, nothing for live ones.
 */
import type { Migration } from '../migrations';

export const DELETED_INDEX_MIGRATION_VERSION = 27;

export const DELETED_INDEX_MIGRATION: Migration = {
  version: DELETED_INDEX_MIGRATION_VERSION,
  name: 'memories: partial index of soft-deleted rows (cheap live and deleted counts)',
  up(db) {
    db.run('CREATE INDEX IF NOT EXISTS idx_memories_deleted ON memories(is_deleted) WHERE is_deleted = 1');
  },
};

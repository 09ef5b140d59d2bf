/**
 * Migration 31: conflicts a person resolves and maintenance changes a person can undo
 * (docs/maintenance.md). Two new tables, nothing else changes.
 *
 * memory_conflicts: each memory pair the duplicates-and-conflicts scan proposed (older, newer, why),
 * and what a person decided: 'open' until then, 'keep-newer', 'keep-older' or 'both-true'.
 * `older_key` / `newer_key` are the two statements' normalised texts, so a "both are true" answer
 * also covers copies of the same two statements (consolidation/conflictRecords.ts).
 *
 * maintenance_changes: every merge or supersession maintenance made, named (`subject`, `target`,
 * `why`) with the rows it changed as they were before (`undo`, JSON), undoable until `undo_until`.
 */
import type { Migration } from '../migrations';
import { runAll } from './coreSchema';

export const CONFLICTS_AND_UNDO_MIGRATION_VERSION = 31;

const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS memory_conflicts (
    id TEXT PRIMARY KEY,
    older_id TEXT NOT NULL,
    newer_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    detail TEXT,
    confidence REAL NOT NULL DEFAULT 0,
    older_key TEXT NOT NULL,
    newer_key TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'keep-newer', 'keep-older', 'both-true')),
    found_at TEXT NOT NULL,
    resolved_at TEXT,
    UNIQUE(older_id, newer_id)
  )`,
  'CREATE INDEX IF NOT EXISTS idx_memory_conflicts_status ON memory_conflicts(status)',
  'CREATE INDEX IF NOT EXISTS idx_memory_conflicts_keys ON memory_conflicts(older_key, newer_key)',
  `CREATE TABLE IF NOT EXISTS maintenance_changes (
    id TEXT PRIMARY KEY,
    run_id TEXT,
    task TEXT NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    target TEXT,
    why TEXT NOT NULL,
    undo TEXT NOT NULL,
    created_at TEXT NOT NULL,
    undo_until TEXT NOT NULL,
    undone_at TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS idx_maintenance_changes_run ON maintenance_changes(run_id)',
];

export const CONFLICTS_AND_UNDO_MIGRATION: Migration = {
  version: CONFLICTS_AND_UNDO_MIGRATION_VERSION,
  name: 'memory_conflicts (resolved conflicts, both-are-true answers) and maintenance_changes (the undo log)',
  up(db) { runAll(db, STATEMENTS); },
};

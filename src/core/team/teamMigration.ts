/**
 * Store migration 24: the local side of team memory (docs/team.md). Self-contained new tables; no
 * existing table changes.
 *
 * - team_state: key/value facts of this store's team link: the connection string (never with a
 *   password), the shared projects (JSON list), the pull cursor (the server sequence number of
 *   the last row applied).
 * - team_shares: one row per memory that takes part in sharing. origin 'local' (written here,
 *   pushed) or 'remote' (a replica pulled from the server; `local_id` names the local memory it
 *   merged into when this store already held the same text). state: 'shared', 'personal' (Stop
 *   Sharing), 'tombstone' (forgotten: removed on the server and every replica), 'refused' (the
 *   server refused this member's tombstone of someone else's memory). pushed_hash is the content
 *   hash the server acknowledged, so a changed memory is pushed again and an unchanged one is not.
 * - team_outbox: the durable push queue, one pending entry per memory (a newer change replaces
 *   the older one and bumps `version`; an entry is removed only after the server committed it and
 *   only if its version did not move meanwhile). At-least-once: a crash between the server's
 *   commit and the removal pushes the entry again, which the server ignores (same id and hash).
 */
import type { Migration } from '../store/migrations';
import { runAll } from '../store/schema/coreSchema';

export const TEAM_MIGRATION_VERSION = 24;

export const TEAM_MIGRATION: Migration = {
  version: TEAM_MIGRATION_VERSION,
  name: 'team memory: team_state, team_shares, team_outbox',
  up(db) {
    runAll(db, [
      `CREATE TABLE IF NOT EXISTS team_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      )`,
      `CREATE TABLE IF NOT EXISTS team_shares (
        memory_id TEXT PRIMARY KEY,
        origin TEXT NOT NULL,
        local_id TEXT,
        author TEXT,
        project TEXT NOT NULL,
        state TEXT NOT NULL,
        pushed_hash TEXT,
        vector_pushed INTEGER NOT NULL DEFAULT 0,
        server_seq INTEGER,
        updated_at TEXT NOT NULL
      )`,
      'CREATE INDEX IF NOT EXISTS idx_team_shares_state ON team_shares(project, state)',
      'CREATE INDEX IF NOT EXISTS idx_team_shares_local ON team_shares(local_id) WHERE local_id IS NOT NULL',
      `CREATE TABLE IF NOT EXISTS team_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id TEXT NOT NULL UNIQUE,
        op TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        enqueued_at TEXT NOT NULL
      )`,
    ]);
  },
};

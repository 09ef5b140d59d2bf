/**
 * Migration 30: session_memories without the bytes no query reads (issue #17; docs/store.md,
 * "What the store keeps" gives the measured share at 10k memories). The table holds up to 10,000
 * rows (sessionRetention.ts), so after tracked recalls it was ~270 bytes per memory of a 10k store.
 *  - a WITHOUT ROWID table keyed by (session_key, agent_id, memory_id): that key was already
 *    UNIQUE (every upsert and every per-session query goes through it), so the rowid table stored
 *    the three keys twice (row and unique index); nothing reads the rowid, and nothing read the
 *    UUID `id` primary key (written, never read);
 *  - without idx_session_memories_session (session_key, a prefix of the key) and
 *    idx_session_memories_agent (agent_id, session_key: no query constrains agent_id without
 *    session_key, and agent_id = ? matches every row of a one-agent store); idx_session_memories_memory
 *    stays for forget (DELETE by memory_id) and the predictor's per-memory history
 *    (candidateSignals.ts: memory_id IN (...));
 *  - `created_ms` (INTEGER ms since the epoch) instead of the 24-character ISO `created_at`: read
 *    only to order sessions for pruning and to compare with a session's start (the predictor's
 *    history); a new name so that no query compares an integer with ISO text by mistake;
 *  - without eight columns nothing wrote or read (agent_preference, entity_slot, aspect_slot,
 *    is_constraint, structural_density, agent_relevance_score, agent_feedback_count, path_json).
 * Every row is kept. The step checks the shape first, so the migration is idempotent. The next
 * snapshot vacuums away the pages the old table leaves (snapshotVacuum.ts).
 */
import type { Migration, MigrationContext } from '../migrations';
import { runAll } from './coreSchema';

export const COMPACT_SESSIONS_MIGRATION_VERSION = 30;

/** ISO text → ms since the epoch in SQL (julianday keeps milliseconds); an unreadable time becomes 0 (oldest, pruned first). */
const ISO_TO_MS = 'COALESCE(CAST(ROUND((julianday(created_at) - 2440587.5) * 86400000.0) AS INTEGER), 0)';

function compactSessionMemories(db: MigrationContext): void {
  const sql = db.get<{ sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'session_memories'")?.sql ?? '';
  if (!/WITHOUT\s+ROWID/i.test(sql)) {
    runAll(db, [
      `CREATE TABLE session_memories_compact (
        session_key TEXT NOT NULL,
        agent_id TEXT NOT NULL DEFAULT 'default',
        memory_id TEXT NOT NULL,
        source TEXT NOT NULL,
        effective_score REAL,
        predictor_score REAL,
        final_score REAL NOT NULL DEFAULT 0,
        rank INTEGER NOT NULL,
        was_injected INTEGER NOT NULL DEFAULT 0,
        relevance_score REAL,
        fts_hit_count INTEGER NOT NULL DEFAULT 0,
        created_ms INTEGER NOT NULL,
        PRIMARY KEY (session_key, agent_id, memory_id)
      ) WITHOUT ROWID`,
      `INSERT INTO session_memories_compact (session_key, agent_id, memory_id, source, effective_score, predictor_score, final_score, rank, was_injected, relevance_score, fts_hit_count, created_ms)
         SELECT session_key, agent_id, memory_id, source, effective_score, predictor_score, final_score, rank, was_injected, relevance_score, fts_hit_count, ${ISO_TO_MS}
         FROM session_memories ORDER BY session_key, agent_id, memory_id`,
      'DROP TABLE session_memories',
      'ALTER TABLE session_memories_compact RENAME TO session_memories',
    ]);
  }
  runAll(db, [
    'DROP INDEX IF EXISTS idx_session_memories_session',
    'DROP INDEX IF EXISTS idx_session_memories_agent',
    'CREATE INDEX IF NOT EXISTS idx_session_memories_memory ON session_memories(memory_id)',
  ]);
}

export const COMPACT_SESSIONS_MIGRATION: Migration = {
  version: COMPACT_SESSIONS_MIGRATION_VERSION,
  name: 'compact session_memories: WITHOUT ROWID keyed by (session_key, agent_id, memory_id), no UUID id, two indexes and eight unused columns dropped, created_ms',
  up(db) {
    compactSessionMemories(db);
  },
};

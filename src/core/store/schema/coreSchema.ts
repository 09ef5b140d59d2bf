/**
 * Migration 1: the memory core (docs/store.md).
 * Conventions for every table: TEXT ids (random UUIDs made in TypeScript), ISO-8601 text times
 * passed from the injected clock (no time or random defaults: the journal replays statements and
 * must get the same result), booleans as 0/1 integers, `agent_id` defaulting to 'default'.
 */
import type { Migration, MigrationContext } from '../migrations';

/** meta: key/value facts about the store itself: schema_version, store_id, created_at. */
export const META_TABLE = `CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
)`;

/**
 * memories: one remembered item. `content_hash` is SHA-256 of `normalized_content` (dedup);
 * `project` is the workspace the memory came from (memories live in one global store and are
 * filtered per project); `scope` is an optional namespace; `session_key` the capturing session.
 * Soft delete via is_deleted/deleted_at. extraction_status: none | pending | complete | failed.
 */
const MEMORIES = `CREATE TABLE IF NOT EXISTS memories (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL DEFAULT 'fact',
  category TEXT,
  content TEXT NOT NULL,
  normalized_content TEXT,
  content_hash TEXT,
  confidence REAL NOT NULL DEFAULT 1.0,
  importance REAL NOT NULL DEFAULT 0.5,
  source_id TEXT,
  source_type TEXT,
  session_key TEXT,
  project TEXT,
  scope TEXT,
  agent_id TEXT NOT NULL DEFAULT 'default',
  visibility TEXT NOT NULL DEFAULT 'global',
  who TEXT,
  why TEXT,
  tags TEXT,
  idempotency_key TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL DEFAULT 'system',
  last_accessed TEXT,
  access_count INTEGER NOT NULL DEFAULT 0,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  deleted_at TEXT,
  extraction_status TEXT NOT NULL DEFAULT 'none',
  embedding_model TEXT,
  extraction_model TEXT,
  update_count INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1,
  pinned INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Low-selectivity columns (pinned, extraction_status) get partial indexes on the rare value only:
 * full indexes on them cost ~10% of the store size each for no query benefit (bench/store.ts).
 */
const MEMORY_INDEXES = [
  'CREATE INDEX IF NOT EXISTS idx_memories_pinned ON memories(created_at DESC) WHERE pinned = 1',
  'CREATE INDEX IF NOT EXISTS idx_memories_created ON memories(created_at DESC)',
  "CREATE INDEX IF NOT EXISTS idx_memories_extraction ON memories(extraction_status) WHERE extraction_status IN ('pending', 'failed')",
  'CREATE INDEX IF NOT EXISTS idx_memories_project ON memories(project, created_at DESC)',
  'CREATE INDEX IF NOT EXISTS idx_memories_session ON memories(session_key)',
  'CREATE INDEX IF NOT EXISTS idx_memories_source ON memories(source_id) WHERE source_id IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS idx_memories_scope ON memories(scope) WHERE scope IS NOT NULL',
  // Content-hash uniqueness among live rows, per agent, project and scope (migration 056 shape + project).
  `CREATE UNIQUE INDEX IF NOT EXISTS uq_memories_content_hash ON memories(content_hash, agent_id, COALESCE(project, ''), COALESCE(scope, '__NULL__'))
     WHERE content_hash IS NOT NULL AND is_deleted = 0`,
];

/**
 * memories_fts: external-content FTS5 over memories.content (unicode61). Kept in sync by
 * triggers on insert, delete and UPDATE OF content only, so metadata updates (access counts,
 * pinning, soft delete) never churn the index.
 */
const MEMORIES_FTS = [
  "CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(content, content='memories', content_rowid='rowid', tokenize='unicode61')",
  `CREATE TRIGGER IF NOT EXISTS memories_fts_ai AFTER INSERT ON memories BEGIN
     INSERT INTO memories_fts(rowid, content) VALUES (new.rowid, new.content);
   END`,
  `CREATE TRIGGER IF NOT EXISTS memories_fts_ad AFTER DELETE ON memories BEGIN
     INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
   END`,
  `CREATE TRIGGER IF NOT EXISTS memories_fts_au AFTER UPDATE OF content ON memories BEGIN
     INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
     INSERT INTO memories_fts(rowid, content) VALUES (new.rowid, new.content);
   END`,
];

/**
 * embeddings: one vector per (content hash, model). `vector` is raw little-endian float32,
 * `dimensions` its length; `source_id` the memory (or other source) it was computed for.
 */
const EMBEDDINGS = [
  `CREATE TABLE IF NOT EXISTS embeddings (
    id TEXT PRIMARY KEY,
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
  'CREATE INDEX IF NOT EXISTS idx_embeddings_source ON embeddings(source_id)',
  'CREATE INDEX IF NOT EXISTS idx_embeddings_model ON embeddings(model_id)',
];

/**
 * memory_jobs: background work queue (extract, prospective_index, embed, ...). Status
 * pending → leased → completed, or back to pending with backoff (next_attempt_at) on failure,
 * and dead after max_attempts. A lease has an owner and an expiry so a crashed
 * window's jobs are reclaimed.
 */
const MEMORY_JOBS = [
  `CREATE TABLE IF NOT EXISTS memory_jobs (
    id TEXT PRIMARY KEY,
    memory_id TEXT,
    job_type TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    payload TEXT,
    result TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 3,
    leased_at TEXT,
    lease_owner TEXT,
    lease_expires_at TEXT,
    next_attempt_at TEXT,
    completed_at TEXT,
    failed_at TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS idx_memory_jobs_status ON memory_jobs(status, next_attempt_at, created_at)',
  'CREATE INDEX IF NOT EXISTS idx_memory_jobs_memory ON memory_jobs(memory_id)',
  'CREATE INDEX IF NOT EXISTS idx_memory_jobs_completed ON memory_jobs(completed_at)',
  'CREATE INDEX IF NOT EXISTS idx_memory_jobs_failed ON memory_jobs(failed_at)',
];

/**
 * memory_hints: prospective hints (questions a memory answers), with an
 * external-content FTS5 index memory_hints_fts kept in sync by triggers.
 */
const MEMORY_HINTS = [
  `CREATE TABLE IF NOT EXISTS memory_hints (
    id TEXT PRIMARY KEY,
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    agent_id TEXT NOT NULL DEFAULT 'default',
    hint TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE(memory_id, hint)
  )`,
  'CREATE INDEX IF NOT EXISTS idx_memory_hints_memory ON memory_hints(memory_id)',
  "CREATE VIRTUAL TABLE IF NOT EXISTS memory_hints_fts USING fts5(hint, content='memory_hints', content_rowid='rowid', tokenize='unicode61')",
  `CREATE TRIGGER IF NOT EXISTS memory_hints_fts_ai AFTER INSERT ON memory_hints BEGIN
     INSERT INTO memory_hints_fts(rowid, hint) VALUES (new.rowid, new.hint);
   END`,
  `CREATE TRIGGER IF NOT EXISTS memory_hints_fts_ad AFTER DELETE ON memory_hints BEGIN
     INSERT INTO memory_hints_fts(memory_hints_fts, rowid, hint) VALUES ('delete', old.rowid, old.hint);
   END`,
  `CREATE TRIGGER IF NOT EXISTS memory_hints_fts_au AFTER UPDATE OF hint ON memory_hints BEGIN
     INSERT INTO memory_hints_fts(memory_hints_fts, rowid, hint) VALUES ('delete', old.rowid, old.hint);
     INSERT INTO memory_hints_fts(rowid, hint) VALUES (new.rowid, new.hint);
   END`,
];

export function runAll(db: MigrationContext, statements: readonly string[]): void {
  for (const sql of statements) db.run(sql);
}

export const CORE_MIGRATION: Migration = {
  version: 1,
  name: 'memory core: meta, memories (+fts), embeddings, memory_jobs, memory_hints (+fts)',
  up(db) {
    runAll(db, [META_TABLE, MEMORIES, ...MEMORY_INDEXES, ...MEMORIES_FTS, ...EMBEDDINGS, ...MEMORY_JOBS, ...MEMORY_HINTS]);
  },
};

/**
 * Migration 28: the per-memory tables without the bytes no query reads (issue #17; docs/store.md,
 * "What the store keeps" gives the measured share of each change at 10k memories):
 *  - memory_hints without its UUID `id` (written, never read: memory_hints_fts names rows by rowid,
 *    dedup is UNIQUE(memory_id, hint)) and without idx_memory_hints_memory (UNIQUE(memory_id, hint)
 *    starts with memory_id and serves the same lookups);
 *  - memory_entity_mentions as a WITHOUT ROWID table keyed by (memory_id, entity_id): the rowid
 *    table stored both ids twice (row and primary-key index) and nothing reads its rowid; and
 *    without created_at (written and copied on merge, never read; the mention_link audit row has
 *    the time while it is in the window);
 *  - graph_ops without its UUID `id` (never read) and with one index on target_id, which
 *    listGraphOps' target filter uses; (target_kind, target_id) served no query (none filters on
 *    target_kind) and created_at only ordered listGraphOps, which now orders by rowid (write order);
 *    provenance rows already outside the audit window keep op, target, memory, actor and time but
 *    not their details (graphOpsRetention.ts);
 *  - entity_attributes without four of its seven indexes: status (one value covers most rows; it
 *    drew the planner away from the aspect and entity indexes, see the unary + in recall queries),
 *    and (agent_id, aspect_id, claim_key | group_key [, claim_key], status), which no query
 *    constrains beyond agent_id; memory claim rows (memorySupersessionWrites.ts) lose
 *    normalized_content, read only by the same-content check on an aspect, which they never have;
 *  - memories without normalized_content (a lowercased copy of content nothing read; records
 *    derive it, memoryRecords.ts).
 * Rebuilt tables keep their rowids (the FTS indexes and the journal name rows by rowid); the
 * triggers of a dropped table are created again. Every step checks the shape first, so the
 * migration is idempotent. The next snapshot vacuums away the pages the old tables leave
 * (snapshotVacuum.ts).
 */
import type { Migration, MigrationContext } from '../migrations';
import { runAll } from './coreSchema';

export const COMPACT_TABLES_MIGRATION_VERSION = 28;

/** The memory claim group (memorySupersessionWrites.ts MEMORY_CLAIM_GROUP; not imported: a schema file depends on no module code). */
const MEMORY_CLAIM_GROUP = 'memory';

const columnsOf = (db: MigrationContext, table: string): string[] => db.all<{ name: string }>(`PRAGMA table_info(${table})`).map((c) => c.name);

const HINTS_FTS_TRIGGERS = [
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

function compactHints(db: MigrationContext): void {
  if (columnsOf(db, 'memory_hints').includes('id')) {
    runAll(db, [
      `CREATE TABLE memory_hints_compact (
        memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
        agent_id TEXT NOT NULL DEFAULT 'default',
        hint TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE(memory_id, hint)
      )`,
      'INSERT INTO memory_hints_compact (rowid, memory_id, agent_id, hint, created_at) SELECT rowid, memory_id, agent_id, hint, created_at FROM memory_hints ORDER BY rowid',
      'DROP TABLE memory_hints',
      'ALTER TABLE memory_hints_compact RENAME TO memory_hints',
    ]);
  }
  runAll(db, ['DROP INDEX IF EXISTS idx_memory_hints_memory', ...HINTS_FTS_TRIGGERS]);
}

function compactMentions(db: MigrationContext): void {
  const withoutRowid = db.get<{ sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'memory_entity_mentions'")?.sql ?? '';
  if (/WITHOUT\s+ROWID/i.test(withoutRowid)) return;
  runAll(db, [
    `CREATE TABLE memory_entity_mentions_compact (
      memory_id TEXT NOT NULL,
      entity_id TEXT NOT NULL,
      mention_text TEXT,
      confidence REAL NOT NULL DEFAULT 1.0,
      PRIMARY KEY (memory_id, entity_id)
    ) WITHOUT ROWID`,
    `INSERT INTO memory_entity_mentions_compact (memory_id, entity_id, mention_text, confidence)
       SELECT memory_id, entity_id, mention_text, confidence FROM memory_entity_mentions ORDER BY memory_id, entity_id`,
    'DROP TABLE memory_entity_mentions',
    'ALTER TABLE memory_entity_mentions_compact RENAME TO memory_entity_mentions',
    'CREATE INDEX IF NOT EXISTS idx_mentions_entity ON memory_entity_mentions(entity_id)',
  ]);
}

function compactGraphOpsTable(db: MigrationContext): void {
  if (columnsOf(db, 'graph_ops').includes('id')) {
    runAll(db, [
      `CREATE TABLE graph_ops_compact (
        op TEXT NOT NULL,
        target_kind TEXT NOT NULL,
        target_id TEXT,
        memory_id TEXT,
        actor TEXT NOT NULL DEFAULT 'system',
        details TEXT,
        created_at TEXT NOT NULL
      )`,
      `INSERT INTO graph_ops_compact (rowid, op, target_kind, target_id, memory_id, actor, details, created_at)
         SELECT rowid, op, target_kind, target_id, memory_id, actor, details, created_at FROM graph_ops ORDER BY rowid`,
      'DROP TABLE graph_ops',
      'ALTER TABLE graph_ops_compact RENAME TO graph_ops',
    ]);
  }
  runAll(db, [
    'DROP INDEX IF EXISTS idx_graph_ops_created',
    'DROP INDEX IF EXISTS idx_graph_ops_target',
    'CREATE INDEX IF NOT EXISTS idx_graph_ops_target_id ON graph_ops(target_id)',
  ]);
  // Rows at or below the pruned mark are the provenance rows retention kept (graphOpsRetention.ts).
  const prunedTo = Number(db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'graph_ops_pruned_to'")?.value ?? 0);
  if (Number.isFinite(prunedTo) && prunedTo > 0) db.run('UPDATE graph_ops SET details = NULL WHERE rowid <= ? AND details IS NOT NULL', [prunedTo]);
}

function compactAttributes(db: MigrationContext): void {
  runAll(db, [
    'DROP INDEX IF EXISTS idx_attributes_status',
    'DROP INDEX IF EXISTS idx_attributes_claim',
    'DROP INDEX IF EXISTS idx_attributes_group',
    'DROP INDEX IF EXISTS idx_attributes_group_claim',
  ]);
  db.run('UPDATE entity_attributes SET normalized_content = NULL WHERE entity_id IS NULL AND aspect_id IS NULL AND group_key = ? AND normalized_content IS NOT NULL', [MEMORY_CLAIM_GROUP]);
}

function compactMemories(db: MigrationContext): void {
  if (columnsOf(db, 'memories').includes('normalized_content')) db.run('ALTER TABLE memories DROP COLUMN normalized_content');
}

export const COMPACT_TABLES_MIGRATION: Migration = {
  version: COMPACT_TABLES_MIGRATION_VERSION,
  name: 'compact tables: memory_hints and graph_ops without UUID ids, mentions WITHOUT ROWID, four attribute indexes and memories.normalized_content dropped',
  up(db) {
    compactHints(db);
    compactMentions(db);
    compactGraphOpsTable(db);
    compactAttributes(db);
    compactMemories(db);
  },
};

/**
 * Versioned, idempotent schema migrations. Each migration runs at most once per store (the
 * `schema_migrations` table records it), and every statement in it is itself safe to re-run
 * (IF NOT EXISTS, add-column-if-missing), so a half-applied migration (impossible inside one
 * transaction, but cheap insurance) or a replayed one converges to the same schema.
 *
 * Migrations run through a SqlWriter, so in the durable store they are one journaled transaction
 * that other processes replay like any other write.
 */
import { MemoryError } from '../errors';
import type { SqlReader, SqlWriter } from './storeTypes';
import { CORE_MIGRATION } from './schema/coreSchema';
import { GRAPH_MIGRATION } from './schema/graphSchema';
import { SESSION_MIGRATION } from './schema/sessionSchema';
import { META_TABLE } from './schema/coreSchema';
import { feedbackLoopMigration } from '../feedback/feedbackMigration';
import { CJK_INDEX_MIGRATION } from './schema/cjkSchema';
import { LEXICAL_STATS_MIGRATION } from './schema/lexicalStatsSchema';
import { PORTER_FTS_MIGRATION } from './schema/porterFtsSchema';
import { TEAM_MIGRATION } from '../team/teamMigration';
import { RETENTION_MIGRATION } from './schema/retentionSchema';
import { COMPACT_EMBEDDINGS_MIGRATION } from './schema/compactEmbeddingsSchema';
import { DELETED_INDEX_MIGRATION } from './schema/deletedIndexSchema';
import { COMPACT_TABLES_MIGRATION } from './schema/compactTablesSchema';
import { TEAM_SCAN_MIGRATION } from '../team/teamScanMigration';
import { COMPACT_SESSIONS_MIGRATION } from './schema/compactSessionsSchema';
import { CONFLICTS_AND_UNDO_MIGRATION } from './schema/conflictsAndUndoSchema';
import { SETTLED_INDEX_MIGRATION } from './schema/settledIndexSchema';

export interface MigrationContext extends SqlWriter {
  /** Adds a column unless `PRAGMA table_info` already lists it. Returns whether it was added. */
  addColumnIfMissing(table: string, column: string, definition: string): boolean;
  /** ISO time of this migration run (from the injected clock; never SQL 'now'). */
  readonly nowIso: string;
}

export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: MigrationContext): void;
}

/** Every migration of the store, in order. Later issues append theirs here. */
export const MIGRATIONS: readonly Migration[] = [CORE_MIGRATION, GRAPH_MIGRATION, SESSION_MIGRATION, feedbackLoopMigration(), CJK_INDEX_MIGRATION, LEXICAL_STATS_MIGRATION, PORTER_FTS_MIGRATION, TEAM_MIGRATION, RETENTION_MIGRATION, COMPACT_EMBEDDINGS_MIGRATION, DELETED_INDEX_MIGRATION, COMPACT_TABLES_MIGRATION, TEAM_SCAN_MIGRATION, COMPACT_SESSIONS_MIGRATION, CONFLICTS_AND_UNDO_MIGRATION, SETTLED_INDEX_MIGRATION];

/** The schema version this code writes. */
export const SCHEMA_VERSION = latestVersion(MIGRATIONS);

export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function addColumnIfMissing(db: SqlWriter, table: string, column: string, definition: string): boolean {
  if (!IDENTIFIER.test(table) || !IDENTIFIER.test(column)) throw new MemoryError('E_INTERNAL', `Bad identifier in migration: ${table}.${column}`);
  const columns = db.all<{ name: string }>(`PRAGMA table_info(${table})`);
  if (columns.some((c) => c.name === column)) return false;
  db.run(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  return true;
}

/** The schema version a database holds (0 for an empty one). */
export function readSchemaVersion(db: SqlReader): number {
  if (db.hasTable('meta')) {
    const row = db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'");
    if (row) return Number(row.value);
  }
  if (db.hasTable('schema_migrations')) {
    const row = db.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
    return row?.v ?? 0;
  }
  return 0;
}

/** Refuses a database written by newer code, before anything touches it. */
export function assertSchemaNotNewer(db: SqlReader, migrations: readonly Migration[] = MIGRATIONS): void {
  const found = readSchemaVersion(db);
  const known = latestVersion(migrations);
  if (found > known) {
    throw new MemoryError('E_STORE_NEWER_SCHEMA', `This memory store was written by a newer version of Agent Memory (schema ${found}; this version understands up to ${known}). Update the extension or CLI; the store was left untouched.`, { found, known });
  }
}

/** Whether `migrations` has anything left to apply to `db`. */
export function hasPendingMigrations(db: SqlReader, migrations: readonly Migration[] = MIGRATIONS): boolean {
  if (!db.hasTable('schema_migrations')) return migrations.length > 0;
  const applied = new Set(db.all<{ version: number }>('SELECT version FROM schema_migrations').map((r) => r.version));
  return migrations.some((m) => !applied.has(m.version));
}

export interface MigrationOutcome {
  readonly applied: readonly number[];
  readonly schemaVersion: number;
}

/**
 * Applies pending migrations in version order. Idempotent: with nothing pending it executes no
 * write at all (so a second run records nothing in the journal).
 */
export function runMigrations(db: SqlWriter, options: { nowIso: string; newStoreId: () => string; migrations?: readonly Migration[] }): MigrationOutcome {
  const migrations = [...(options.migrations ?? MIGRATIONS)].sort((a, b) => a.version - b.version);
  assertSchemaNotNewer(db, migrations);
  if (!hasPendingMigrations(db, migrations)) return { applied: [], schemaVersion: readSchemaVersion(db) };
  if (!db.hasTable('schema_migrations')) {
    db.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  }
  const applied = new Set(db.all<{ version: number }>('SELECT version FROM schema_migrations').map((r) => r.version));
  const context: MigrationContext = {
    all: (sql, params) => db.all(sql, params),
    get: (sql, params) => db.get(sql, params),
    hasTable: (name) => db.hasTable(name),
    run: (sql, params) => db.run(sql, params),
    addColumnIfMissing: (table, column, definition) => addColumnIfMissing(db, table, column, definition),
    nowIso: options.nowIso,
  };
  const done: number[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    m.up(context);
    db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, options.nowIso]);
    done.push(m.version);
  }
  const version = latestVersion(migrations);
  if (!db.hasTable('meta')) db.run(META_TABLE);
  db.run("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [String(version)]);
  if (!db.get("SELECT 1 AS found FROM meta WHERE key = 'store_id'")) {
    db.run("INSERT INTO meta (key, value) VALUES ('store_id', ?)", [options.newStoreId()]);
    db.run("INSERT INTO meta (key, value) VALUES ('created_at', ?)", [options.nowIso]);
  }
  return { applied: done, schemaVersion: version };
}

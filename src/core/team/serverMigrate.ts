/**
 * Applying the team server's versioned migrations (serverSchema.ts), shared by `agent-memory team
 * init` (teamConnection.ts) and the tests. Each migration runs in its own transaction under an
 * advisory lock, so two concurrent inits cannot both apply one. A migration that needs a
 * PostgreSQL extension the server cannot provide is skipped (not recorded) with the reason, and
 * the next init tries it again (docs/team.md "Past one local replica").
 */
import { SERVER_BOOTSTRAP, SERVER_MIGRATIONS, SERVER_SCHEMA, SEQ_LOCK_KEY } from './serverSchema';
import type { ServerMigration } from './serverSchema';
import type { ServerSql } from './serverSql';

export interface SkippedMigration {
  readonly version: number;
  readonly extension: string;
  /** Why the extension is not usable, for the person running init. */
  readonly reason: string;
}

export interface MigrateResult {
  readonly applied: readonly number[];
  readonly skipped: readonly SkippedMigration[];
}

/**
 * Creates the extension a migration needs, inside the migration's transaction. Returns the reason
 * it cannot, or undefined when the extension is there. Only "not installed" and "not allowed" are
 * reasons to skip; any other failure is an error of init.
 */
async function ensureExtension(sql: ServerSql, m: ServerMigration & { requiresExtension: string }): Promise<string | undefined> {
  const name = m.requiresExtension;
  const available = await sql.query<{ installed: string | null }>('SELECT installed_version AS installed FROM pg_available_extensions WHERE name = $1', [name]);
  if (available.rows.length === 0) {
    return `the server has no "${name}" extension installed (pgvector: install the package for this PostgreSQL version, or enable it on the managed service; docs/team.md)`;
  }
  if (available.rows[0]?.installed) return undefined;
  await sql.query('SAVEPOINT agent_memory_extension');
  try {
    await sql.query(`CREATE EXTENSION IF NOT EXISTS ${name}`);
    await sql.query('RELEASE SAVEPOINT agent_memory_extension');
    return undefined;
  } catch (e) {
    await sql.query('ROLLBACK TO SAVEPOINT agent_memory_extension');
    if ((e as { code?: unknown }).code === '42501') return `this role may not create the "${name}" extension (ask the database owner or a superuser to run CREATE EXTENSION ${name}, then run team init again)`;
    throw e;
  }
}

/** Applies the migrations that are missing; the caller holds a connection with an administrator's role. */
export async function applyServerMigrations(sql: ServerSql, migrations: readonly ServerMigration[] = SERVER_MIGRATIONS): Promise<MigrateResult> {
  const applied: number[] = [];
  const skipped: SkippedMigration[] = [];
  await sql.query(SERVER_BOOTSTRAP);
  for (const m of migrations) {
    await sql.query('BEGIN');
    try {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [SEQ_LOCK_KEY + 1]);
      const done = await sql.query(`SELECT 1 AS x FROM ${SERVER_SCHEMA}.schema_migrations WHERE version = $1`, [m.version]);
      if (done.rows.length === 0) {
        const missing = m.requiresExtension !== undefined ? await ensureExtension(sql, { ...m, requiresExtension: m.requiresExtension }) : undefined;
        if (missing !== undefined && m.requiresExtension !== undefined) {
          skipped.push({ version: m.version, extension: m.requiresExtension, reason: missing });
        } else {
          await sql.query(m.sql);
          await sql.query(`INSERT INTO ${SERVER_SCHEMA}.schema_migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
          applied.push(m.version);
        }
      }
      await sql.query('COMMIT');
    } catch (e) {
      await sql.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }
  return { applied, skipped };
}

/** Whether the server applied a migration (the optional ones may be missing on an up-to-date server). */
export async function hasServerMigration(sql: ServerSql, version: number): Promise<boolean> {
  const r = await sql.query(`SELECT 1 AS x FROM ${SERVER_SCHEMA}.schema_migrations WHERE version = $1`, [version]);
  return r.rows.length > 0;
}

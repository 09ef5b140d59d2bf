/**
 * An in-memory PostgreSQL (PGlite, WASM) with its bundled pgvector, for the server-side search
 * tests (docs/team.md "Tests"): Debian's PostgreSQL here has no pgvector package, PGlite carries
 * one. `sql` adapts it to the ServerSql the team modules take: statements with parameters go
 * through `query`, parameterless text (which may hold several statements, as migrations do)
 * through `exec`.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import type { ServerSql } from '../../../src/core/team/serverSql';

export interface PgliteServer {
  readonly db: PGlite;
  readonly sql: ServerSql;
  /** The same database seen as another role (SET ROLE before each statement, RESET after). */
  as(role: string): ServerSql;
  close(): Promise<void>;
}

function adapter(db: PGlite): ServerSql {
  return {
    async query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }> {
      if (params && params.length > 0) return { rows: (await db.query<R>(text, params)).rows };
      const results = await db.exec(text);
      return { rows: (results[results.length - 1]?.rows ?? []) as R[] };
    },
  };
}

export async function startPglite(withVector = true): Promise<PgliteServer> {
  const db = await PGlite.create(withVector ? { extensions: { vector } } : {});
  const sql = adapter(db);
  return {
    db, sql,
    as(role: string): ServerSql {
      return {
        async query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }> {
          // Transaction control runs as is: after a failed statement the transaction refuses SET ROLE until ROLLBACK.
          if (/^\s*(BEGIN|COMMIT|ROLLBACK)\s*$/i.test(text)) return sql.query<R>(text, params);
          await db.exec(`SET ROLE "${role.replace(/"/g, '""')}"`);
          try { return await sql.query<R>(text, params); } finally { await db.exec('RESET ROLE').catch(() => undefined); }
        },
      };
    },
    close: () => db.close(),
  };
}

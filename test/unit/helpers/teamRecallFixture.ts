/**
 * A PGlite team server (pgliteServer.ts, with its bundled pgvector) and stores linked to it the
 * way `team connect` links them, for the tests of recall consulting the team server
 * (docs/team.md "Partial replicas"): the engine's ServerOpener returns the PGlite database seen as
 * the member's role, so row-level security applies as on a real server.
 */
import type { SecretStore } from '../../../src/core/hostContext';
import type { Embedder } from '../../../src/core/models/embedder';
import { vectorToBlob } from '../../../src/core/models/vectorStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { applyServerMigrations } from '../../../src/core/team/serverMigrate';
import { MEMBER_ROLE } from '../../../src/core/team/serverSchema';
import type { ServerSql } from '../../../src/core/team/serverSql';
import type { ServerConnection, ServerOpener } from '../../../src/core/team/teamServerRecall';
import { PULL_COMPLETE_KEY, setProjectShared, setStateValue } from '../../../src/core/team/teamState';
import { startPglite } from './pgliteServer';
import type { PgliteServer } from './pgliteServer';

export interface ServerRow { id: string; project: string; content: string; vector?: Float32Array; model?: string; createdAt?: string }

export interface PgliteTeam {
  readonly pg: PgliteServer;
  /** Inserts a row as `role` (as that member's push would). */
  insertAs(role: string, row: ServerRow): Promise<void>;
  /** Opens the database as the role named in the connection string; `delayMs` delays every statement; counts opens. */
  opener(options?: { delayMs?: number }): ServerOpener & { opened: number };
  close(): Promise<void>;
}

export const PGLITE_URL = (role: string): string => `postgresql://${role}@pglite.invalid:5432/team`;

export async function startPgliteTeam(roles: readonly string[]): Promise<PgliteTeam> {
  const pg = await startPglite();
  await applyServerMigrations(pg.sql);
  for (const r of roles) await pg.sql.query(`CREATE ROLE ${r} LOGIN IN ROLE ${MEMBER_ROLE}`);
  return {
    pg,
    async insertAs(role, r) {
      const blob = r.vector ? Buffer.from(vectorToBlob(r.vector, 'float32')) : null;
      await pg.as(role).query(
        `INSERT INTO agent_memory.memories (id, project, type, content, content_hash, created_at, deleted, model_id, dimensions, vector)
         VALUES ($1, $2, 'fact', $3, md5($3), $4, false, $5, $6, $7)`,
        [r.id, r.project, r.content, r.createdAt ?? '2026-11-01T00:00:00.000Z', r.vector ? r.model ?? 'fake-bow' : null, r.vector ? r.vector.length : null, blob]);
    },
    opener(options = {}) {
      const open = Object.assign(async (endpoint: { connectionString: string }): Promise<ServerConnection> => {
        open.opened++;
        const role = decodeURIComponent(new URL(endpoint.connectionString).username);
        const sql: ServerSql = pg.as(role);
        return {
          async query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }> {
            if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
            return sql.query<R>(text, params);
          },
          end: async () => undefined,
        };
      }, { opened: 0 });
      return open;
    },
    close: () => pg.close(),
  };
}

/**
 * Links a store to the team server as `team connect` + `team share --project` do (no login check:
 * PGlite has no network). `caughtUp` marks its pull as having reached the server's newest row, as
 * a finished `team sync` does (a full replica then recalls locally only).
 */
export async function linkStore(store: MemoryStore, role: string, projects: readonly string[], options: { caughtUp?: boolean } = {}): Promise<void> {
  await store.write('test.link', (db) => {
    setStateValue(db, 'connection', PGLITE_URL(role));
    setStateValue(db, 'server', 'pglite');
    setStateValue(db, 'role', role);
    for (const p of projects) setProjectShared(db, p, true);
    if (options.caughtUp) setStateValue(db, PULL_COMPLETE_KEY, '1');
  });
}

/** A secret store holding one password per key (VS Code's SecretStorage in the extension). */
export function mapSecrets(entries: Record<string, string> = {}): SecretStore & { reads: string[] } {
  const m = new Map(Object.entries(entries));
  const reads: string[] = [];
  return { reads, get: async (k) => { reads.push(k); return m.get(k); }, set: async (k, v) => { m.set(k, v); }, delete: async (k) => { m.delete(k); } };
}

/** An embedder mapping chosen texts to chosen vectors (others: a fixed far-away vector), for the vector arm. */
export function tableEmbedder(dims: number, table: Record<string, Float32Array>, id = 'fake-bow'): Embedder {
  const other = new Float32Array(dims); other[dims - 1] = 1;
  return { id, dims, embed: async (texts) => texts.map((t) => table[t] ?? other), dispose: async () => undefined };
}

export function axis(dims: number, i: number): Float32Array {
  const v = new Float32Array(dims); v[i] = 1; return v;
}

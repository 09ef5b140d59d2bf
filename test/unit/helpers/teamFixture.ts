/**
 * Team-memory test fixture: one real PostgreSQL server (postgresServer.ts) initialised with the
 * team schema, member roles with passwords, and clients (a store plus its TeamSync) per role.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { DEFAULT_REDACTION_CONFIG } from '../../../src/core/config/redactionConfig';
import { resolveTeamConfig } from '../../../src/core/config/teamConfig';
import type { TeamConfig } from '../../../src/core/config/teamConfig';
import { silentLogger } from '../../../src/core/logger';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { MEMBER_ROLE } from '../../../src/core/team/serverSchema';
import { connectStore, shareProject } from '../../../src/core/team/teamAdmin';
import { initTeamServer } from '../../../src/core/team/teamConnection';
import { TeamSync } from '../../../src/core/team/teamSync';
import { ADMIN_ROLE, startPostgres } from './postgresServer';
import type { PostgresServer } from './postgresServer';

export interface TeamClient {
  readonly role: string;
  readonly store: MemoryStore;
  readonly sync: TeamSync;
  readonly clock: ManualClock;
}

export interface TeamFixture {
  readonly pg: PostgresServer;
  readonly passwords: ReadonlyMap<string, string>;
  /** A store connected as `role`, sharing `projects`. */
  client(role: string, projects: readonly string[], options?: { config?: Partial<TeamConfig>; embeddingModelId?: string; store?: MemoryStore }): Promise<TeamClient>;
  /** Rows of the server's table, read as the administrator (RLS does not apply to the owner). */
  serverRows(project: string): Promise<{ id: string; author: string; content: string; deleted: boolean; seq: string; vector: Buffer | null }[]>;
  adminQuery<T extends object>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Stops every client and the server, and removes its folder. */
  close(): Promise<void>;
}

export async function startTeamFixture(roles: readonly string[]): Promise<TeamFixture> {
  const pg = await startPostgres();
  const clients: TeamClient[] = [];
  try {
    await initTeamServer({ connectionString: pg.url(ADMIN_ROLE), password: pg.adminPassword });
    const passwords = new Map<string, string>();
    for (const role of roles) {
      const pw = randomBytes(12).toString('base64url');
      passwords.set(role, pw);
      await pg.createRole(role, pw, MEMBER_ROLE);
    }
    const adminQuery = async <T extends object>(sql: string, params: unknown[] = []): Promise<T[]> => {
      const c: Client = await pg.admin();
      try { return (await c.query<T>(sql, params)).rows; } finally { await c.end(); }
    };
    return {
      pg, passwords, adminQuery,
      async client(role, projects, options = {}) {
        const clock = new ManualClock(Date.UTC(2026, 5, 1));
        const store = options.store ?? await openMemoryStore({ clock });
        const password = passwords.get(role);
        await connectStore(store, pg.url(role), password);
        for (const p of projects) await shareProject(store, p, true);
        const sync = new TeamSync({
          store, clock, logger: silentLogger, config: resolveTeamConfig({ catchUpIntervalMs: 5_000, pushDebounceMs: 20, ...options.config }),
          redaction: DEFAULT_REDACTION_CONFIG, jobs: DEFAULT_JOBS_CONFIG, embeddingModelId: options.embeddingModelId, extract: false,
          password: () => Promise.resolve(password),
        });
        const c = { role, store, sync, clock };
        clients.push(c);
        return c;
      },
      serverRows: (project) => adminQuery('SELECT id, author, content, deleted, seq::text AS seq, vector FROM agent_memory.memories WHERE project = $1 ORDER BY seq', [project]),
      async close() {
        for (const c of clients.splice(0)) {
          await c.sync.stop();
          await c.store.close();
        }
        await pg.stop();
      },
    };
  } catch (e) {
    await pg.stop();
    throw e;
  }
}

/** Polls `check` every 25 ms until it returns true (throws after timeoutMs with `what`). */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

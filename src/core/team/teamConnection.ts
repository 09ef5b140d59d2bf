/**
 * Connecting to the team server with `pg`, and turning its failures into coded, one-line errors
 * that never carry the password (docs/team.md, "Failure behaviour").
 *
 * The connection string names host, port, database, role and TLS (`sslmode`); it must not hold a
 * password. The password comes from the host: the extension passes the one kept in SecretStorage;
 * the CLI passes none, and `pg` then reads PGPASSWORD or the pgpass file like psql does.
 */
import type { Client, ClientConfig } from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { MemoryError } from '../errors';
import { SERVER_SCHEMA, SERVER_SCHEMA_VERSION } from './serverSchema';
import { applyServerMigrations } from './serverMigrate';
import type { SkippedMigration } from './serverMigrate';

export interface TeamEndpoint {
  /** postgresql://role@host:port/database?sslmode=... (no password). */
  readonly connectionString: string;
  /** From the host's secret storage; undefined means PGPASSWORD / pgpass. */
  readonly password?: string;
  readonly connectTimeoutMs?: number;
}

export interface ParsedConnection {
  readonly user: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  /** "role@host:port/database", for messages and status. */
  readonly label: string;
}

/** Validates a connection string and describes it; refuses one that holds a password. */
export function parseConnectionString(connectionString: string): ParsedConnection {
  const text = connectionString.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new MemoryError('E_INVALID_INPUT', 'The team connection string must look like postgresql://ROLE@HOST:PORT/DATABASE (optionally ?sslmode=require).');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new MemoryError('E_INVALID_INPUT', `The team connection string must start with postgresql:// (got ${url.protocol}//).`);
  }
  if (url.password) {
    throw new MemoryError('E_INVALID_INPUT', 'The team connection string must not contain a password: put it in PGPASSWORD or a pgpass file (CLI), or enter it when connecting in VS Code (kept in its secret storage).');
  }
  const user = decodeURIComponent(url.username);
  if (!user) throw new MemoryError('E_INVALID_INPUT', 'The team connection string must name your PostgreSQL role: postgresql://ROLE@HOST:PORT/DATABASE.');
  const host = url.hostname || 'localhost';
  const port = url.port ? Number(url.port) : 5432;
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || user;
  return { user, host, port, database, label: `${user}@${host}:${port}/${database}` };
}

const AUTH_CODES = new Set(['28P01', '28000']);
const OFFLINE_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08006', '53300']);
const NETWORK_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN']);

function scrub(text: string, password: string | undefined): string {
  let out = text.split('\n')[0] ?? '';
  for (const secret of [password, process.env.PGPASSWORD]) {
    if (secret) out = out.split(secret).join('***');
  }
  return out;
}

/**
 * A coded error for anything `pg` or the network threw. PostgreSQL's own message is kept only for
 * the refusals a person must act on (it names roles and policies, never values); everything else
 * gets a fixed sentence with the SQLSTATE so no SQL text reaches a user.
 */
export function teamError(e: unknown, conn: ParsedConnection, password?: string): MemoryError {
  if (e instanceof MemoryError) return e;
  const err = e as { code?: unknown; message?: unknown };
  const code = typeof err.code === 'string' ? err.code : '';
  const message = typeof err.message === 'string' ? err.message : String(e);
  if (AUTH_CODES.has(code)) {
    return new MemoryError('E_TEAM_AUTH', `The team server refused the login of role "${conn.user}" at ${conn.host}:${conn.port} (wrong password, or no such role). Set the password with PGPASSWORD or a pgpass file (CLI), or reconnect in VS Code.`, { code });
  }
  if (/client password must be a string/i.test(message)) {
    return new MemoryError('E_TEAM_AUTH', `No password for role "${conn.user}" at ${conn.host}:${conn.port}: set PGPASSWORD or a pgpass file (CLI), or reconnect in VS Code.`);
  }
  if (code === '42501') {
    return new MemoryError('E_TEAM_REFUSED', `The team server refused the change for role "${conn.user}": ${scrub(message, password)}. Members may change or forget only their own shared memories.`, { code });
  }
  if (code === '3F000' || code === '42P01') {
    return new MemoryError('E_TEAM_SERVER', `The team database ${conn.database} at ${conn.host}:${conn.port} has no Agent Memory schema: run \`agent-memory team init\` with an administrator role first.`, { code });
  }
  if (OFFLINE_CODES.has(code) || NETWORK_ERRNOS.has(code) || /Connection terminated|connection error|not queryable|shutting down|terminating connection|timeout|ECONNREFUSED|socket|closed/i.test(message)) {
    return new MemoryError('E_TEAM_OFFLINE', `The team server ${conn.host}:${conn.port} cannot be reached (${code || 'connection lost'}); changes wait in the local outbox.`, { code });
  }
  if (code === '3D000') return new MemoryError('E_TEAM_SERVER', `The team server has no database "${conn.database}".`, { code });
  return new MemoryError('E_TEAM_SERVER', `The team server failed a request${code ? ` (SQLSTATE ${code})` : ''}.`, { code });
}

function clientConfig(endpoint: TeamEndpoint): ClientConfig {
  // pg lets the connection string's (empty) password override an explicit one, so an injected
  // password goes with the parsed fields instead; without one, pg reads PGPASSWORD, then pgpass.
  const location: ClientConfig = endpoint.password !== undefined
    ? { ...(parseIntoClientConfig(endpoint.connectionString.trim()) as ClientConfig), password: endpoint.password }
    : { connectionString: endpoint.connectionString.trim() };
  return {
    ...location,
    connectionTimeoutMillis: endpoint.connectTimeoutMs ?? 10_000,
    application_name: 'agent-memory',
    keepAlive: true,
  };
}

/**
 * `pg` is loaded on the first connection, not with this module: its client pulls in net, tls,
 * dns and undici, ~45 ms of every CLI start (`stats` included) that never talks to a team server
 * (docs/store.md, "Where the 100k open goes").
 */
async function loadPgClient(): Promise<typeof Client> {
  const pg = await import('pg');
  return pg.Client;
}

/** Opens a connected client, or throws a coded error. An idle error is swallowed (the caller sees the next query fail). */
export async function connectTeam(endpoint: TeamEndpoint): Promise<Client> {
  const conn = parseConnectionString(endpoint.connectionString);
  const PgClient = await loadPgClient();
  const client = new PgClient(clientConfig(endpoint));
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (e) {
    await client.end().catch(() => undefined);
    throw teamError(e, conn, endpoint.password);
  }
}

export interface InitResult {
  readonly applied: readonly number[];
  /** Optional migrations the server cannot take yet (e.g. no pgvector), with the reason. */
  readonly skipped: readonly SkippedMigration[];
  readonly version: number;
}

/**
 * Applies the server migrations that are missing (serverMigrate.ts). Needs a role that may create
 * schemas and roles (an administrator).
 */
export async function initTeamServer(endpoint: TeamEndpoint): Promise<InitResult> {
  const conn = parseConnectionString(endpoint.connectionString);
  const client = await connectTeam(endpoint);
  try {
    const r = await applyServerMigrations(client);
    const v = await client.query<{ v: number | null }>(`SELECT MAX(version) AS v FROM ${SERVER_SCHEMA}.schema_migrations`);
    return { applied: r.applied, skipped: r.skipped, version: v.rows[0]?.v ?? SERVER_SCHEMA_VERSION };
  } catch (e) {
    if ((e as { code?: string }).code === '42501') {
      throw new MemoryError('E_TEAM_REFUSED', `Role "${conn.user}" may not create the team schema: run \`agent-memory team init\` as the database owner or an administrator.`);
    }
    throw teamError(e, conn, endpoint.password);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The server's schema version (0 before init); refuses a server newer than this code. */
export async function serverSchemaVersion(client: Client, conn: ParsedConnection): Promise<number> {
  let version = 0;
  try {
    const r = await client.query<{ v: number | null }>(`SELECT MAX(version) AS v FROM ${SERVER_SCHEMA}.schema_migrations`);
    version = r.rows[0]?.v ?? 0;
  } catch (e) {
    throw teamError(e, conn);
  }
  if (version === 0) throw teamError({ code: '42P01' }, conn);
  if (version > SERVER_SCHEMA_VERSION) {
    throw new MemoryError('E_TEAM_SERVER', `The team server's schema (${version}) is newer than this Agent Memory understands (${SERVER_SCHEMA_VERSION}); update the extension or CLI.`);
  }
  return version;
}

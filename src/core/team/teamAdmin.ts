/**
 * The user-facing team operations every host shares (CLI `agent-memory team …`, the VS Code
 * commands): connect, disconnect, share and stop sharing a project or a memory. Each is one store
 * transaction; the next sync carries the change to the server.
 */
import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import type { MemoryStore } from '../store/storeTypes';
import { connectTeam, parseConnectionString, serverSchemaVersion } from './teamConnection';
import { shareMemory, unshareMemory } from './teamOutbox';
import { clearConnection, saveConnection, setProjectShared } from './teamState';

export interface ConnectResult {
  /** role@host:port/database */
  readonly server: string;
  readonly serverSchemaVersion: number;
}

/**
 * Checks that the role can log in and the server holds the schema, then saves the connection
 * string (never the password) in the store, so every window and CLI run of this store uses it.
 */
export async function connectStore(store: MemoryStore, connectionString: string, password: string | undefined, connectTimeoutMs = 10_000): Promise<ConnectResult> {
  const conn = parseConnectionString(connectionString);
  const client = await connectTeam({ connectionString, password, connectTimeoutMs });
  let version: number;
  let serverKey: string;
  try {
    version = await serverSchemaVersion(client, conn);
    // The cluster's system identifier plus the database: the same server under another host name keeps its cursor.
    const id = await client.query<{ id: string }>('SELECT system_identifier::text || \'/\' || current_database() AS id FROM pg_control_system()').catch(() => ({ rows: [{ id: `${conn.host}:${conn.port}/${conn.database}` }] }));
    serverKey = id.rows[0]?.id ?? conn.label;
  } finally {
    await client.end().catch(() => undefined);
  }
  await store.write('team.connect', (db) => saveConnection(db, connectionString.trim(), serverKey, conn.user));
  return { server: conn.label, serverSchemaVersion: version };
}

export function disconnectStore(store: MemoryStore): Promise<void> {
  return store.write('team.disconnect', (db) => clearConnection(db));
}

export function shareProject(store: MemoryStore, project: string, shared: boolean): Promise<readonly string[]> {
  return store.write(shared ? 'team.shareProject' : 'team.unshareProject', (db) => setProjectShared(db, project, shared));
}

export function shareMemoryWithTeam(store: MemoryStore, memoryId: string, clock: Clock): Promise<void> {
  return store.write('team.share', (db) => shareMemory(db, memoryId, isoFromMs(clock.now())));
}

export function stopSharingMemory(store: MemoryStore, memoryId: string, clock: Clock): Promise<void> {
  return store.write('team.unshare', (db) => unshareMemory(db, memoryId, isoFromMs(clock.now())));
}

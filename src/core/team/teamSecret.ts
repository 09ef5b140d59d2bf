/**
 * Where a team connection's password lives: the host's secret store (src/core/hostContext.ts),
 * under one key per server and role, never in the store, settings or logs (docs/team.md).
 */
import type { SecretStore } from '../hostContext';
import { parseConnectionString } from './teamConnection';

export const TEAM_PASSWORD_SECRET_PREFIX = 'agentMemory.team.password:';

/** The secret-store key of the password for `connectionString` (its server and role, no password). */
export function teamPasswordSecretKey(connectionString: string): string {
  return TEAM_PASSWORD_SECRET_PREFIX + parseConnectionString(connectionString).label;
}

/** TeamSyncDeps.password for a connection: undefined lets pg read PGPASSWORD / pgpass itself. */
export function teamPasswordFrom(secrets: SecretStore | undefined, connectionString: string): () => Promise<string | undefined> {
  const key = teamPasswordSecretKey(connectionString);
  return async () => (secrets ? await secrets.get(key) : undefined);
}

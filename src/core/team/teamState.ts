/**
 * This store's team link (docs/team.md): the connection (never with a password), the role, the
 * server it belongs to, the shared projects and the pull cursor, kept in `team_state` (store
 * migration 24, teamMigration.ts). The push side is teamOutbox.ts, the pull side teamApply.ts.
 *
 * What is shared: the memories of the projects listed in team_state 'shared_projects', except
 * those someone took back with Stop Sharing. Pins, aspect weights, feedback and sessions are not
 * memories and never travel. Replicas are ordinary memories (source_type 'team', `who` = author),
 * so recall, the graph and the UI treat them like any memory and extraction runs on them locally.
 */
import { MemoryError } from '../errors';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

export const TEAM_SOURCE_TYPE = 'team';

export interface TeamLocalState {
  readonly connectionString: string | undefined;
  readonly sharedProjects: readonly string[];
  /** Server sequence number of the last pulled row applied here. */
  readonly cursor: number;
  /** The role the server knows this store as (set at connect). */
  readonly role: string | undefined;
}

function stateValue(db: SqlReader, key: string): string | undefined {
  return db.get<{ value: string }>('SELECT value FROM team_state WHERE key = ?', [key])?.value;
}

export function setStateValue(db: SqlWriter, key: string, value: string | undefined): void {
  if (value === undefined) db.run('DELETE FROM team_state WHERE key = ?', [key]);
  else db.run('INSERT INTO team_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
}

/** Whether this store is linked to a team server (one key lookup: recall asks it on every call). */
export function hasTeamConnection(db: SqlReader): boolean {
  return stateValue(db, 'connection') !== undefined;
}

export function readTeamState(db: SqlReader): TeamLocalState {
  let projects: string[] = [];
  const raw = stateValue(db, 'shared_projects');
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) projects = parsed.filter((p): p is string => typeof p === 'string');
    } catch { /* a damaged list shares nothing rather than everything */ }
  }
  return { connectionString: stateValue(db, 'connection'), sharedProjects: projects, cursor: Number(stateValue(db, 'cursor') ?? 0) || 0, role: stateValue(db, 'role') };
}

/**
 * team_state key set while the cursor is advanced by a partial replica (team.replica 'partial'):
 * such a cursor passed over rows the store did not take, so a full replica must restart it.
 */
export const PULL_MODE_KEY = 'pull_mode';

export function readPullMode(db: SqlReader): 'partial' | undefined {
  return stateValue(db, PULL_MODE_KEY) === 'partial' ? 'partial' : undefined;
}

/**
 * team_state key: '1' once a pull reached the server's newest row, '0' from a cursor restart
 * (another server, a newly shared project, partial → full) until then. A full replica that has
 * not caught up asks the server on recall meanwhile (docs/team.md "Partial replicas"). Stores
 * linked before the key existed have none: they count as caught up once they pulled anything.
 */
export const PULL_COMPLETE_KEY = 'pull_complete';

export function readPullComplete(db: SqlReader): boolean {
  const v = stateValue(db, PULL_COMPLETE_KEY);
  return v === '1' || (v === undefined && readTeamState(db).cursor > 0);
}

/** Restarts the pull cursor: the next pull reads the server from its first row. */
export function restartCursor(db: SqlWriter): void {
  setStateValue(db, 'cursor', '0');
  setStateValue(db, PULL_COMPLETE_KEY, '0');
}

/** Saves the connection (no password) and restarts the cursor when the server changed. */
export function saveConnection(db: SqlWriter, connectionString: string, serverKey: string, role: string): void {
  const before = stateValue(db, 'server');
  if (before !== serverKey) {
    restartCursor(db);
    // Replicas of the other server stay as memories but no longer follow it.
    db.run("DELETE FROM team_shares WHERE origin = 'remote'");
    db.run("UPDATE team_shares SET pushed_hash = NULL, vector_pushed = 0 WHERE origin = 'local'");
  }
  setStateValue(db, 'server', serverKey);
  setStateValue(db, 'connection', connectionString);
  setStateValue(db, 'role', role);
}

/** Forgets the connection; memories, replicas and the outbox stay (reconnecting resumes). */
export function clearConnection(db: SqlWriter): void {
  setStateValue(db, 'connection', undefined);
}

const PROJECT_MAX = 500;

export function setProjectShared(db: SqlWriter, project: string, shared: boolean): readonly string[] {
  const name = project.trim();
  if (!name || name.length > PROJECT_MAX) throw new MemoryError('E_INVALID_INPUT', `A project name must have 1 to ${PROJECT_MAX} characters.`);
  const current = new Set(readTeamState(db).sharedProjects);
  if (shared) current.add(name); else current.delete(name);
  const list = [...current].sort();
  setStateValue(db, 'shared_projects', JSON.stringify(list));
  // A newly shared project is pulled from the start (the cursor only covered the other projects).
  if (shared) restartCursor(db);
  return list;
}

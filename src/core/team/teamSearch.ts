/**
 * Server-side search for a store's hosts (CLI `agent-memory team search`): the store's saved
 * connection and shared projects, the query embedded by the local model, one connection as the
 * member's role, and the coded errors of teamConnection.ts (docs/team.md "Past one local replica").
 */
import type { SearchConfig } from '../config/searchConfig';
import { MemoryError } from '../errors';
import type { Embedder } from '../models/embedder';
import type { MemoryStore } from '../store/storeTypes';
import { searchTeamServer } from './serverSearch';
import type { ServerSearchResult } from './serverSearch';
import { connectTeam, parseConnectionString, serverSchemaVersion, teamError } from './teamConnection';
import { readTeamState } from './teamState';
import { embedQuery } from '../recall/queryAdapter';

export interface TeamSearchInput {
  readonly query: string;
  /** One of the shared projects; default: all of them. */
  readonly project?: string;
  readonly limit?: number;
}

export interface TeamSearchDeps {
  readonly config: SearchConfig;
  /** The local embedding model: its query vector drives the server's vector arm. */
  readonly embedder?: Pick<Embedder, 'id' | 'embed'>;
  /** The password from the host's secret storage; undefined lets pg read PGPASSWORD / pgpass. */
  readonly password?: string;
  readonly connectTimeoutMs?: number;
}

export async function searchWithStore(store: MemoryStore, input: TeamSearchInput, deps: TeamSearchDeps): Promise<ServerSearchResult> {
  const { connectionString, sharedProjects } = store.read((db) => readTeamState(db));
  if (!connectionString) throw new MemoryError('E_TEAM_NOT_CONNECTED', 'Team memory is not connected: run `agent-memory team connect postgresql://ROLE@HOST:PORT/DATABASE` first.');
  if (input.project !== undefined && !sharedProjects.includes(input.project)) {
    throw new MemoryError('E_INVALID_INPUT', `Project "${input.project}" is not shared from this store (shared: ${sharedProjects.length ? sharedProjects.join(', ') : 'none'}).`);
  }
  const projects = input.project !== undefined ? [input.project] : sharedProjects;
  const notes: string[] = [];
  let queryVector: { modelId: string; vector: Float32Array } | undefined;
  if (deps.embedder && input.query.trim() !== '') {
    try {
      const vector = await embedQuery(deps.embedder, input.query, deps.config.vector);
      if (vector) queryVector = { modelId: deps.embedder.id, vector };
    } catch {
      notes.push('The query could not be embedded; server-side search is lexical only.');
    }
  }
  const conn = parseConnectionString(connectionString);
  const client = await connectTeam({ connectionString, ...(deps.password !== undefined ? { password: deps.password } : {}), connectTimeoutMs: deps.connectTimeoutMs ?? 10_000 });
  try {
    await serverSchemaVersion(client, conn);
    const r = await searchTeamServer(client, { query: input.query, projects, ...(input.limit !== undefined ? { limit: input.limit } : {}), ...(queryVector ? { queryVector } : {}) }, deps.config);
    return notes.length ? { ...r, notes: [...notes, ...r.notes] } : r;
  } catch (e) {
    throw teamError(e, conn, deps.password);
  } finally {
    await client.end().catch(() => undefined);
  }
}

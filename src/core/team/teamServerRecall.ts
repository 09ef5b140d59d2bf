/**
 * The team server's side of `recall` for a partial replica (team.replica 'partial', docs/team.md
 * "Partial replicas"), and for a full replica until its pull has caught up: the engine asks it alongside local recall, under a deadline
 * (team.serverRecallTimeoutMs), and it answers with the server's hits the store does not hold, or
 * with a note and no hits. It never rejects: offline, a refused login, a server error or the
 * deadline give local results only, and for a while (15 s doubling to 5 min) later recalls do not
 * wait on that server again. Recalled hits are then replicated into the store off the answer path
 * (applyRecalled, teamApply.ts), so the graph, the tree and later recalls see them.
 *
 * One connection per engine, as the member's own role (row-level security applies), kept open
 * between recalls and dropped on any failure; statements on it run one search at a time. The
 * password comes from the host's SecretStore (the extension's SecretStorage, the CLI's PGPASSWORD;
 * none lets pg read pgpass) and is never logged: errors go through teamError, which scrubs it.
 */
import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import type { JobsConfig } from '../config/jobsConfig';
import type { SearchConfig } from '../config/searchConfig';
import type { TeamConfig } from '../config/teamConfig';
import { userMessage } from '../errors';
import type { SecretStore } from '../hostContext';
import type { Logger } from '../logger';
import type { QueryEmbedder, RecallRequest } from '../recall/recallRequest';
import type { MemoryStore } from '../store/storeTypes';
import { searchTeamServer } from './serverSearch';
import type { ServerSearchHit } from './serverSearch';
import type { ServerSql } from './serverSql';
import { applyRecalled } from './teamApply';
import { connectTeam, parseConnectionString, serverSchemaVersion, teamError } from './teamConnection';
import { teamPasswordFrom } from './teamSecret';
import { fetchByIds } from './teamServerRows';
import { hasTeamConnection, readPullComplete, readTeamState } from './teamState';
import { embedQuery } from '../recall/queryAdapter';

/** The store write label of replicated recall hits (TeamSync does not push on its own writes). */
export const TEAM_RECALLED_LABEL = 'team.recalled';

/** A connection to the team server: statements plus closing it. A pg Client fits. */
export interface ServerConnection extends ServerSql {
  end(): Promise<void>;
}

export interface ServerEndpoint {
  readonly connectionString: string;
  readonly password: string | undefined;
  readonly connectTimeoutMs: number;
}

/** Opens a connection checked against the server's schema version (tests pass PGlite's). */
export type ServerOpener = (endpoint: ServerEndpoint) => Promise<ServerConnection>;

export const openTeamServer: ServerOpener = async (endpoint) => {
  const conn = parseConnectionString(endpoint.connectionString);
  const client = await connectTeam({ connectionString: endpoint.connectionString, ...(endpoint.password !== undefined ? { password: endpoint.password } : {}), connectTimeoutMs: endpoint.connectTimeoutMs });
  try {
    await serverSchemaVersion(client, conn);
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  return client;
};

/** What the engine's settings say at the time of a recall. */
export interface TeamRecallContext {
  readonly team: TeamConfig;
  readonly jobs: JobsConfig;
  readonly extract: boolean;
  readonly embeddingModelId: string | undefined;
}

export interface TeamServerRecallDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly secrets: SecretStore | undefined;
  readonly context: () => TeamRecallContext;
  readonly open?: ServerOpener;
  /** Told after recalled hits were replicated (the engine wakes its job worker for their jobs). */
  readonly onReplicated?: (count: number) => void;
}

export interface ServerRecallAnswer {
  /** Whether the server answered this recall. */
  readonly consulted: boolean;
  /** The server's hits the store does not hold, best first. */
  readonly hits: readonly ServerSearchHit[];
  /** The projects searched (replication fetches rows of these only). */
  readonly projects: readonly string[];
  readonly notes: readonly string[];
  readonly elapsedMs: number;
}

const TIMED_OUT = Symbol('timed out');

export class TeamServerRecall {
  private conn: { key: string; client: ServerConnection } | undefined;
  /** Bumped when a connection is abandoned (timeout, failure, close): a late open is discarded. */
  private generation = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private downUntil = 0;
  private backoffMs = 0;
  private lastFailure: string | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly deps: TeamServerRecallDeps) {}

  /**
   * Whether recall consults the server: a partial replica with a saved connection, or a full
   * replica that has not caught up with the server yet (its first pull, or the pull after a
   * newly shared project, is still running); a caught-up full replica never does.
   */
  wanted(): boolean {
    if (this.closed) return false;
    // A store with no team (the common case) answers from one key lookup, before any settings work.
    return this.deps.store.read((db) => {
      if (!hasTeamConnection(db)) return false;
      if (this.deps.context().team.replica === 'partial') return true;
      return readTeamState(db).sharedProjects.length > 0 && !readPullComplete(db);
    });
  }

  /** The server's hits for `req` that the store does not hold; never rejects. */
  async search(req: RecallRequest, cfg: SearchConfig, embedder: QueryEmbedder | undefined): Promise<ServerRecallAnswer> {
    const t0 = performance.now();
    const none = (notes: string[], projects: readonly string[] = []): ServerRecallAnswer => ({ consulted: false, hits: [], projects, notes, elapsedMs: performance.now() - t0 });
    const { connectionString, sharedProjects } = this.deps.store.read((db) => readTeamState(db));
    if (!connectionString || this.closed) return none([]);
    if (sharedProjects.length === 0) return none(['The team server was not asked: this store shares no project.']);
    if (req.project !== undefined && !sharedProjects.includes(req.project)) return none([]);
    const projects = req.project !== undefined ? [req.project] : sharedProjects;
    const now = this.deps.clock.now();
    if (now < this.downUntil) {
      return none([`The team server was not asked (it failed ${this.lastFailure ?? ''}; next try after ${isoFromMs(this.downUntil)}): local results only.`], projects);
    }
    const ctx = this.deps.context();
    const limit = req.limit ?? cfg.limit;
    // The query vector first, outside the deadline: local recall waits for the same embedding (one
    // call, shared), and a model still loading must not count against the server.
    let queryVector: { modelId: string; vector: Float32Array } | undefined;
    if (embedder && cfg.vector.enabled) {
      try {
        const vector = await embedQuery(embedder, req.query, cfg.vector);
        if (vector) queryVector = { modelId: embedder.id, vector };
      } catch { /* the local arm notes the failed embedding; the server runs lexical only */ }
    }
    const request = { query: req.query, projects, limit, ...(queryVector ? { queryVector } : {}) };
    const generation = this.generation;
    const work = this.exclusive(async () => {
      const reused = this.conn?.key === connectionString;
      const client = await this.connection(connectionString, ctx.team, generation);
      try {
        return await searchTeamServer(client, request, cfg);
      } catch (e) {
        // A connection kept open between recalls may have been closed by the server or the
        // network meanwhile: one fresh connection, within the same deadline, before giving up.
        if (!reused || teamError(e, parseConnectionString(connectionString)).code !== 'E_TEAM_OFFLINE' || generation !== this.generation) throw e;
        await this.dropConnection();
        return searchTeamServer(await this.connection(connectionString, ctx.team, this.generation), request, cfg);
      }
    });
    // The race may leave `work` behind (a timeout): its failure is handled here, never unhandled.
    const settled = work.then((r) => ({ ok: true as const, r }), (e: unknown) => ({ ok: false as const, e }));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => { timer = setTimeout(() => resolve(TIMED_OUT), ctx.team.serverRecallTimeoutMs); });
    const outcome = await Promise.race([settled, deadline]);
    clearTimeout(timer);
    if (outcome === TIMED_OUT) {
      this.fail(`to answer within ${ctx.team.serverRecallTimeoutMs} ms`, ctx.team, 'timeout');
      return none([`The team server did not answer within ${ctx.team.serverRecallTimeoutMs} ms (team.serverRecallTimeoutMs): local results only.`], projects);
    }
    if (!outcome.ok) {
      const err = teamError(outcome.e, parseConnectionString(connectionString));
      const msg = userMessage(err);
      this.fail(`(${err.code})`, ctx.team, msg);
      return none([`The team server was not consulted: ${msg} Local results only.`], projects);
    }
    this.backoffMs = 0;
    this.downUntil = 0;
    this.lastFailure = undefined;
    const result = outcome.r;
    const ids = result.hits.map((h) => h.id);
    const held = this.deps.store.read((db) => new Set(db.all<{ id: string }>(
      `SELECT id FROM memories WHERE id IN (SELECT value FROM json_each(?1))
       UNION SELECT memory_id AS id FROM team_shares WHERE memory_id IN (SELECT value FROM json_each(?1))`, [JSON.stringify(ids)]).map((r) => r.id)));
    const inRange = (h: ServerSearchHit): boolean => (req.since === undefined || h.createdAt >= req.since) && (req.until === undefined || h.createdAt <= req.until);
    const hits = result.hits.filter((h) => !held.has(h.id) && inRange(h));
    const elapsedMs = performance.now() - t0;
    const notes = [...result.notes, `Team server consulted in ${Math.round(elapsedMs)} ms: ${result.hits.length} hit(s), ${hits.length} not held in this store.`];
    return { consulted: true, hits, projects, notes, elapsedMs };
  }

  /** Copies recalled server hits into the store as replicas, off the answer path; settles when done (never rejects; flush() waits too). */
  replicate(ids: readonly string[], projects: readonly string[]): Promise<void> {
    if (ids.length === 0 || this.closed) return Promise.resolve();
    const { store, logger } = this.deps;
    const ctx = this.deps.context();
    const { connectionString } = store.read((db) => readTeamState(db));
    if (!connectionString) return Promise.resolve();
    const generation = this.generation;
    const p = this.exclusive(async () => {
      const client = await this.connection(connectionString, ctx.team, generation);
      const rows = await fetchByIds(client, ids, projects);
      if (rows.length === 0 || this.closed) return 0;
      return store.write(TEAM_RECALLED_LABEL, (db) => applyRecalled(db, rows, { clock: this.deps.clock, jobs: ctx.jobs, embeddingModelId: ctx.embeddingModelId, extract: ctx.extract }));
    }).then((n) => { if (n > 0) this.deps.onReplicated?.(n); }, (e: unknown) => {
      logger.warn(`team: recalled memories were not replicated: ${userMessage(teamError(e, parseConnectionString(connectionString)))}`);
      void this.dropConnection();
    });
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
    return p;
  }

  /** Resolves once recalled hits queued so far are replicated (or failed). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.dropConnection();
  }

  private fail(what: string, team: TeamConfig, message: string): void {
    this.backoffMs = this.backoffMs === 0 ? team.serverRecallBackoffMs : Math.min(team.serverRecallBackoffMaxMs, this.backoffMs * 2);
    const now = this.deps.clock.now();
    this.downUntil = now + this.backoffMs;
    this.lastFailure = `${what} at ${isoFromMs(now)}`;
    this.deps.logger.warn(`team: server recall skipped for ${Math.round(this.backoffMs / 1000)} s: ${message}`);
    void this.dropConnection();
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async connection(connectionString: string, team: TeamConfig, generation: number): Promise<ServerConnection> {
    if (generation !== this.generation) throw new Error('connection abandoned');
    if (this.conn?.key === connectionString) return this.conn.client;
    // Another server than the cached connection's (the store was connected elsewhere).
    const old = this.conn;
    this.conn = undefined;
    await old?.client.end().catch(() => undefined);
    const password = await teamPasswordFrom(this.deps.secrets, connectionString)();
    const client = await (this.deps.open ?? openTeamServer)({ connectionString, password, connectTimeoutMs: team.serverRecallTimeoutMs });
    if (generation !== this.generation || this.closed) {
      // The recall that asked for it gave up meanwhile (deadline, close).
      await client.end().catch(() => undefined);
      throw new Error('connection abandoned');
    }
    this.conn = { key: connectionString, client };
    return client;
  }

  private async dropConnection(): Promise<void> {
    this.generation++;
    const c = this.conn;
    this.conn = undefined;
    await c?.client.end().catch(() => undefined);
  }
}

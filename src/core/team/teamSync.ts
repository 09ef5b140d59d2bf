/**
 * The network half of team memory (docs/team.md): push the outbox, pull by the server's sequence
 * cursor, and in live mode LISTEN for changes with a periodic catch-up.
 *
 * Push is at-least-once and idempotent: a batch goes to the server in one transaction; only after
 * COMMIT are its outbox entries removed locally. A crash or a lost connection in between pushes
 * the batch again, and the server's upsert changes nothing for a row whose id and content hash it
 * already holds (no new sequence number, so nothing is pulled twice either).
 * Pull applies each batch and advances the cursor in one local transaction, so a crash repeats at
 * most one batch, which applyPulled then skips.
 */
import type { Client } from 'pg';
import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import type { JobsConfig } from '../config/jobsConfig';
import type { RedactionConfig } from '../config/redactionConfig';
import type { TeamConfig } from '../config/teamConfig';
import { MemoryError, userMessage } from '../errors';
import type { Logger } from '../logger';
import type { Disposable, MemoryStore, SqlReader } from '../store/storeTypes';
import { connectTeam, parseConnectionString, serverSchemaVersion, teamError } from './teamConnection';
import type { ParsedConnection } from './teamConnection';
import { applyPulled } from './teamApply';
import type { ApplySummary } from './teamApply';
import { ackPushed, outboxSize, readOutbox, scanForPush } from './teamOutbox';
import { fetchPulled, fetchPulledPartial, sendBatch } from './teamServerRows';
import type { PulledHeader } from './teamServerRows';
import { PULL_COMPLETE_KEY, PULL_MODE_KEY, readPullComplete, readPullMode, readTeamState, restartCursor, setStateValue } from './teamState';
import { TEAM_RECALLED_LABEL } from './teamServerRecall';
import type { TeamReplicaMode } from '../config/teamConfig';
import { NOTIFY_CHANNEL } from './serverSchema';

export interface TeamSyncDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly config: TeamConfig;
  readonly redaction: RedactionConfig;
  readonly jobs: JobsConfig;
  /** The local embedding model id: pulled vectors of this model are reused. */
  readonly embeddingModelId?: string;
  /** Queue extraction for replicas (default true). */
  readonly extract?: boolean;
  /** The password from the host's secret storage; undefined lets pg read PGPASSWORD / pgpass. */
  readonly password?: () => Promise<string | undefined>;
}

export type TeamState = 'off' | 'connected' | 'offline' | 'error';

export interface TeamStatus {
  readonly state: TeamState;
  /** role@host:port/database, when configured. */
  readonly server: string | undefined;
  /** Outbox entries waiting for the server. */
  readonly waiting: number;
  readonly reason: string | undefined;
  readonly lastSyncAt: string | undefined;
  readonly sharedProjects: readonly string[];
  readonly cursor: number;
  /** team.replica: 'full' holds every shared memory, 'partial' its own and the recalled ones (recall asks the server). */
  readonly replica: TeamReplicaMode;
}

export interface PushSummary {
  readonly queued: number;
  readonly sent: number;
  readonly changedOnServer: number;
  readonly refused: number;
}

export interface SyncSummary {
  readonly push: PushSummary;
  readonly pull: ApplySummary;
}



const OWN_WRITES = new Set(['team.scan', 'team.ack', 'team.pull', 'team.mode', TEAM_RECALLED_LABEL]);


export class TeamSync {
  private client: Client | undefined;
  private conn: ParsedConnection | undefined;
  private listener: Client | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private state: TeamState = 'off';
  private reason: string | undefined;
  private lastSyncAt: string | undefined;
  private live = false;
  private timers = new Set<NodeJS.Timeout>();
  private pushTimer: NodeJS.Timeout | undefined;
  private pullTimer: NodeJS.Timeout | undefined;
  private reconnectDelay: number;
  private storeSub: Disposable | undefined;
  private readonly statusListeners = new Set<(s: TeamStatus) => void>();

  constructor(private readonly deps: TeamSyncDeps) {
    this.reconnectDelay = deps.config.reconnectBaseMs;
  }

  status(): TeamStatus {
    const local = this.deps.store.read((db) => ({ state: readTeamState(db), waiting: outboxSize(db) }));
    const server = local.state.connectionString ? safeLabel(local.state.connectionString) : undefined;
    return {
      state: server ? this.state : 'off', server, waiting: local.waiting, reason: this.reason, lastSyncAt: this.lastSyncAt,
      sharedProjects: local.state.sharedProjects, cursor: local.state.cursor, replica: this.deps.config.replica,
    };
  }

  onDidChangeStatus(listener: (s: TeamStatus) => void): Disposable {
    this.statusListeners.add(listener);
    return { dispose: () => { this.statusListeners.delete(listener); } };
  }

  /**
   * Pushes the whole outbox, then pulls everything new. Throws a coded error when the server is
   * unreachable. `full` scans every shared memory for the push instead of the marked ones
   * (`agent-memory team sync --full`; docs/team.md "The push scan").
   */
  syncOnce(options: { full?: boolean } = {}): Promise<SyncSummary> {
    return this.exclusive(async () => {
      const push = await this.pushNow(options.full ?? false);
      const pull = await this.pullNow();
      this.lastSyncAt = isoFromMs(this.deps.clock.now());
      return { push, pull };
    });
  }

  /** Connects (or reuses the connection) and reports the status, for `team status` and /status. */
  async probe(): Promise<TeamStatus> {
    try {
      await this.exclusive(() => this.workClient());
      this.setState('connected');
    } catch (e) {
      this.noteFailure(e);
    }
    return this.status();
  }

  push(): Promise<PushSummary> { return this.exclusive(() => this.pushNow()); }

  pull(): Promise<ApplySummary> { return this.exclusive(() => this.pullNow()); }

  /** Live mode: LISTEN for other clients' changes, push local changes shortly after they happen, catch up periodically. */
  start(): void {
    if (this.live) return;
    this.live = true;
    this.storeSub = this.deps.store.onDidChange((change) => {
      // Sync's own writes must not trigger another push (a loop); the user's team commands should.
      if (change.labels.every((l) => OWN_WRITES.has(l))) return;
      this.schedulePush();
    });
    const every = setInterval(() => { void this.catchUp(); }, this.deps.config.catchUpIntervalMs);
    every.unref?.();
    this.timers.add(every);
    void this.openListener().then(() => this.catchUp());
  }

  async stop(): Promise<void> {
    this.live = false;
    this.storeSub?.dispose();
    this.storeSub = undefined;
    for (const t of this.timers) { clearInterval(t); clearTimeout(t); }
    this.timers.clear();
    if (this.pushTimer) clearTimeout(this.pushTimer);
    if (this.pullTimer) clearTimeout(this.pullTimer);
    this.pushTimer = this.pullTimer = undefined;
    await this.chain.catch(() => undefined);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.dropClient();
  }

  private setState(state: TeamState, reason?: string): void {
    const changed = state !== this.state || reason !== this.reason;
    this.state = state;
    this.reason = reason;
    if (changed && this.statusListeners.size > 0) {
      const s = this.status();
      for (const l of this.statusListeners) l(s);
    }
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private schedulePush(): void {
    if (!this.live || this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      void this.push().catch((e: unknown) => this.noteFailure(e));
    }, this.deps.config.pushDebounceMs);
  }

  private schedulePull(): void {
    if (!this.live || this.pullTimer) return;
    this.pullTimer = setTimeout(() => {
      this.pullTimer = undefined;
      void this.pull().catch((e: unknown) => this.noteFailure(e));
    }, 20);
  }

  private async catchUp(): Promise<void> {
    if (!this.live) return;
    try {
      await this.syncOnce();
      if (!this.listener) await this.openListener();
    } catch (e) {
      this.noteFailure(e);
    }
  }

  private noteFailure(e: unknown): void {
    const msg = userMessage(e);
    if (e instanceof MemoryError && e.code === 'E_TEAM_OFFLINE') this.setState('offline', msg);
    else if (e instanceof MemoryError && e.code === 'E_TEAM_NOT_CONNECTED') this.setState('off', msg);
    else this.setState('error', msg);
    this.deps.logger.warn(`team: ${msg}`);
  }

  private endpoint(): { connectionString: string; conn: ParsedConnection } {
    const { connectionString } = this.deps.store.read((db) => readTeamState(db));
    if (!connectionString) throw new MemoryError('E_TEAM_NOT_CONNECTED', 'Team memory is not connected: run `agent-memory team connect postgresql://ROLE@HOST:PORT/DATABASE` (or Connect Team Memory… in VS Code).');
    return { connectionString, conn: parseConnectionString(connectionString) };
  }

  private async openClient(): Promise<{ client: Client; conn: ParsedConnection }> {
    const { connectionString, conn } = this.endpoint();
    const password = await this.deps.password?.();
    const client = await connectTeam({ connectionString, password, connectTimeoutMs: this.deps.config.connectTimeoutMs });
    try {
      await serverSchemaVersion(client, conn);
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
    return { client, conn };
  }

  private async workClient(): Promise<{ client: Client; conn: ParsedConnection }> {
    if (this.client && this.conn) return { client: this.client, conn: this.conn };
    const opened = await this.openClient();
    this.client = opened.client;
    this.conn = opened.conn;
    opened.client.on('error', () => { void this.dropClient(); });
    return opened;
  }

  private async dropClient(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    this.conn = undefined;
    await c?.end().catch(() => undefined);
  }

  private async openListener(): Promise<void> {
    if (!this.live || this.listener) return;
    try {
      const { client } = await this.openClient();
      client.on('notification', () => this.schedulePull());
      const lost = (): void => {
        if (this.listener !== client) return;
        this.listener = undefined;
        void client.end().catch(() => undefined);
        this.setState('offline', 'The team server connection was lost; retrying.');
        this.scheduleReconnect();
      };
      client.on('error', lost);
      client.on('end', lost);
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      this.listener = client;
      this.reconnectDelay = this.deps.config.reconnectBaseMs;
      this.setState('connected');
    } catch (e) {
      this.noteFailure(e);
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (!this.live) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.deps.config.reconnectMaxMs, delay * 2);
    const t = setTimeout(() => {
      this.timers.delete(t);
      void this.openListener().then(() => (this.listener ? this.catchUp() : undefined));
    }, delay);
    t.unref?.();
    this.timers.add(t);
  }

  /** Runs `fn` on the work connection; a lost connection is dropped (reopened next time) and reported as offline. */
  private async withClient<T>(fn: (client: Client, conn: ParsedConnection) => Promise<T>): Promise<T> {
    const { client, conn } = await this.workClient();
    try {
      return await fn(client, conn);
    } catch (e) {
      const err = teamError(e, conn);
      if (err.code === 'E_TEAM_OFFLINE') await this.dropClient();
      throw err;
    }
  }

  private async pushNow(full = false): Promise<PushSummary> {
    const { store, clock, config, redaction } = this.deps;
    // Reads only the memories marked since the last push, or every shared one when a full pass is due (teamOutbox.ts scanForPush).
    const queued = await scanForPush(store, clock.now(), full);
    let sent = 0, changedOnServer = 0, refused = 0;
    const storeId = store.storeId;
    for (;;) {
      const batch = store.read((db) => readOutbox(db, config.pushBatch, redaction));
      if (batch.length === 0) break;
      this.endpoint();
      const acks = await this.withClient((client) => sendBatch(client, batch, storeId, this.deps.logger));
      await store.write('team.ack', (db) => ackPushed(db, acks, isoFromMs(clock.now())));
      sent += batch.length;
      changedOnServer += acks.filter((a) => a.seq !== undefined).length;
      refused += acks.filter((a) => a.refused).length;
      this.setState('connected');
    }
    return { queued, sent, changedOnServer, refused };
  }


  private async pullNow(): Promise<ApplySummary> {
    const { store, config, clock, jobs } = this.deps;
    const total = { inserted: 0, updated: 0, forgotten: 0, vectorsReused: 0, skipped: 0, notHeld: 0 };
    const partial = config.replica === 'partial';
    // A cursor advanced by a partial replica passed over rows it did not take: a full replica
    // starts again from 0 (rows it holds are applied as no-ops), so it ends up holding them all.
    if (!partial && store.read((db) => readPullMode(db)) === 'partial') {
      await store.write('team.mode', (db) => { restartCursor(db); setStateValue(db, PULL_MODE_KEY, undefined); });
    } else if (partial && store.read((db) => readPullMode(db)) !== 'partial') {
      await store.write('team.mode', (db) => setStateValue(db, PULL_MODE_KEY, 'partial'));
    }
    for (;;) {
      const { cursor, sharedProjects, role } = store.read((db) => readTeamState(db));
      if (sharedProjects.length === 0) break;
      // A partial replica fetches content only for the rows it holds or wrote (teamServerRows.ts).
      const incoming = await this.withClient((client) => (partial
        ? fetchPulledPartial(client, cursor, sharedProjects, config.pullBatch, (headers) => store.read((db) => heldOrOwn(db, headers, role)))
        : fetchPulled(client, cursor, sharedProjects, config.pullBatch)));
      if (incoming.length === 0) {
        if (!store.read((db) => readPullComplete(db))) await store.write('team.pull', (db) => setStateValue(db, PULL_COMPLETE_KEY, '1'));
        break;
      }
      const last = incoming.length < config.pullBatch;
      const applied = await store.write('team.pull', (db) => {
        const r = applyPulled(db, incoming, {
          clock, jobs, embeddingModelId: this.deps.embeddingModelId, extract: this.deps.extract ?? true, partial, ...(role !== undefined ? { ownRole: role } : {}),
        });
        // The server's newest row is applied: a full replica has caught up (its recall stops asking the server).
        if (last) setStateValue(db, PULL_COMPLETE_KEY, '1');
        return r;
      });
      total.inserted += applied.inserted;
      total.updated += applied.updated;
      total.forgotten += applied.forgotten;
      total.vectorsReused += applied.vectorsReused;
      total.skipped += applied.skipped;
      total.notHeld += applied.notHeld;
      this.setState('connected');
      if (last) break;
    }
    return total;
  }
}


/** The rows of a pull page a partial replica takes: those it holds (a team_shares row) and its own role's. */
function heldOrOwn(db: SqlReader, headers: readonly PulledHeader[], role: string | undefined): Set<string> {
  const held = new Set(db.all<{ memory_id: string }>('SELECT memory_id FROM team_shares WHERE memory_id IN (SELECT value FROM json_each(?))', [JSON.stringify(headers.map((h) => h.id))]).map((r) => r.memory_id));
  for (const h of headers) if (role !== undefined && h.author === role) held.add(h.id);
  return held;
}

function safeLabel(connectionString: string): string | undefined {
  try { return parseConnectionString(connectionString).label; } catch { return undefined; }
}

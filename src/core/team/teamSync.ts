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
import type { Disposable, MemoryStore } from '../store/storeTypes';
import { connectTeam, parseConnectionString, serverSchemaVersion, teamError } from './teamConnection';
import type { ParsedConnection } from './teamConnection';
import { ackPushed, applyPulled, applyScan, outboxSize, planIsEmpty, planScan, readOutbox, readTeamState } from './teamLocal';
import type { ApplySummary, IncomingRow, OutboxItem, PushAck } from './teamLocal';
import { NOTIFY_CHANNEL, SERVER_SCHEMA } from './serverSchema';

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

const PUSH_SQL = `
INSERT INTO ${SERVER_SCHEMA}.memories AS m (id, project, type, content, content_hash, tags, importance, confidence, origin_store, created_at, deleted, model_id, dimensions, vector)
SELECT x.id, x.project, x.type, x.content, x.content_hash, x.tags, x.importance, x.confidence, $2, x.created_at, x.deleted, x.model_id, x.dimensions, decode(x.vector, 'base64')
  FROM jsonb_to_recordset($1::jsonb) AS x(id text, project text, type text, content text, content_hash text, tags text, importance real, confidence real,
                                          created_at text, deleted boolean, model_id text, dimensions integer, vector text)
ON CONFLICT (id) DO UPDATE SET project = EXCLUDED.project, type = EXCLUDED.type, content = EXCLUDED.content, content_hash = EXCLUDED.content_hash,
  tags = EXCLUDED.tags, importance = EXCLUDED.importance, confidence = EXCLUDED.confidence, deleted = EXCLUDED.deleted,
  model_id = EXCLUDED.model_id, dimensions = EXCLUDED.dimensions, vector = EXCLUDED.vector
  WHERE (m.content_hash, m.deleted, m.project, m.type, COALESCE(m.tags, ''), m.model_id IS NULL)
        IS DISTINCT FROM (EXCLUDED.content_hash, EXCLUDED.deleted, EXCLUDED.project, EXCLUDED.type, COALESCE(EXCLUDED.tags, ''), EXCLUDED.model_id IS NULL)
RETURNING id, author, seq`;

const PULL_SQL = `
SELECT id, author, project, type, content, content_hash, tags, importance, confidence, created_at, deleted, model_id, dimensions, vector, seq
  FROM ${SERVER_SCHEMA}.memories WHERE seq > $1 AND project = ANY($2::text[]) ORDER BY seq LIMIT $3`;

const OWN_WRITES = new Set(['team.scan', 'team.ack', 'team.pull']);

/** SQLSTATE classes that make one row permanently unacceptable (retrying cannot help). */
const isRowRefusal = (code: string): boolean => code === '42501' || code.startsWith('23') || code.startsWith('22');

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
      sharedProjects: local.state.sharedProjects, cursor: local.state.cursor,
    };
  }

  onDidChangeStatus(listener: (s: TeamStatus) => void): Disposable {
    this.statusListeners.add(listener);
    return { dispose: () => { this.statusListeners.delete(listener); } };
  }

  /** Pushes the whole outbox, then pulls everything new. Throws a coded error when the server is unreachable. */
  syncOnce(): Promise<SyncSummary> {
    return this.exclusive(async () => {
      const push = await this.pushNow();
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

  private async pushNow(): Promise<PushSummary> {
    const { store, clock, config, redaction } = this.deps;
    const projects = store.read((db) => readTeamState(db).sharedProjects);
    let queued = 0;
    if (!store.read((db) => planIsEmpty(planScan(db, projects)))) {
      queued = await store.write('team.scan', (db) => applyScan(db, readTeamState(db).sharedProjects, isoFromMs(clock.now())));
    }
    let sent = 0, changedOnServer = 0, refused = 0;
    const storeId = store.storeId;
    for (;;) {
      const batch = store.read((db) => readOutbox(db, config.pushBatch, redaction));
      if (batch.length === 0) break;
      this.endpoint();
      const acks = await this.withClient((client) => this.sendBatch(client, batch, storeId));
      await store.write('team.ack', (db) => ackPushed(db, acks, isoFromMs(clock.now())));
      sent += batch.length;
      changedOnServer += acks.filter((a) => a.seq !== undefined).length;
      refused += acks.filter((a) => a.refused).length;
      this.setState('connected');
    }
    return { queued, sent, changedOnServer, refused };
  }

  private async sendBatch(client: Client, batch: readonly OutboxItem[], storeId: string): Promise<PushAck[]> {
    try {
      return await this.sendRows(client, batch, storeId);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (typeof code !== 'string' || !isRowRefusal(code) || batch.length === 1) {
        if (batch.length === 1 && typeof code === 'string' && isRowRefusal(code)) return [refusedAck(batch[0] as OutboxItem, code, this.deps.logger)];
        throw e;
      }
      // One row spoiled the batch: send one at a time so only the refused rows stay behind.
      const acks: PushAck[] = [];
      for (const item of batch) {
        try {
          acks.push(...await this.sendRows(client, [item], storeId));
        } catch (inner) {
          const c = (inner as { code?: unknown }).code;
          if (typeof c === 'string' && isRowRefusal(c)) acks.push(refusedAck(item, c, this.deps.logger));
          else throw inner;
        }
      }
      return acks;
    }
  }

  private async sendRows(client: Client, batch: readonly OutboxItem[], storeId: string): Promise<PushAck[]> {
    await client.query('BEGIN');
    let rows: { id: string; author: string; seq: string }[];
    try {
      rows = (await client.query<{ id: string; author: string; seq: string }>(PUSH_SQL, [JSON.stringify(batch.map((b) => b.row)), storeId])).rows;
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    return batch.map((b) => {
      const r = byId.get(b.memoryId);
      return { memoryId: b.memoryId, version: b.version, pushedHash: b.row.content_hash, vectorPushed: b.row.vector !== null, deleted: b.row.deleted, ...(r ? { author: r.author, seq: Number(r.seq) } : {}) };
    });
  }

  private async pullNow(): Promise<ApplySummary> {
    const { store, config, clock, jobs } = this.deps;
    const total = { inserted: 0, updated: 0, forgotten: 0, vectorsReused: 0, skipped: 0 };
    for (;;) {
      const { cursor, sharedProjects } = store.read((db) => readTeamState(db));
      if (sharedProjects.length === 0) break;
      const rows = await this.withClient(async (client) => (await client.query<RawRow>(PULL_SQL, [cursor, sharedProjects, config.pullBatch])).rows);
      if (rows.length === 0) break;
      const incoming = rows.map(toIncoming);
      const applied = await store.write('team.pull', (db) => applyPulled(db, incoming, {
        clock, jobs, embeddingModelId: this.deps.embeddingModelId, extract: this.deps.extract ?? true,
      }));
      total.inserted += applied.inserted;
      total.updated += applied.updated;
      total.forgotten += applied.forgotten;
      total.vectorsReused += applied.vectorsReused;
      total.skipped += applied.skipped;
      this.setState('connected');
      if (rows.length < config.pullBatch) break;
    }
    return total;
  }
}

interface RawRow {
  id: string; author: string; project: string; type: string; content: string; content_hash: string; tags: string | null;
  importance: number | null; confidence: number | null; created_at: string; deleted: boolean; model_id: string | null;
  dimensions: number | null; vector: Buffer | null; seq: string;
}

function toIncoming(r: RawRow): IncomingRow {
  return { ...r, vector: r.vector ? new Uint8Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength) : null, seq: Number(r.seq) };
}

function refusedAck(item: OutboxItem, code: string, logger: Logger): PushAck {
  logger.warn(`team: the server refused memory ${item.memoryId} (SQLSTATE ${code}); it stays local only.`);
  return { memoryId: item.memoryId, version: item.version, pushedHash: item.row.content_hash, vectorPushed: false, deleted: item.row.deleted, refused: true };
}

function safeLabel(connectionString: string): string | undefined {
  try { return parseConnectionString(connectionString).label; } catch { return undefined; }
}

/**
 * Team memory replication settings (docs/team.md). Everything here is the replica mode, timing and batch sizes; the
 * connection string and the shared projects live in the store (team_state), the password never
 * leaves the host's secret storage or PGPASSWORD / pgpass.
 */
export interface TeamConfig {
  /** Periodic catch-up (push and pull) even without notifications, for lost LISTEN connections. */
  readonly catchUpIntervalMs: number;
  /** A local change is pushed this long after the last one (batches bursts of remembers). */
  readonly pushDebounceMs: number;
  /** Outbox entries sent per server transaction. */
  readonly pushBatch: number;
  /** Rows fetched per pull query (each batch is one local transaction). */
  readonly pullBatch: number;
  /** Connection attempt timeout. */
  readonly connectTimeoutMs: number;
  /** First reconnect delay after the server went away; doubles up to reconnectMaxMs. */
  readonly reconnectBaseMs: number;
  readonly reconnectMaxMs: number;
  /**
   * 'full' (default): the store replicates every shared memory of its shared projects. 'partial':
   * it keeps its own memories plus the team memories it recalled; pull still advances the cursor
   * and applies changes and tombstones to rows it holds, and `recall` asks the server for the rest
   * (docs/team.md "Partial replicas").
   */
  readonly replica: TeamReplicaMode;
  /** Longest a recall waits for the team server (partial replicas); past it, local results only. */
  readonly serverRecallTimeoutMs: number;
  /** After a failed or timed-out server recall, recalls skip the server this long (doubling up to serverRecallBackoffMaxMs). */
  readonly serverRecallBackoffMs: number;
  readonly serverRecallBackoffMaxMs: number;
}

export type TeamReplicaMode = 'full' | 'partial';
export const TEAM_REPLICA_MODES: readonly TeamReplicaMode[] = ['full', 'partial'];

export const DEFAULT_TEAM_CONFIG: TeamConfig = {
  catchUpIntervalMs: 30_000,
  pushDebounceMs: 200,
  pushBatch: 500,
  pullBatch: 2_000,
  connectTimeoutMs: 10_000,
  reconnectBaseMs: 1_000,
  reconnectMaxMs: 60_000,
  replica: 'full',
  serverRecallTimeoutMs: 1_500,
  serverRecallBackoffMs: 15_000,
  serverRecallBackoffMaxMs: 300_000,
};

const clamp = (v: number | undefined, lo: number, hi: number, fallback: number): number =>
  v === undefined || !Number.isFinite(v) ? fallback : Math.min(hi, Math.max(lo, Math.round(v)));

export function resolveTeamConfig(input: Partial<TeamConfig> = {}): TeamConfig {
  const d = DEFAULT_TEAM_CONFIG;
  const reconnectBaseMs = clamp(input.reconnectBaseMs, 10, 60_000, d.reconnectBaseMs);
  const serverBackoff = clamp(input.serverRecallBackoffMs, 0, 3_600_000, d.serverRecallBackoffMs);
  return {
    catchUpIntervalMs: clamp(input.catchUpIntervalMs, 100, 3_600_000, d.catchUpIntervalMs),
    pushDebounceMs: clamp(input.pushDebounceMs, 0, 60_000, d.pushDebounceMs),
    pushBatch: clamp(input.pushBatch, 1, 5_000, d.pushBatch),
    pullBatch: clamp(input.pullBatch, 1, 20_000, d.pullBatch),
    connectTimeoutMs: clamp(input.connectTimeoutMs, 100, 120_000, d.connectTimeoutMs),
    reconnectBaseMs,
    reconnectMaxMs: clamp(input.reconnectMaxMs, reconnectBaseMs, 3_600_000, d.reconnectMaxMs),
    replica: input.replica !== undefined && TEAM_REPLICA_MODES.includes(input.replica) ? input.replica : d.replica,
    serverRecallTimeoutMs: clamp(input.serverRecallTimeoutMs, 50, 60_000, d.serverRecallTimeoutMs),
    serverRecallBackoffMs: serverBackoff,
    serverRecallBackoffMaxMs: clamp(input.serverRecallBackoffMaxMs, serverBackoff, 3_600_000, d.serverRecallBackoffMaxMs),
  };
}

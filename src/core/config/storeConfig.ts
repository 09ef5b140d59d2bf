/**
 * Typed configuration of the durable store. The defaults are chosen from the measurements
 * in bench/store.ts (docs/store.md) and of the engine (export of a 26 MB image: 9–42 ms).
 * `resolveStoreConfig` clamps user or test values into safe ranges.
 */

export type SnapshotOnClose = 'never' | 'ifDue' | 'always';

export interface StoreConfig {
  /** How long a write waits for another process's write lock before E_STORE_LOCKED. */
  readonly lockTimeoutMs: number;
  /**
   * A lock older than this is treated as abandoned even if its pid is alive (pid reuse, or a lock
   * from another host on a shared folder). Real holds last one transaction plus one fsync (ms).
   */
  readonly staleLockMs: number;
  /** A lock file still empty after this long was left by a process that died while creating it. */
  readonly emptyLockGraceMs: number;
  /** How often an idle store checks the journal for other processes' writes (bounded visibility delay). */
  readonly pollIntervalMs: number;
  /** Snapshot once this many journal records exist past the newest snapshot ... */
  readonly snapshotEveryRecords: number;
  /** ... or this many journal bytes. Bounds open time (replay) and the journal kept on disk. */
  readonly snapshotEveryBytes: number;
  /** Delay after the threshold is crossed before snapshotting, so bursts are not interrupted. */
  readonly snapshotDelayMs: number;
  /** A journal generation past this size is sealed and a new one begun (compaction unit). */
  readonly journalRotateBytes: number;
  /**
   * writeLater() writes (recall bookkeeping) wait at most this long for another write to ride
   * with, so a burst of recalls costs one journal record and one fsync instead of one each.
   */
  readonly deferredWriteMs: number;
  /** Whether close() snapshots: the CLI uses 'ifDue' (cheap for short-lived processes). */
  readonly snapshotOnClose: SnapshotOnClose;
}

export const DEFAULT_STORE_CONFIG: StoreConfig = {
  lockTimeoutMs: 15_000,
  staleLockMs: 60_000,
  emptyLockGraceMs: 2_000,
  pollIntervalMs: 500,
  // Replaying one journal record costs ~0.2–0.4 ms (an insert with its FTS5 update), so 2,000
  // records bound the replay part of open to well under a second (bench/results/store.json).
  snapshotEveryRecords: 2_000,
  snapshotEveryBytes: 2 * 1024 * 1024,
  snapshotDelayMs: 2_000,
  journalRotateBytes: 8 * 1024 * 1024,
  deferredWriteMs: 1_000,
  snapshotOnClose: 'ifDue',
};

function clamp(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

export function resolveStoreConfig(partial: Partial<StoreConfig> = {}): StoreConfig {
  const d = DEFAULT_STORE_CONFIG;
  const snapshotEveryBytes = clamp(partial.snapshotEveryBytes, d.snapshotEveryBytes, 4 * 1024, 1024 * 1024 * 1024);
  return {
    lockTimeoutMs: clamp(partial.lockTimeoutMs, d.lockTimeoutMs, 10, 10 * 60_000),
    staleLockMs: clamp(partial.staleLockMs, d.staleLockMs, 100, 24 * 3_600_000),
    emptyLockGraceMs: clamp(partial.emptyLockGraceMs, d.emptyLockGraceMs, 10, 60_000),
    pollIntervalMs: clamp(partial.pollIntervalMs, d.pollIntervalMs, 10, 60_000),
    snapshotEveryRecords: clamp(partial.snapshotEveryRecords, d.snapshotEveryRecords, 1, 10_000_000),
    snapshotEveryBytes,
    snapshotDelayMs: clamp(partial.snapshotDelayMs, d.snapshotDelayMs, 0, 600_000),
    // Rotation must leave room for snapshots to cover sealed generations.
    journalRotateBytes: Math.max(clamp(partial.journalRotateBytes, d.journalRotateBytes, 4 * 1024, 4 * 1024 * 1024 * 1024), snapshotEveryBytes),
    deferredWriteMs: clamp(partial.deferredWriteMs, d.deferredWriteMs, 0, 60_000),
    snapshotOnClose: partial.snapshotOnClose === 'never' || partial.snapshotOnClose === 'always' || partial.snapshotOnClose === 'ifDue' ? partial.snapshotOnClose : d.snapshotOnClose,
  };
}

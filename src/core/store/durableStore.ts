/**
 * The durable, multi-process MemoryStore (protocol in docs/store.md). Each process keeps the whole
 * database in memory (its Replica); the shared append-only journal of committed transactions is
 * the total order. A write takes the folder's write lock, applies what other processes appended,
 * runs its function in a transaction while recording each statement, appends + fdatasyncs the
 * record, commits in memory, releases the lock and only then resolves. Reads first apply any new
 * journal records (one fstat when there are none); an idle poll bounds how long other processes'
 * writes take to appear. Snapshots are taken off the write path and let old journal generations
 * be deleted.
 */
import { join } from 'node:path';
import type { Logger } from '../logger';
import type { StoreConfig } from '../config/storeConfig';
import { MemoryError } from '../errors';
import { assertSchemaNotNewer, readSchemaVersion } from './migrations';
import type { Migration } from './migrations';
import type { PendingWrite, Replica } from './replica';
import { installSnapshot, PREVIOUS_SNAPSHOT_FILE, writeSnapshotTemp } from './snapshotFile';
import type { SnapshotPosition } from './snapshotFile';
import { FTS_INDEXES, ftsSecureDeleteOn } from './storeChecks';
import { journalPath, listGenerations } from './journalTail';
import { fsyncDir, storeIoError } from './storeFs';
import { SnapshotKeeper } from './snapshotKeeper';
import type { SnapshotTiming } from './snapshotKeeper';
import { loadSqlEngine } from './sqlEngine';
import { StoreListeners } from './storeListeners';
import type { StoreFs } from './storeFs';
import { RecoveryLog } from './storeRecovery';
import type { StoreRecoveryReport } from './storeRecovery';
import type { Disposable, MemoryStore, SqlReader, SqlWriter, StoreChange } from './storeTypes';
import type { WriteLock } from './writeLock';

/** Writes queued in one process are committed together, up to this many per lock hold and fsync. */
export const MAX_WRITE_BATCH = 256;

export interface DurableStoreStats {
  /** Sequence number of the last journal record applied. */
  readonly appliedSeq: number;
  readonly journalGeneration: number;
  /** Byte offset reached in the current journal generation. */
  readonly journalBytes: number;
  /** Sequence covered by the newest snapshot this process knows of. */
  readonly snapshotSeq: number;
  readonly schemaVersion: number;
  /** The last snapshot this process took, if any. */
  readonly lastSnapshot: SnapshotTiming | undefined;
}

/** What a purge did (see DurableMemoryStore.purgeDeleted). */
export interface PurgeReport {
  /** Journal generations deleted (everything written before the purge). */
  readonly generationsDeleted: number;
  /** Size of the snapshot written (once; the previous snapshot is a hard link to it, or a copy). */
  readonly snapshotBytes: number;
  /** Whether this purge merged the FTS indexes (only the first purge of a store; see purgeDeleted). */
  readonly ftsOptimized: boolean;
  readonly ms: number;
}

/** The durable store: the MemoryStore contract plus recovery information and maintenance. */
export interface DurableMemoryStore extends MemoryStore {
  /**
   * Rewrites the store's files so that nothing deleted so far is left in any of them: merges the
   * FTS indexes (dropping deleted entries), seals the journal, writes the current state as both
   * the newest and the previous snapshot and deletes every older journal generation. Costs one
   * snapshot written twice (docs/store.md, "Forget means gone").
   */
  purgeDeleted(): Promise<PurgeReport>;
  /** Set when opening had to repair something (undefined after a clean open). */
  readonly recovery: StoreRecoveryReport | undefined;
  /**
   * Takes a snapshot now (normally automatic). Resolves false if an equal or newer one existed.
   * `compact`: vacuum first when the image is at least a tenth unused (maintain compact-store;
   * snapshotVacuum.ts), replacing a snapshot of the same position.
   */
  snapshot(options?: { compact?: boolean }): Promise<boolean>;
  stats(): DurableStoreStats;
}

export interface DurableParts {
  readonly dir: string;
  readonly replica: Replica;
  readonly snapshotPosition: SnapshotPosition;
  readonly lock: WriteLock;
  readonly fs: StoreFs;
  readonly logger: Logger;
  readonly config: StoreConfig;
  readonly migrations: readonly Migration[];
}

const closedError = (): MemoryError => new MemoryError('E_INTERNAL', 'The memory store is closed.');

export class DurableStore implements DurableMemoryStore {
  readonly dir: string;
  storeId = '';
  recovery: StoreRecoveryReport | undefined;
  private readonly replica: Replica;
  private pending: PendingWrite[] = [];
  /** writeLater() writes not yet handed to the flush queue (in request order). */
  private deferred: PendingWrite[] = [];
  private deferredPromises = new Set<Promise<unknown>>();
  private deferTimer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;
  private flushQueued = false;
  private repairQueued = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private readonly listeners: StoreListeners;
  private readonly keeper: SnapshotKeeper;

  constructor(private readonly p: DurableParts) {
    this.dir = p.dir;
    this.replica = p.replica;
    this.listeners = new StoreListeners(p.logger);
    this.keeper = new SnapshotKeeper({
      dir: p.dir, fs: p.fs, logger: p.logger, config: p.config, lock: p.lock, position: p.snapshotPosition,
      exclusive: (fn) => this.exclusive(fn),
      capture: (options) => this.replica.capture(options),
    });
    this.replica.onSnapshotInstalled = (position) => { this.keeper.position = position; };
  }

  read<T>(fn: (db: SqlReader) => T): T {
    this.assertOpen();
    if (this.replica.db.isBroken) this.replica.rebuild();
    this.refreshQuietly();
    return fn(this.replica.db);
  }

  write<T>(label: string, fn: (db: SqlWriter) => T): Promise<T> {
    if (this.closed) return Promise.reject(closedError());
    // Deferred writes were requested first, so they commit first (same batch, same fsync).
    this.promoteDeferred();
    const promise = new Promise<T>((resolve, reject) => {
      this.pending.push({ label, fn, resolve: resolve as (v: unknown) => void, reject });
    });
    this.scheduleFlush();
    return promise;
  }

  writeLater<T>(label: string, fn: (db: SqlWriter) => T): Promise<T> {
    if (this.closed) return Promise.reject(closedError());
    const promise = new Promise<T>((resolve, reject) => {
      this.deferred.push({ label, fn, resolve: resolve as (v: unknown) => void, reject });
    });
    const tracked = promise.catch(() => undefined);
    this.deferredPromises.add(tracked);
    void tracked.then(() => this.deferredPromises.delete(tracked));
    if (this.deferred.length >= MAX_WRITE_BATCH) this.promoteDeferred();
    else if (!this.deferTimer) {
      this.deferTimer = setTimeout(() => this.promoteDeferred(), this.p.config.deferredWriteMs);
      this.deferTimer.unref();
    }
    return promise;
  }

  async flushDeferred(): Promise<void> {
    this.promoteDeferred();
    await Promise.all([...this.deferredPromises]);
  }

  onDidChange(listener: (change: StoreChange) => void): Disposable {
    return this.listeners.add(listener);
  }

  refresh(): void {
    this.assertOpen();
    const labels = this.replica.catchUp(false);
    if (labels.length) this.listeners.fire({ external: true, labels });
  }

  snapshot(options: { compact?: boolean } = {}): Promise<boolean> {
    this.assertOpen();
    return this.keeper.take(options);
  }

  async purgeDeleted(): Promise<PurgeReport> {
    this.assertOpen();
    const started = Date.now();
    // FTS5 keeps a deleted row's entries in older index segments (behind delete markers) until they
    // are merged, unless the index's `secure-delete` option is on: then a delete removes them in
    // place. The first purge of a store merges every index once ('optimize': the markers of all
    // earlier deletes and edits go) and turns the option on; later purges have nothing to merge.
    // Journaled like any write, so every replica's indexes do the same (docs/store.md, "Forget means gone").
    const allSecure = this.read((db) => FTS_INDEXES.every(({ index }) => ftsSecureDeleteOn(db, index)));
    const ftsOptimized = allSecure ? false : await this.write('store.purge', (w) => {
      let merged = false;
      for (const { index } of FTS_INDEXES) {
        if (ftsSecureDeleteOn(w, index)) continue;
        w.run(`INSERT INTO ${index}(${index}) VALUES ('optimize')`);
        w.run(`INSERT INTO ${index}(${index}, rank) VALUES ('secure-delete', 1)`);
        merged = true;
      }
      return merged;
    });
    return this.exclusive(async () => {
      await this.p.lock.acquire();
      try {
        const external = await this.checkedCatchUp();
        if (external.length) this.listeners.fire({ external: true, labels: external });
        this.replica.rotateNow();
        const shot = this.replica.capture();
        const current = await writeSnapshotTemp(this.p.fs, this.dir, shot.image, shot.position, shot.schemaVersion);
        let previous: string | undefined;
        try {
          // The old newest snapshot (about to become the previous one) still holds what was deleted:
          // the previous snapshot becomes a second name of the new one (a hard link, no second
          // write), or a second copy where the file system has no links.
          previous = await this.secondSnapshotName(current, shot);
          installSnapshot(this.p.fs, this.dir, current);
          this.p.fs.renameSync(previous, join(this.dir, PREVIOUS_SNAPSHOT_FILE));
          fsyncDir(this.p.fs, this.dir);
        } catch (e) {
          for (const tmp of [current, previous]) if (tmp) { try { this.p.fs.unlinkSync(tmp); } catch { /* installed or gone */ } }
          throw storeIoError(e, 'purge deleted data', this.dir);
        }
        this.keeper.position = shot.position;
        let generationsDeleted = 0;
        for (const g of listGenerations(this.p.fs, this.dir)) {
          if (g >= shot.position.generation) break;
          this.p.fs.unlinkSync(journalPath(this.dir, g));
          generationsDeleted++;
        }
        return { generationsDeleted, snapshotBytes: shot.image.length, ftsOptimized, ms: Date.now() - started };
      } finally {
        this.p.lock.release();
      }
    });
  }

  /** A temp name for the purge's previous snapshot: a hard link to `current`, else a written copy. */
  private async secondSnapshotName(current: string, shot: ReturnType<Replica['capture']>): Promise<string> {
    if (this.p.fs.linkSync) {
      const link = `${current}.prev`;
      try {
        this.p.fs.linkSync(current, link);
        return link;
      } catch { /* no hard links here (FAT, some network shares): write a copy */ }
    }
    return writeSnapshotTemp(this.p.fs, this.dir, shot.image, shot.position, shot.schemaVersion);
  }

  stats(): DurableStoreStats {
    const r = this.replica;
    return {
      appliedSeq: r.appliedSeq,
      journalGeneration: r.tail.generation,
      journalBytes: r.tail.offset,
      snapshotSeq: this.keeper.position.seq,
      schemaVersion: readSchemaVersion(r.db),
      lastSnapshot: this.keeper.last,
    };
  }

  /** Starts the idle poll that bounds how long other processes' writes take to show up. */
  startPolling(): void {
    this.pollTimer = setInterval(() => this.refreshQuietly(), this.p.config.pollIntervalMs);
    this.pollTimer.unref();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.promoteDeferred();
    await this.chain;
    const policy = this.p.config.snapshotOnClose;
    if (policy === 'always' || (policy === 'ifDue' && this.keeper.isDue(this.replica.appliedSeq, this.replica.tail))) {
      try { await this.keeper.take(); } catch (e) { this.p.logger.warn(`Could not snapshot the memory store on close: ${e instanceof Error ? e.message : String(e)}`); }
    }
    await this.chain;
    this.closed = true;
    this.keeper.dispose();
    this.listeners.clear();
    this.replica.close();
  }

  /** Runs `fn` after everything this process queued before it (writes, snapshot steps). */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /**
   * Under the lock: applies other processes' records and makes sure the journal can take this
   * process's next append (docs/store.md, "Recovery"). A repair made here is reported like one made
   * at open: logged once and exposed as `store.recovery`.
   */
  private async checkedCatchUp(): Promise<string[]> {
    const log = new RecoveryLog();
    const { labels } = await this.replica.ensureConsistent(log);
    const report = log.report('running replica', 0);
    if (report) {
      this.recovery = report;
      this.p.logger.warn(report.message);
    }
    return labels;
  }

  /** A read saw the journal shrink: repair under the lock now rather than at the next write. */
  private scheduleRepair(): void {
    if (this.repairQueued) return;
    this.repairQueued = true;
    void this.exclusive(async () => {
      this.repairQueued = false;
      if (this.closed || !this.replica.suspect) return;
      await this.p.lock.acquire();
      try {
        const external = await this.checkedCatchUp();
        if (external.length) this.listeners.fire({ external: true, labels: external });
      } finally {
        this.p.lock.release();
      }
    }).catch((e: unknown) => this.p.logger.warn(`Could not repair the memory store yet: ${e instanceof Error ? e.message : String(e)}`));
  }

  /** Hands the deferred writes to the flush queue, behind what is already queued. */
  private promoteDeferred(): void {
    if (this.deferTimer) { clearTimeout(this.deferTimer); this.deferTimer = undefined; }
    if (!this.deferred.length) return;
    this.pending.push(...this.deferred.splice(0));
    this.scheduleFlush();
  }

  private refreshQuietly(): void {
    if (this.closed) return;
    if (this.replica.suspect) this.scheduleRepair();
    try {
      if (!this.replica.hasNew()) return;
      const labels = this.replica.catchUp(false);
      if (labels.length) this.listeners.fire({ external: true, labels });
    } catch (e) {
      this.p.logger.warn(`Could not read other windows' memory changes yet: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * At most one flush waits in the per-process order at a time, so other steps queued meanwhile
   * (snapshot capture and install) get their turn instead of waiting behind an endless stream of
   * writes.
   */
  private scheduleFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    void this.exclusive(() => this.flush());
  }

  private async flush(): Promise<void> {
    // Yield to the event loop once per batch: a caller awaiting writes in a tight loop would
    // otherwise run entirely in microtasks and starve timers (polling, snapshots) and I/O.
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.flushQueued = false;
    const batch = this.pending.splice(0, MAX_WRITE_BATCH);
    if (batch.length === 0) return;
    if (this.pending.length) this.scheduleFlush();
    if (this.closed) { for (const w of batch) w.reject(closedError()); return; }
    try {
      await this.p.lock.acquire();
    } catch (e) {
      for (const w of batch) w.reject(e);
      return;
    }
    const settled: (() => void)[] = [];
    const labels: string[] = [];
    try {
      if (this.replica.db.isBroken) {
        await loadSqlEngine();
        this.replica.rebuild();
      }
      const external = await this.checkedCatchUp();
      if (external.length) this.listeners.fire({ external: true, labels: external });
      assertSchemaNotNewer(this.replica.db, this.p.migrations);
      await this.replica.commitBatch(batch, settled, labels);
      this.replica.rotateIfLarge();
    } catch (e) {
      for (const w of batch) settled.push(() => w.reject(e));
    } finally {
      this.p.lock.release();
    }
    for (const s of settled) s();
    if (labels.length) {
      this.listeners.fire({ external: false, labels });
      this.keeper.scheduleIfDue(this.replica.appliedSeq, this.replica.tail);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw closedError();
  }
}

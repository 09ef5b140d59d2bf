/**
 * The durable, multi-process MemoryStore (protocol in docs/store.md). Each process keeps the whole
 * database in memory; the shared append-only journal of committed transactions is the total order.
 * A write takes the folder's write lock, applies what other processes appended, runs its function
 * in a transaction while recording each statement, appends + fdatasyncs the record, commits in
 * memory, releases the lock and only then resolves. Reads first apply any new journal records
 * (one fstat when there are none). Snapshots are taken off the write path and let old journal
 * generations be deleted.
 */
import type { Clock } from '../clock';
import { MemoryError } from '../errors';
import type { Logger } from '../logger';
import type { StoreConfig } from '../config/storeConfig';
import { countRecordsAfterDamage, encodeRecord, RECORD_HEADER_BYTES } from './journalCodec';
import type { DecodedRecord } from './journalCodec';
import { JournalTail, journalPath, listGenerations } from './journalTail';
import { assertSchemaNotNewer, latestVersion, readSchemaVersion } from './migrations';
import type { Migration } from './migrations';
import { configureConnection } from './memoryStore';
import { SqlDatabase } from './sqlDatabase';
import { createEngineDatabaseSync } from './sqlEngine';
import { loadBase } from './storeBase';
import { StoreListeners } from './storeListeners';
import { RecoveryLog } from './storeRecovery';
import type { StoreRecoveryReport } from './storeRecovery';
import { storeIoError } from './storeFs';
import type { StoreFs } from './storeFs';
import type { Disposable, MemoryStore, SqlReader, SqlWriter, StoreChange } from './storeTypes';
import { runRecorded, replayStatements } from './writeTransaction';
import type { WriteLock } from './writeLock';
import type { SnapshotPosition } from './snapshotFile';
import { SnapshotKeeper } from './snapshotKeeper';

/** Writes queued in one process are committed together, up to this many per lock hold and fsync. */
export const MAX_WRITE_BATCH = 256;

export interface DurableStoreStats {
  readonly appliedSeq: number;
  readonly journalGeneration: number;
  readonly journalBytes: number;
  readonly snapshotSeq: number;
  readonly schemaVersion: number;
}

/** The durable store: the MemoryStore contract plus recovery information and maintenance. */
export interface DurableMemoryStore extends MemoryStore {
  /** Set when opening had to repair something (undefined after a clean open). */
  readonly recovery: StoreRecoveryReport | undefined;
  /** Takes a snapshot now (normally automatic). Resolves false if a newer one already existed. */
  snapshot(): Promise<boolean>;
  stats(): DurableStoreStats;
}

interface PendingWrite {
  readonly label: string;
  readonly fn: (db: SqlWriter) => unknown;
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: unknown) => void;
}

export interface DurableParts {
  readonly dir: string;
  readonly db: SqlDatabase;
  readonly tail: JournalTail;
  readonly appliedSeq: number;
  readonly snapshotPosition: SnapshotPosition;
  readonly lock: WriteLock;
  readonly fs: StoreFs;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly config: StoreConfig;
  readonly migrations: readonly Migration[];
  readonly recoveryLog: RecoveryLog;
}

export class DurableStore implements DurableMemoryStore {
  readonly dir: string;
  storeId = '';
  recovery: StoreRecoveryReport | undefined;
  private db: SqlDatabase;
  private tail: JournalTail;
  private appliedSeq: number;
  /** A rotate record was read but its next generation file did not exist yet. */
  private pendingRotate: number | undefined;
  private pending: PendingWrite[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private readonly listeners: StoreListeners;
  private readonly keeper: SnapshotKeeper;

  constructor(private readonly p: DurableParts) {
    this.dir = p.dir;
    this.db = p.db;
    this.tail = p.tail;
    this.appliedSeq = p.appliedSeq;
    this.listeners = new StoreListeners(p.logger);
    this.keeper = new SnapshotKeeper({
      dir: p.dir, fs: p.fs, logger: p.logger, config: p.config, lock: p.lock, position: p.snapshotPosition,
      exclusive: (fn) => this.exclusive(fn),
      capture: () => this.capture(),
    });
  }

  /** Applies journal records other processes appended (no lock needed). Returns labels applied. */
  catchUp(underLock: boolean): string[] {
    const labels: string[] = [];
    let inTx = false;
    try {
      for (;;) {
        if (this.pendingRotate !== undefined) {
          const moved = this.followRotate(underLock);
          if (moved === 'wait') break;
          if (moved === 'reload') {
            if (inTx) { this.db.exec('COMMIT'); inTx = false; }
            this.reloadFromSnapshot();
            labels.push('reload');
            continue;
          }
        }
        const tail = this.tail;
        const read = tail.readNew();
        let stopAt: number | undefined = read.stop === 'end' ? undefined : read.stopOffset;
        for (const rec of read.records) {
          if (rec.seq !== this.appliedSeq + 1) { stopAt = tail.offset; break; }
          if (!inTx) { this.db.exec('BEGIN'); inTx = true; }
          this.apply(rec, labels);
          if (this.pendingRotate !== undefined) break;
        }
        if (this.pendingRotate !== undefined) continue;
        if (stopAt !== undefined && stopAt < read.size && underLock) this.repairTail(stopAt);
        break;
      }
      if (inTx) this.db.exec('COMMIT');
    } catch (e) {
      if (inTx) this.db.exec('COMMIT');
      throw e;
    }
    return labels;
  }

  read<T>(fn: (db: SqlReader) => T): T {
    this.assertOpen();
    this.refreshQuietly();
    return fn(this.db);
  }

  write<T>(label: string, fn: (db: SqlWriter) => T): Promise<T> {
    if (this.closed) return Promise.reject(new MemoryError('E_INTERNAL', 'The memory store is closed.'));
    const promise = new Promise<T>((resolve, reject) => {
      this.pending.push({ label, fn, resolve: resolve as (v: unknown) => void, reject });
    });
    void this.exclusive(() => this.flush());
    return promise;
  }

  onDidChange(listener: (change: StoreChange) => void): Disposable {
    return this.listeners.add(listener);
  }

  refresh(): void {
    this.assertOpen();
    const labels = this.catchUp(false);
    if (labels.length) this.listeners.fire({ external: true, labels });
  }

  snapshot(): Promise<boolean> {
    this.assertOpen();
    return this.keeper.take();
  }

  stats(): DurableStoreStats {
    return {
      appliedSeq: this.appliedSeq,
      journalGeneration: this.tail.generation,
      journalBytes: this.tail.offset,
      snapshotSeq: this.keeper.position.seq,
      schemaVersion: readSchemaVersion(this.db),
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
    await this.chain;
    const policy = this.p.config.snapshotOnClose;
    if (policy === 'always' || (policy === 'ifDue' && this.keeper.isDue(this.appliedSeq, this.tail))) {
      try { await this.keeper.take(); } catch (e) { this.p.logger.warn(`Could not snapshot the memory store on close: ${e instanceof Error ? e.message : String(e)}`); }
    }
    await this.chain;
    this.closed = true;
    this.keeper.dispose();
    this.listeners.clear();
    this.tail.close();
    this.db.close();
  }

  /** Runs `fn` after everything this process queued before it (writes, snapshot steps). */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private refreshQuietly(): void {
    if (this.closed) return;
    try {
      if (this.pendingRotate === undefined && !this.tail.hasNew()) return;
      const labels = this.catchUp(false);
      if (labels.length) this.listeners.fire({ external: true, labels });
    } catch (e) {
      this.p.logger.warn(`Could not read other windows' memory changes yet: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private apply(rec: DecodedRecord, labels: string[]): void {
    if (rec.payload.k === 'tx') {
      this.db.exec('SAVEPOINT am_replay');
      try {
        replayStatements(this.db, rec.payload.s);
        this.db.exec('RELEASE am_replay');
      } catch (e) {
        this.db.exec('ROLLBACK TO am_replay');
        this.db.exec('RELEASE am_replay');
        this.p.logger.error(`Journal record ${rec.seq} (${rec.payload.l}) could not be replayed and was skipped: ${e instanceof Error ? e.message : String(e)}`);
      }
      labels.push(rec.payload.l);
    } else {
      this.pendingRotate = rec.payload.g;
    }
    this.appliedSeq = rec.seq;
    this.tail.offset = rec.end;
  }

  /**
   * Moves to the generation a rotate record named: 'moved', 'wait' while it does not exist yet,
   * or 'reload' when it was already compacted away (this process lagged behind a snapshot).
   */
  private followRotate(underLock: boolean): 'moved' | 'wait' | 'reload' {
    const next = this.pendingRotate as number;
    const tail = this.tail;
    if (this.p.fs.existsSync(journalPath(this.dir, next))) {
      tail.switchTo(next);
    } else if (listGenerations(this.p.fs, this.dir).some((g) => g > next)) {
      return 'reload';
    } else if (underLock) {
      // The rotating writer died between sealing the old generation and creating the new one.
      tail.switchTo(next);
      tail.create(this.appliedSeq + 1);
    } else {
      return 'wait';
    }
    this.pendingRotate = undefined;
    return 'moved';
  }

  /** Rebuilds this process's database from the newest snapshot (after lagging behind compaction). */
  private reloadFromSnapshot(): void {
    const base = loadBase(this.p.fs, this.dir, latestVersion(this.p.migrations), new RecoveryLog());
    if (!base.image || base.position.seq < this.appliedSeq) {
      throw new MemoryError('E_STORE_CORRUPT', 'The journal this window was reading was compacted away and no newer snapshot exists; reopen the store.');
    }
    const db = new SqlDatabase(createEngineDatabaseSync(base.image));
    configureConnection(db);
    this.db.close();
    this.db = db;
    this.tail.close();
    this.tail = new JournalTail(this.p.fs, this.dir, base.position.generation, base.position.offset);
    this.appliedSeq = base.position.seq;
    this.pendingRotate = undefined;
    this.p.logger.info(`Caught up with other windows by reloading the snapshot at record ${base.position.seq}.`);
  }

  /** Under the lock a bad tail cannot be a write in progress: keep it aside and cut it off. */
  private repairTail(at: number): void {
    const tail = this.tail;
    const { savedAs, bytes } = tail.cutDamagedTail(at, Date.now());
    const log = this.p.recoveryLog;
    const complete = bytes.length >= RECORD_HEADER_BYTES && bytes.readUInt32LE(0) + RECORD_HEADER_BYTES <= bytes.length;
    if (complete) {
      const after = countRecordsAfterDamage(bytes);
      log.lostRecords += 1 + after;
      log.note(`The journal ${tail.path} had a damaged record at byte ${at}${after ? ` followed by ${after} record(s) that depend on it` : ''}; it was cut off there (a damaged last record is usually a write interrupted by a crash, never acknowledged).`);
    } else {
      log.note(`The journal ${tail.path} ended with ${bytes.length} byte(s) of an interrupted write (never acknowledged); they were cut off.`);
    }
    log.keptAside(savedAs);
    this.p.logger.warn(`Memory store journal repaired at byte ${at}; damaged bytes kept as ${savedAs}.`);
  }

  private async flush(): Promise<void> {
    // Yield to the event loop once per batch: a caller awaiting writes in a tight loop would
    // otherwise run entirely in microtasks and starve timers (polling, snapshots) and I/O.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const batch = this.pending.splice(0, MAX_WRITE_BATCH);
    if (batch.length === 0) return;
    if (this.pending.length) void this.exclusive(() => this.flush());
    if (this.closed) { for (const w of batch) w.reject(new MemoryError('E_INTERNAL', 'The memory store is closed.')); return; }
    try {
      await this.p.lock.acquire();
    } catch (e) {
      for (const w of batch) w.reject(e);
      return;
    }
    const settled: (() => void)[] = [];
    const labels: string[] = [];
    try {
      const external = this.catchUp(true);
      if (external.length) this.listeners.fire({ external: true, labels: external });
      assertSchemaNotNewer(this.db, this.p.migrations);
      this.commitBatch(batch, settled, labels);
      this.rotateIfLarge();
    } catch (e) {
      for (const w of batch) settled.push(() => w.reject(e));
    } finally {
      this.p.lock.release();
    }
    for (const s of settled) s();
    if (labels.length) {
      this.listeners.fire({ external: false, labels });
      this.keeper.scheduleIfDue(this.appliedSeq, this.tail);
    }
  }

  private commitBatch(batch: readonly PendingWrite[], settled: (() => void)[], labels: string[]): void {
    const records: Buffer[] = [];
    const ok: { w: PendingWrite; result: unknown }[] = [];
    let seq = this.appliedSeq;
    this.db.exec('BEGIN');
    for (const w of batch) {
      try {
        const out = runRecorded(this.db, w.fn);
        if (out.statements.length) {
          records.push(encodeRecord(++seq, { k: 'tx', l: w.label, s: out.statements }));
          labels.push(w.label);
        }
        ok.push({ w, result: out.result });
      } catch (e) {
        settled.push(() => w.reject(e));
      }
    }
    if (records.length) {
      try {
        if (!this.p.lock.stillHeld()) throw new MemoryError('E_STORE_LOCKED', 'Another process took over the memory store write lock; the change was not saved. Try again.');
        if (!this.tail.open()) this.tail.create(this.appliedSeq + 1);
        this.tail.append(Buffer.concat(records));
      } catch (e) {
        this.db.exec('ROLLBACK');
        labels.length = 0;
        const err = storeIoError(e, 'save a change', this.dir);
        for (const { w } of ok) settled.push(() => w.reject(err));
        return;
      }
    }
    this.db.exec('COMMIT');
    this.appliedSeq = seq;
    for (const { w, result } of ok) settled.push(() => w.resolve(result));
  }

  /** Seals a large generation with a rotate record and starts the next (under the lock). */
  private rotateIfLarge(): void {
    const tail = this.tail;
    if (tail.offset < this.p.config.journalRotateBytes) return;
    const next = tail.generation + 1;
    try {
      tail.append(encodeRecord(this.appliedSeq + 1, { k: 'rotate', g: next }));
      this.appliedSeq += 1;
      tail.switchTo(next);
      tail.create(this.appliedSeq + 1);
    } catch (e) {
      // Not fatal: the next lock holder completes a sealed-but-missing generation.
      this.p.logger.warn(`Could not rotate the memory store journal: ${e instanceof Error ? e.message : String(e)}`);
      if (tail.generation === next) this.pendingRotate = next;
    }
  }

  /** A consistent copy of the database and the journal position it covers (for snapshots). */
  private capture(): { image: Uint8Array; position: SnapshotPosition; schemaVersion: number } {
    this.catchUp(false);
    const position = { seq: this.appliedSeq, generation: this.tail.generation, offset: this.tail.offset };
    const schemaVersion = readSchemaVersion(this.db);
    const image = this.db.export();
    configureConnection(this.db);
    return { image, position, schemaVersion };
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryError('E_INTERNAL', 'The memory store is closed.');
  }
}

/**
 * This process's replica of the store: the in-memory database, its position in the shared journal
 * and the sequence of the last applied record. It applies records other processes appended
 * (catchUp), appends this process's transactions (commitBatch, under the write lock), follows and
 * performs journal rotations, repairs a damaged tail under the lock, and reloads the newest
 * snapshot if it lagged behind compaction.
 */
import type { Logger } from '../logger';
import type { StoreConfig } from '../config/storeConfig';
import { MemoryError } from '../errors';
import { countRecordsAfterDamage, encodeRecord, RECORD_HEADER_BYTES } from './journalCodec';
import type { DecodedRecord } from './journalCodec';
import { JournalTail, journalPath, listGenerations } from './journalTail';
import { latestVersion, readSchemaVersion } from './migrations';
import type { Migration } from './migrations';
import { configureConnection } from './memoryStore';
import type { SnapshotPosition } from './snapshotFile';
import { SqlDatabase } from './sqlDatabase';
import { createEngineDatabaseSync } from './sqlEngine';
import { loadBase } from './storeBase';
import { storeIoError } from './storeFs';
import type { StoreFs } from './storeFs';
import { RecoveryLog } from './storeRecovery';
import type { SqlWriter } from './storeTypes';
import type { WriteLock } from './writeLock';
import { replayStatements, runRecorded } from './writeTransaction';

export interface PendingWrite {
  readonly label: string;
  readonly fn: (db: SqlWriter) => unknown;
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: unknown) => void;
}

export interface ReplicaOptions {
  readonly dir: string;
  readonly fs: StoreFs;
  readonly logger: Logger;
  readonly config: StoreConfig;
  readonly migrations: readonly Migration[];
  readonly lock: WriteLock;
  readonly recoveryLog: RecoveryLog;
}

export class Replica {
  /** A rotate record was read but its next generation file did not exist yet. */
  private pendingRotate: number | undefined;

  constructor(private readonly p: ReplicaOptions, public db: SqlDatabase, public tail: JournalTail, public appliedSeq: number) {}

  private get dir(): string { return this.p.dir; }

  /** Cheap check (one fstat) whether catchUp has anything to do. */
  hasNew(): boolean {
    return this.pendingRotate !== undefined || this.tail.hasNew();
  }

  /** Applies journal records other processes appended (no lock needed). Returns labels applied. */
  catchUp(underLock: boolean): string[] {
    const labels: string[] = [];
    for (;;) {
      if (this.pendingRotate !== undefined) {
        const moved = this.followRotate(underLock);
        if (moved === 'wait') break;
        if (moved === 'reload') {
          this.reloadFromSnapshot();
          labels.push('reload');
          continue;
        }
      }
      const read = this.tail.readNew();
      let stopAt: number | undefined = read.stop === 'end' ? undefined : read.stopOffset;
      const usable: DecodedRecord[] = [];
      for (const rec of read.records) {
        if (rec.seq !== this.appliedSeq + 1 + usable.length) { stopAt = usable.length ? (usable[usable.length - 1] as DecodedRecord).end : this.tail.offset; break; }
        usable.push(rec);
        if (rec.payload.k === 'rotate') break;
      }
      if (usable.length) this.applyChunk(usable, labels);
      if (this.pendingRotate !== undefined) continue;
      if (stopAt !== undefined && stopAt < read.size && underLock) this.repairTail(stopAt);
      break;
    }
    return labels;
  }

  /**
   * Applies consecutive records in one transaction. Fast path without per-record savepoints
   * (replay of a committed transaction on the state it was written against cannot fail); if a
   * record fails anyway, the chunk is rolled back and re-applied record by record, skipping the
   * failing one with an error in the log.
   */
  private applyChunk(records: readonly DecodedRecord[], labels: string[]): void {
    const mark = { seq: this.appliedSeq, offset: this.tail.offset, labels: labels.length };
    this.db.exec('BEGIN');
    try {
      for (const rec of records) this.apply(rec, labels, false);
      this.db.exec('COMMIT');
      return;
    } catch {
      this.db.exec('ROLLBACK');
      this.appliedSeq = mark.seq;
      this.tail.offset = mark.offset;
      this.pendingRotate = undefined;
      labels.length = mark.labels;
    }
    this.db.exec('BEGIN');
    try {
      for (const rec of records) this.apply(rec, labels, true);
    } finally {
      this.db.exec('COMMIT');
    }
  }

  private apply(rec: DecodedRecord, labels: string[], isolated: boolean): void {
    if (rec.payload.k === 'tx') {
      if (!isolated) {
        replayStatements(this.db, rec.payload.s);
      } else {
        this.db.exec('SAVEPOINT am_replay');
        try {
          replayStatements(this.db, rec.payload.s);
          this.db.exec('RELEASE am_replay');
        } catch (e) {
          this.db.exec('ROLLBACK TO am_replay');
          this.db.exec('RELEASE am_replay');
          this.p.logger.error(`Journal record ${rec.seq} (${rec.payload.l}) could not be replayed and was skipped: ${e instanceof Error ? e.message : String(e)}`);
        }
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

  /**
   * Rebuilds the database from disk (newest valid snapshot + journal) after the engine trapped.
   * The journal is the source of truth, so nothing acknowledged is lost.
   */
  rebuild(): void {
    const base = loadBase(this.p.fs, this.dir, latestVersion(this.p.migrations), new RecoveryLog());
    const db = new SqlDatabase(createEngineDatabaseSync(base.image));
    configureConnection(db);
    try { this.db.close(); } catch { /* the broken engine may fail to close */ }
    this.db = db;
    this.tail.close();
    this.tail = new JournalTail(this.p.fs, this.dir, base.position.generation, base.position.offset);
    this.appliedSeq = base.position.seq;
    this.pendingRotate = undefined;
    this.catchUp(false);
    this.p.logger.warn(`The SQLite engine failed; the memory store was rebuilt from disk (record ${this.appliedSeq}).`);
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

  /**
   * Runs a batch of writes (caller holds the lock and has caught up): each in its own savepoint,
   * all appended as consecutive records with one fdatasync, then committed in memory. On an I/O
   * failure nothing is committed and every write of the batch is rejected with a coded error.
   */
  commitBatch(batch: readonly PendingWrite[], settled: (() => void)[], labels: string[]): void {
    const records: Buffer[] = [];
    const ok: { w: PendingWrite; result: unknown }[] = [];
    let seq = this.appliedSeq;
    this.db.exec('BEGIN');
    for (const w of batch) {
      try {
        // Encoding runs before the write's savepoint is released, so a write whose record cannot
        // be encoded (e.g. too large) is undone like one whose function threw.
        let record: Buffer | undefined;
        const out = runRecorded(this.db, w.fn, (statements) => {
          if (statements.length) record = encodeRecord(seq + 1, { k: 'tx', l: w.label, s: statements });
        });
        if (record) {
          records.push(record);
          seq++;
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
  rotateIfLarge(): void {
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
  capture(): { image: Uint8Array; position: SnapshotPosition; schemaVersion: number } {
    this.catchUp(false);
    const position = { seq: this.appliedSeq, generation: this.tail.generation, offset: this.tail.offset };
    const schemaVersion = readSchemaVersion(this.db);
    const image = this.db.export();
    configureConnection(this.db);
    return { image, position, schemaVersion };
  }

  close(): void {
    this.tail.close();
    this.db.close();
  }
}

/**
 * This process's replica of the store: the in-memory database, its position in the shared journal
 * and the sequence of the last applied record. It applies records other processes appended
 * (catchUp), appends this process's transactions (commitBatch, under the write lock), follows and
 * performs journal rotations, repairs a damaged tail under the lock, and reloads the newest
 * snapshot if it lagged behind compaction.
 */
import { join } from 'node:path';
import type { Logger } from '../logger';
import type { StoreConfig } from '../config/storeConfig';
import { MemoryError } from '../errors';
import { countRecordsAfterDamage, encodeRecord, JOURNAL_HEADER_BYTES, RECORD_HEADER_BYTES } from './journalCodec';
import type { DecodedRecord } from './journalCodec';
import { JournalTail, journalPath, listGenerations } from './journalTail';
import type { JournalProblem } from './journalTail';
import { TIP_FILE } from './journalTip';
import type { JournalTip, TipRead } from './journalTip';
import { latestVersion, readSchemaVersion } from './migrations';
import type { Migration } from './migrations';
import { configureConnection } from './memoryStore';
import { installSnapshot, readSnapshotHeader, SNAPSHOT_FILE, writeSnapshotTemp } from './snapshotFile';
import type { SnapshotPosition } from './snapshotFile';
import { engineBroken, SqlDatabase } from './sqlDatabase';
import { worthCompacting, worthVacuuming } from './snapshotVacuum';
import { createEngineDatabaseSync, engineReady } from './sqlEngine';
import { loadBase } from './storeBase';
import type { BaseState } from './storeBase';
import { damagedName, fsyncDir, storeIoError } from './storeFs';
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
  readonly tip: JournalTip;
}

/**
 * Acknowledged journal records the tip counts beyond what could be recovered, or undefined when
 * the tip is unusable. Rotate markers between the two positions are not transactions.
 */
export function acknowledgedLoss(tip: TipRead, appliedSeq: number, generation: number): number | undefined {
  if (tip.status !== 'ok') return undefined;
  const rotations = Math.max(0, tip.tip.generation - generation);
  return Math.max(0, tip.tip.seq - appliedSeq - rotations);
}

export class Replica {
  /** A rotate record was read but its next generation file did not exist yet. */
  private pendingRotate: number | undefined;
  /** A read found the journal shorter than what was applied: the next lock holder must repair. */
  suspect = false;
  /** Called after a repair installed a snapshot of this replica (the store's snapshot keeper follows it). */
  onSnapshotInstalled: ((position: SnapshotPosition) => void) | undefined;
  private tipWarned = false;
  /** Where tail repairs are reported (the open's log, then each repair's own). */
  private log: RecoveryLog;

  constructor(private readonly p: ReplicaOptions, public db: SqlDatabase, public tail: JournalTail, public appliedSeq: number) {
    this.log = p.recoveryLog;
  }

  private get dir(): string { return this.p.dir; }

  /**
   * Set while this process's own batch is being synced (commitBatch): its bytes are in the journal
   * but not applied to `offset` yet, and its transaction is open. Nobody else can append meanwhile
   * (we hold the lock), so there is nothing to catch up, and reading on would re-apply our own records.
   */
  private appending = false;

  /** Cheap check (one fstat) whether catchUp has anything to do. */
  hasNew(): boolean {
    if (this.appending) return false;
    return this.pendingRotate !== undefined || this.tail.hasNew();
  }

  /** Applies journal records other processes appended (no lock needed). Returns labels applied. */
  catchUp(underLock: boolean): string[] {
    const labels: string[] = [];
    if (this.appending) return labels;
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
      if (read.size > 0 && read.size < this.tail.offset) this.suspect = true;
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

  /**
   * Replaces this process's database and journal position with a base read from disk. The engine
   * failing to take the image (not loaded yet after a trap, or trapping again) is an engine failure.
   */
  private installBase(base: BaseState): void {
    let db: SqlDatabase;
    try {
      db = new SqlDatabase(createEngineDatabaseSync(base.image, 'take'));
    } catch (e) {
      throw engineBroken(e);
    }
    configureConnection(db);
    this.db.close();
    this.db = db;
    this.tail.close();
    this.tail = new JournalTail(this.p.fs, this.dir, base.position.generation, base.position.offset);
    this.appliedSeq = base.position.seq;
    this.pendingRotate = undefined;
  }

  /** Rebuilds this process's database from the newest snapshot (after lagging behind compaction). */
  private reloadFromSnapshot(): void {
    const base = loadBase(this.p.fs, this.dir, latestVersion(this.p.migrations), new RecoveryLog());
    if (!base.image || base.position.seq < this.appliedSeq) {
      throw new MemoryError('E_STORE_CORRUPT', 'The journal this window was reading was compacted away and no newer snapshot exists; reopen the store.');
    }
    this.installBase(base);
    this.p.logger.info(`Caught up with other windows by reloading the snapshot at record ${base.position.seq}.`);
  }

  /**
   * Rebuilds the database from disk (newest valid snapshot + journal) in the engine instance that
   * replaced the one that trapped (sqlEngine.ts). The journal is the source of truth, so nothing
   * acknowledged is lost. Until the new instance has loaded (tens of ms) it fails as the trap did.
   */
  rebuild(): void {
    if (!engineReady()) throw engineBroken();
    this.installBase(loadBase(this.p.fs, this.dir, latestVersion(this.p.migrations), new RecoveryLog()));
    this.catchUp(false);
    this.p.logger.warn(`The SQLite engine failed; the memory store was rebuilt from disk (record ${this.appliedSeq}).`);
  }

  /** Under the lock a bad tail cannot be a write in progress: keep it aside and cut it off. */
  private repairTail(at: number): void {
    const tail = this.tail;
    const { savedAs, bytes } = tail.cutDamagedTail(at, Date.now());
    const log = this.log;
    const complete = bytes.length >= RECORD_HEADER_BYTES && bytes.readUInt32LE(0) + RECORD_HEADER_BYTES <= bytes.length;
    // Without a usable tip these counts are all there is (the tip, when present, replaces them).
    log.heuristicLost += complete ? 1 + countRecordsAfterDamage(bytes) : 0;
    log.note(`The journal ${tail.path} had ${bytes.length} damaged or incomplete byte(s) from byte ${at} on (after record ${this.appliedSeq}); they were cut off.`);
    log.keptAside(savedAs);
    this.p.logger.debug(`Memory store journal repaired at byte ${at}; damaged bytes kept as ${savedAs}.`);
  }

  /** Records the acknowledged end of the journal (after an append's fdatasync, under the lock). */
  private writeTip(): void {
    try {
      this.p.tip.write({ seq: this.appliedSeq, generation: this.tail.generation, offset: this.tail.offset });
    } catch (e) {
      // The records are durable already; only future loss reports get less exact.
      if (!this.tipWarned) this.p.logger.warn(`Could not update the memory store journal tip ${this.p.tip.path}: ${e instanceof Error ? e.message : String(e)}`);
      this.tipWarned = true;
    }
  }

  /**
   * Makes the journal safe to append to (caller holds the lock): checks the generation this
   * replica reads against its position, rebuilds a damaged header, cuts a damaged tail, compares
   * the result with the journal tip to count lost acknowledged records exactly, and when the
   * generation cannot be continued (missing, replaced, shorter than what was applied, unreadable)
   * snapshots this replica's state into a fresh generation and sets the damaged ones aside.
   * Returns true when it changed anything on disk. Never appends into a damaged generation.
   */
  async ensureConsistent(log: RecoveryLog): Promise<{ changed: boolean; labels: string[] }> {
    const tip = this.p.tip.read();
    let problem = this.inspectAndFollow();
    if (problem?.kind === 'header') {
      const savedAs = this.tail.rebuildHeader(Date.now());
      if (savedAs) {
        log.note(`${problem.detail}; it was rebuilt from the file name and its first record (the original was kept).`);
        log.keptAside(savedAs);
        problem = this.inspectAndFollow();
      }
    }
    const notesBefore = log.notes.length;
    let labels: string[] = [];
    if (!problem) {
      this.log = log;
      labels = this.catchUp(true);
      problem = this.inspectAndFollow();
    }
    const repairedTail = log.notes.length > notesBefore;
    const loss = acknowledgedLoss(tip, this.appliedSeq, this.tail.generation);
    let changed = repairedTail;
    if (problem) log.note(`${problem.detail}.`);
    if (loss !== undefined && loss > 0) {
      log.lostRecords += loss;
      const t = (tip as { tip: { seq: number } }).tip;
      log.note(`The journal tip records ${t.seq} as the last acknowledged record, but only records up to ${this.appliedSeq} could be recovered.`);
    } else if (loss === 0 && repairedTail) {
      log.note('The journal tip confirms the cut bytes were a write interrupted before it was acknowledged.');
    } else if (loss === undefined && (problem || repairedTail)) {
      log.lossUnknown = tip.status === 'missing' ? 'the journal tip file is missing' : `the journal tip is damaged (${(tip as { reason: string }).reason})`;
      log.lostRecords += log.heuristicLost;
    }
    if (problem) {
      await this.restartJournal(log);
      changed = true;
    }
    if (tip.status === 'damaged') {
      this.setTipAside(tip.reason, log);
      changed = true;
    }
    if (changed || tip.status !== 'ok' || tip.tip.seq !== this.appliedSeq) {
      this.p.tip.writeSynced({ seq: this.appliedSeq, generation: this.tail.generation, offset: this.tail.offset });
    }
    this.suspect = false;
    return { changed, labels };
  }

  /** Read-only check of the journal against this replica's position (see ensureConsistent). */
  inspect(): JournalProblem | undefined {
    return this.inspectAndFollow();
  }

  /** tail.inspect(), after following a rotation or a repair another process made (a newer generation that continues this one). */
  private inspectAndFollow(): JournalProblem | undefined {
    const problem = this.tail.inspect(this.appliedSeq + 1);
    if (problem?.kind !== 'missing') return problem;
    if (this.tail.generation === 1 && this.appliedSeq === 0 && listGenerations(this.p.fs, this.dir).length === 0) {
      // A new store (the first write creates the journal), unless the tip remembers records.
      const tip = this.p.tip.read();
      return tip.status === 'ok' && tip.tip.seq > 0 ? problem : undefined;
    }
    const later = listGenerations(this.p.fs, this.dir).filter((g) => g > this.tail.generation);
    for (const g of later) {
      const probe = new JournalTail(this.p.fs, this.dir, g, 0);
      let first: number | undefined;
      try { first = probe.firstSeq(); } catch { first = undefined; } finally { probe.close(); }
      if (first === this.appliedSeq + 1) {
        this.tail.close();
        this.tail = new JournalTail(this.p.fs, this.dir, g, 0);
        this.pendingRotate = undefined;
        return this.tail.inspect(this.appliedSeq + 1);
      }
    }
    if (this.pendingRotate !== undefined) return undefined;
    // Another process purged (sealed the journal, wrote a newer snapshot, deleted the old
    // generations) since this replica loaded its base: that is lag, not damage.
    const newest = readSnapshotHeader(this.p.fs, join(this.dir, SNAPSHOT_FILE));
    if (newest && newest.seq > this.appliedSeq && listGenerations(this.p.fs, this.dir).includes(newest.generation)) {
      this.reloadFromSnapshot();
      return this.tail.inspect(this.appliedSeq + 1);
    }
    return problem;
  }

  /**
   * Starts a fresh journal generation from this replica's state (caller holds the lock): a
   * snapshot of the state at the new generation's start is written first, then the generation
   * is created, the snapshot installed, and the damaged generations set aside. A crash at any
   * point leaves either the old state (repaired again on the next open) or the new one.
   */
  private async restartJournal(log: RecoveryLog): Promise<void> {
    const existing = listGenerations(this.p.fs, this.dir);
    const from = this.tail.generation;
    const next = Math.max(from, ...existing) + 1;
    const position: SnapshotPosition = { seq: this.appliedSeq, generation: next, offset: JOURNAL_HEADER_BYTES };
    const image = this.db.export();
    configureConnection(this.db);
    const tmp = await writeSnapshotTemp(this.p.fs, this.dir, image, position, readSchemaVersion(this.db));
    this.tail.close();
    this.tail = new JournalTail(this.p.fs, this.dir, next, JOURNAL_HEADER_BYTES);
    this.tail.create(this.appliedSeq + 1);
    this.pendingRotate = undefined;
    installSnapshot(this.p.fs, this.dir, tmp);
    this.onSnapshotInstalled?.(position);
    const now = Date.now();
    for (const g of existing.filter((x) => x >= from && x < next)) {
      const path = journalPath(this.dir, g);
      const aside = damagedName(path, now);
      this.p.fs.renameSync(path, aside);
      log.keptAside(aside);
    }
    const stray = journalPath(this.dir, from);
    if (!existing.includes(from) && this.p.fs.existsSync(stray)) {
      // A directory (or other non-journal) in the generation's place.
      const aside = damagedName(stray, now);
      this.p.fs.renameSync(stray, aside);
      log.keptAside(aside);
    }
    fsyncDir(this.p.fs, this.dir);
    log.note(`The store continues from record ${this.appliedSeq} in a new journal ${this.tail.path}, with a fresh snapshot of that state.`);
  }

  private setTipAside(reason: string, log: RecoveryLog): void {
    const path = this.p.tip.path;
    this.p.tip.close();
    if (reason === 'it is a directory') {
      const aside = damagedName(path, Date.now());
      this.p.fs.renameSync(path, aside);
      log.keptAside(aside);
    }
    log.note(`The journal tip ${TIP_FILE} was damaged (${reason}) and was rewritten.`);
  }

  /**
   * Runs a batch of writes (caller holds the lock and has caught up): each in its own savepoint,
   * all appended as consecutive records with one fdatasync, then committed in memory. On an I/O
   * failure nothing is committed and every write of the batch is rejected with a coded error.
   * The fdatasync runs off the thread (JournalTail.appendDurably): reads answered meanwhile see the
   * batch's open transaction (this process only; it is rolled back if the sync fails), and the
   * writes still resolve only once their record is durable.
   */
  async commitBatch(batch: readonly PendingWrite[], settled: (() => void)[], labels: string[]): Promise<void> {
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
        this.appending = true;
        try {
          await this.tail.appendDurably(Buffer.concat(records));
        } finally {
          this.appending = false;
        }
        this.appliedSeq = seq;
        this.writeTip();
      } catch (e) {
        this.db.exec('ROLLBACK');
        labels.length = 0;
        const err = storeIoError(e, 'save a change', this.dir);
        for (const { w } of ok) settled.push(() => w.reject(err));
        return;
      }
    }
    this.db.exec('COMMIT');
    for (const { w, result } of ok) settled.push(() => w.resolve(result));
  }

  /** Seals a large generation with a rotate record and starts the next (under the lock). */
  rotateIfLarge(): void {
    if (this.tail.offset < this.p.config.journalRotateBytes) return;
    this.rotate();
  }

  /** Seals the current generation now (under the lock); a purge then deletes the sealed ones. */
  rotateNow(): void {
    if (!this.tail.open()) this.tail.create(this.appliedSeq + 1);
    const generation = this.tail.generation;
    this.rotate();
    if (this.tail.generation === generation || this.pendingRotate !== undefined) throw new MemoryError('E_STORE_IO', 'Could not start a new journal generation; the store was not purged.');
  }

  private rotate(): void {
    const tail = this.tail;
    const next = tail.generation + 1;
    try {
      tail.append(encodeRecord(this.appliedSeq + 1, { k: 'rotate', g: next }));
      this.appliedSeq += 1;
      tail.switchTo(next);
      tail.create(this.appliedSeq + 1);
      this.writeTip();
    } catch (e) {
      // Not fatal: the next lock holder completes a sealed-but-missing generation.
      this.p.logger.warn(`Could not rotate the memory store journal: ${e instanceof Error ? e.message : String(e)}`);
      if (tail.generation === next) this.pendingRotate = next;
    }
  }

  /**
   * A consistent copy of the database and the journal position it covers (for snapshots). The
   * database is vacuumed first when free pages make up VACUUM_FREE_FRACTION of it (after pruning;
   * a snapshot would otherwise carry them: docs/store.md, "Snapshots and compaction"). With
   * `compact` (an explicit compaction) it also vacuums when a VACUUM would give back at least
   * COMPACT_RECLAIMABLE_FRACTION of the exported image (half-empty pages included), and exports again.
   */
  capture(options: { compact?: boolean } = {}): { image: Uint8Array; position: SnapshotPosition; schemaVersion: number; vacuumed: boolean } {
    this.catchUp(false);
    const position = { seq: this.appliedSeq, generation: this.tail.generation, offset: this.tail.offset };
    const schemaVersion = readSchemaVersion(this.db);
    let vacuumed = worthVacuuming(this.db);
    if (vacuumed) this.db.vacuum();
    let image = this.db.export();
    configureConnection(this.db);
    if (!vacuumed && options.compact && worthCompacting(this.db, image)) {
      this.db.vacuum();
      image = this.db.export();
      configureConnection(this.db);
      vacuumed = true;
    }
    return { image, position, schemaVersion, vacuumed };
  }

  close(): void {
    this.tail.close();
    this.p.tip.close();
    this.db.close();
  }
}


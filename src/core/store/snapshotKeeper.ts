/**
 * Snapshot policy and mechanics for one durable store process: decides when a snapshot is due,
 * captures the database between transactions, writes the file off the write path, installs it
 * under the write lock (only if newer than what is there) and then deletes journal generations
 * the previous snapshot fully covers, plus temp files of dead processes.
 */
import { join } from 'node:path';
import type { Logger } from '../logger';
import type { StoreConfig } from '../config/storeConfig';
import { journalPath, listGenerations } from './journalTail';
import type { JournalTail } from './journalTail';
import { installSnapshot, PREVIOUS_SNAPSHOT_FILE, readSnapshotHeader, SNAPSHOT_FILE, writeSnapshotTemp } from './snapshotFile';
import type { SnapshotPosition } from './snapshotFile';
import { errnoCode, storeIoError } from './storeFs';
import type { StoreFs } from './storeFs';
import type { WriteLock } from './writeLock';

/** Temp files of a snapshot or journal generation being created, named with the creator's pid. */
const TEMP_FILE = /^(?:snapshot\.amsnap\.(\d+)\.[0-9a-f]+\.tmp|journal\.\d{8}\.(\d+)\.new)$/;

export interface SnapshotKeeperOptions {
  readonly dir: string;
  readonly fs: StoreFs;
  readonly logger: Logger;
  readonly config: StoreConfig;
  readonly lock: WriteLock;
  readonly position: SnapshotPosition;
  /** Runs a step in the store's per-process order (between transactions). */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T>;
  /** `compact`: vacuum when a tenth of the image is reclaimable (replica.ts capture); `vacuumed` says whether it did. */
  capture(options: { compact?: boolean }): { image: Uint8Array; position: SnapshotPosition; schemaVersion: number; vacuumed?: boolean };
}

function pidAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return errnoCode(e) === 'EPERM'; }
}

/** Timing of the last snapshot this process installed (the capture blocks the thread; the rest does not). */
export interface SnapshotTiming {
  readonly seq: number;
  readonly bytes: number;
  /** Catch-up + export of the database: the only part that blocks the thread. */
  readonly captureMs: number;
  /** From the start to the installed file (includes waiting for the lock and the fsyncs). */
  readonly totalMs: number;
}

export class SnapshotKeeper {
  position: SnapshotPosition;
  last: SnapshotTiming | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<boolean> | undefined;

  constructor(private readonly o: SnapshotKeeperOptions) {
    this.position = o.position;
  }

  /** Due when enough journal (records or bytes) has accumulated past the newest snapshot. */
  isDue(appliedSeq: number, tail: JournalTail): boolean {
    const onDisk = readSnapshotHeader(this.o.fs, join(this.o.dir, SNAPSHOT_FILE));
    if (onDisk && onDisk.seq > this.position.seq) this.position = onDisk;
    const records = appliedSeq - this.position.seq;
    if (records <= 0) return false;
    const bytes = tail.generation === this.position.generation
      ? tail.offset - this.position.offset
      : tail.offset + (tail.generation - this.position.generation) * this.o.config.journalRotateBytes;
    return records >= this.o.config.snapshotEveryRecords || bytes >= this.o.config.snapshotEveryBytes;
  }

  scheduleIfDue(appliedSeq: number, tail: JournalTail): void {
    if (this.timer || this.running) return;
    const records = appliedSeq - this.position.seq;
    // Cheap pre-check before reading the header from disk.
    if (records < this.o.config.snapshotEveryRecords && (tail.generation === this.position.generation && tail.offset - this.position.offset < this.o.config.snapshotEveryBytes)) return;
    if (!this.isDue(appliedSeq, tail)) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.take().catch((e: unknown) => this.o.logger.warn(`Memory store snapshot failed (the journal still holds everything): ${e instanceof Error ? e.message : String(e)}`));
    }, this.o.config.snapshotDelayMs);
    this.timer.unref();
  }

  /**
   * Takes a snapshot now; resolves false when an equal or newer one was already installed. With
   * `compact` (maintain compact-store) the capture may vacuum first, and a vacuumed image replaces
   * a snapshot of the same position (same rows, fewer pages); a compaction asked for while a plain
   * snapshot runs waits for it and then runs.
   */
  take(options: { compact?: boolean } = {}): Promise<boolean> {
    if (this.running && options.compact) return this.running.then(() => this.take(options));
    if (!this.running) {
      this.running = this.run(options.compact === true).finally(() => { this.running = undefined; });
    }
    return this.running;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async run(compact: boolean): Promise<boolean> {
    const started = Date.now();
    let captureMs = 0;
    const shot = await this.o.exclusive(() => {
      const t = Date.now();
      const captured = this.o.capture({ compact });
      captureMs = Date.now() - t;
      return captured;
    });
    // A compaction that vacuumed replaces a snapshot of the same position; anything else must be newer.
    const replacesSame = compact && shot.vacuumed === true;
    if (shot.position.seq < this.position.seq || (shot.position.seq === this.position.seq && !replacesSame)) return false;
    let tmp: string;
    try {
      tmp = await writeSnapshotTemp(this.o.fs, this.o.dir, shot.image, shot.position, shot.schemaVersion);
    } catch (e) {
      throw storeIoError(e, 'write a snapshot', this.o.dir);
    }
    return this.o.exclusive(async () => {
      await this.o.lock.acquire();
      try {
        const current = readSnapshotHeader(this.o.fs, join(this.o.dir, SNAPSHOT_FILE));
        if (current && (current.seq > shot.position.seq || (current.seq === shot.position.seq && !replacesSame))) {
          this.o.fs.unlinkSync(tmp);
          if (current.seq > this.position.seq) this.position = current;
          return false;
        }
        installSnapshot(this.o.fs, this.o.dir, tmp);
        this.position = shot.position;
        this.compact();
      } catch (e) {
        try { this.o.fs.unlinkSync(tmp); } catch { /* already renamed or gone */ }
        throw storeIoError(e, 'install a snapshot', this.o.dir);
      } finally {
        this.o.lock.release();
      }
      this.last = { seq: shot.position.seq, bytes: shot.image.length, captureMs, totalMs: Date.now() - started };
      this.o.logger.debug(`Memory store snapshot at record ${shot.position.seq}: ${shot.image.length} bytes, capture ${captureMs} ms, total ${this.last.totalMs} ms.`);
      return true;
    });
  }

  /** Deletes generations older than the previous snapshot's, and temp files of dead processes. */
  private compact(): void {
    const previous = readSnapshotHeader(this.o.fs, join(this.o.dir, PREVIOUS_SNAPSHOT_FILE));
    if (previous) {
      for (const g of listGenerations(this.o.fs, this.o.dir)) {
        if (g >= previous.generation) break;
        try { this.o.fs.unlinkSync(journalPath(this.o.dir, g)); } catch (e) { this.o.logger.warn(`Could not delete an old journal generation: ${String(e)}`); }
      }
    }
    for (const f of this.o.fs.readdirSync(this.o.dir)) {
      const m = TEMP_FILE.exec(f);
      const pid = m ? Number(m[1] ?? m[2]) : undefined;
      if (pid !== undefined && pid !== process.pid && !pidAlive(pid)) {
        try { this.o.fs.unlinkSync(join(this.o.dir, f)); } catch { /* another process cleaned it */ }
      }
    }
  }
}

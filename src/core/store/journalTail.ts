/**
 * One process's position in the shared journal: the generation file it is reading, its open fd and
 * the byte offset just past the last record it applied. Reading never needs the lock (records are
 * only ever appended whole, under the lock, and verified by checksum); appending, creating a
 * generation and cutting a damaged tail do.
 */
import { join } from 'node:path';
import { MemoryError } from '../errors';
import { decodeHeader, encodeHeader, JOURNAL_FORMAT, JOURNAL_HEADER_BYTES, scanRecords } from './journalCodec';
import type { DecodedRecord, ScanStop } from './journalCodec';
import { damagedName, errnoCode, fsyncDir, readAt, writeFully } from './storeFs';
import type { StoreFs } from './storeFs';

const JOURNAL_FILE = /^journal\.(\d{8})$/;

export function journalPath(dir: string, generation: number): string {
  return join(dir, `journal.${String(generation).padStart(8, '0')}`);
}

/** Generations present in the folder, ascending. */
export function listGenerations(sfs: StoreFs, dir: string): number[] {
  return sfs.readdirSync(dir).map((f) => JOURNAL_FILE.exec(f)?.[1]).filter((g): g is string => g !== undefined).map(Number).sort((a, b) => a - b);
}

/** Why the journal generation a replica reads cannot be continued (see docs/store.md, fault table). */
export interface JournalProblem {
  readonly kind: 'missing' | 'unreadable' | 'header' | 'replaced' | 'short';
  readonly detail: string;
}

export interface ReadResult {
  readonly records: readonly DecodedRecord[];
  readonly stop: ScanStop;
  readonly stopOffset: number;
  readonly size: number;
}

export class JournalTail {
  private fd: number | undefined;

  constructor(private readonly sfs: StoreFs, private readonly dir: string, public generation: number, public offset: number) {}

  get path(): string { return journalPath(this.dir, this.generation); }

  /** Opens the current generation if it exists. Returns false while it does not exist yet. */
  open(): boolean {
    if (this.fd !== undefined) return true;
    let fd: number;
    try {
      fd = this.sfs.openSync(this.path, 'r+');
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') return false;
      throw e;
    }
    const header = decodeHeader(readAt(this.sfs, fd, 0, JOURNAL_HEADER_BYTES));
    if (!header) {
      this.sfs.closeSync(fd);
      throw new MemoryError('E_STORE_CORRUPT', `The memory store journal ${this.path} has a damaged header.`);
    }
    if (header.format > JOURNAL_FORMAT) {
      this.sfs.closeSync(fd);
      throw new MemoryError('E_STORE_NEWER_SCHEMA', `The memory store journal ${this.path} was written by a newer version of Agent Memory (format ${header.format}). Update the extension or CLI; the store was left untouched.`);
    }
    this.fd = fd;
    if (this.offset < JOURNAL_HEADER_BYTES) this.offset = JOURNAL_HEADER_BYTES;
    return true;
  }

  /**
   * Checks that the current generation can be continued from this replica's position: it exists,
   * is a readable file with a valid header of this generation that starts at or before
   * `nextSeq`, and is at least as long as the offset already applied. With the file already open,
   * also that the path still names the same file (not deleted or replaced since). Cheap when open
   * (one fstat, one stat), so the write path runs it under the lock before every append.
   */
  inspect(nextSeq: number): JournalProblem | undefined {
    const name = this.path;
    let st: { size: number; ino: number; isDirectory(): boolean };
    try {
      st = this.sfs.statSync(name);
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') return { kind: 'missing', detail: `The journal ${name} is missing` };
      return { kind: 'unreadable', detail: `The journal ${name} cannot be read (${errnoCode(e) ?? String(e)})` };
    }
    if (st.isDirectory()) return { kind: 'unreadable', detail: `The journal ${name} is a directory, not a file` };
    if (this.fd !== undefined) {
      const own = this.sfs.fstatSync(this.fd);
      if (own.ino !== st.ino) {
        this.closeFd();
        return this.inspect(nextSeq);
      }
      if (own.size < this.offset) return { kind: 'short', detail: `The journal ${name} shrank to ${own.size} bytes, below the ${this.offset} bytes already applied` };
      return undefined;
    }
    let fd: number;
    try {
      fd = this.sfs.openSync(name, 'r+');
    } catch (e) {
      return { kind: 'unreadable', detail: `The journal ${name} cannot be opened (${errnoCode(e) ?? String(e)})` };
    }
    try {
      const header = decodeHeader(readAt(this.sfs, fd, 0, JOURNAL_HEADER_BYTES));
      if (!header) return { kind: 'header', detail: `The journal ${name} has a damaged header` };
      if (header.format > JOURNAL_FORMAT) return undefined; // open() refuses it with E_STORE_NEWER_SCHEMA, untouched
      if (header.generation !== this.generation) return { kind: 'replaced', detail: `The journal ${name} is a copy of generation ${header.generation}, not ${this.generation}` };
      if (header.firstSeq > nextSeq) return { kind: 'replaced', detail: `The journal ${name} starts at record ${header.firstSeq}, after record ${nextSeq} that comes next` };
      const size = this.sfs.fstatSync(fd).size;
      if (size < this.offset) return { kind: 'short', detail: `The journal ${name} is ${size} bytes long, shorter than the ${this.offset} bytes the snapshot already covers` };
      return undefined;
    } finally {
      this.sfs.closeSync(fd);
    }
  }

  /**
   * Rewrites a damaged header from the file's name and its first record (caller holds the lock),
   * after copying the file aside. Returns the copy's path, or undefined when the first record is
   * not readable either (then the generation cannot be trusted at all).
   */
  rebuildHeader(nowMs: number): string | undefined {
    const fd = this.sfs.openSync(this.path, 'r+');
    try {
      const size = this.sfs.fstatSync(fd).size;
      const first = scanRecords(readAt(this.sfs, fd, JOURNAL_HEADER_BYTES, Math.max(0, size - JOURNAL_HEADER_BYTES)), JOURNAL_HEADER_BYTES).records[0];
      if (!first) return undefined;
      const savedAs = damagedName(this.path, nowMs);
      this.sfs.copyFileSync(this.path, savedAs);
      writeFully(this.sfs, fd, encodeHeader({ format: JOURNAL_FORMAT, generation: this.generation, firstSeq: first.seq }), 0);
      this.sfs.fdatasyncSync(fd);
      fsyncDir(this.sfs, this.dir);
      return savedAs;
    } finally {
      this.sfs.closeSync(fd);
    }
  }

  firstSeq(): number | undefined {
    if (!this.open() || this.fd === undefined) return undefined;
    return decodeHeader(readAt(this.sfs, this.fd, 0, JOURNAL_HEADER_BYTES))?.firstSeq;
  }

  size(): number {
    return this.fd === undefined ? 0 : this.sfs.fstatSync(this.fd).size;
  }

  /** Cheap check: has anything been appended past our offset? */
  hasNew(): boolean {
    if (!this.open()) return false;
    return this.size() > this.offset;
  }

  /** Decodes the complete, valid records past the offset (does not move the offset). */
  readNew(): ReadResult {
    if (!this.open() || this.fd === undefined) return { records: [], stop: 'end', stopOffset: this.offset, size: 0 };
    const size = this.size();
    if (size <= this.offset) return { records: [], stop: 'end', stopOffset: this.offset, size };
    const buf = readAt(this.sfs, this.fd, this.offset, size - this.offset);
    return { ...scanRecords(buf, this.offset), size };
  }

  /** Bytes from `from` to the end (for keeping a damaged tail aside). */
  bytesFrom(from: number): Buffer {
    if (this.fd === undefined) return Buffer.alloc(0);
    return readAt(this.sfs, this.fd, from, Math.max(0, this.size() - from));
  }

  /** Moves to the next generation (after its rotate record). */
  switchTo(generation: number): void {
    this.closeFd();
    this.generation = generation;
    this.offset = JOURNAL_HEADER_BYTES;
  }

  /**
   * Creates the current generation file (caller holds the lock): the header goes to a temp file
   * that is synced and renamed into place, so a crash never leaves a generation without a header.
   */
  create(firstSeq: number): void {
    this.closeFd();
    const tmp = `${this.path}.${process.pid}.new`;
    const fd = this.sfs.openSync(tmp, 'w', 0o644);
    try {
      writeFully(this.sfs, fd, encodeHeader({ format: JOURNAL_FORMAT, generation: this.generation, firstSeq }), 0);
      this.sfs.fsyncSync(fd);
    } catch (e) {
      this.sfs.closeSync(fd);
      try { this.sfs.unlinkSync(tmp); } catch { /* best effort */ }
      throw e;
    }
    this.sfs.closeSync(fd);
    this.sfs.renameSync(tmp, this.path);
    fsyncDir(this.sfs, this.dir);
    this.offset = JOURNAL_HEADER_BYTES;
    if (!this.open()) throw new MemoryError('E_STORE_IO', `The journal ${this.path} vanished right after it was created.`);
  }

  /**
   * Appends whole records at the end and makes them durable like append(), but the fdatasync runs
   * off the thread (StoreFs.fdatasync), so the process keeps answering reads while the disk syncs
   * (caller holds the lock; docs/store.md "Write path"). The offset moves only once the data is
   * durable; on failure the bytes are cut again.
   */
  async appendDurably(data: Uint8Array): Promise<void> {
    if (this.fd === undefined) throw new MemoryError('E_INTERNAL', 'The journal is not open.');
    const fd = this.fd;
    try {
      writeFully(this.sfs, fd, data, this.offset);
      await this.sfs.fdatasync(fd);
    } catch (e) {
      try { this.sfs.ftruncateSync(fd, this.offset); } catch { /* the next lock holder cuts the torn tail */ }
      throw e;
    }
    this.offset += data.length;
  }

  /** Appends whole records at the end and makes them durable (caller holds the lock). */
  append(data: Uint8Array): void {
    if (this.fd === undefined) throw new MemoryError('E_INTERNAL', 'The journal is not open.');
    try {
      writeFully(this.sfs, this.fd, data, this.offset);
      this.sfs.fdatasyncSync(this.fd);
    } catch (e) {
      // Remove whatever part reached the file so the next writer finds a clean end.
      try { this.sfs.ftruncateSync(this.fd, this.offset); } catch { /* the next lock holder cuts the torn tail */ }
      throw e;
    }
    this.offset += data.length;
  }

  /**
   * Cuts the file at `at` after saving the bytes past it to a timestamped file next to it (caller
   * holds the lock). Returns the saved file's path.
   */
  cutDamagedTail(at: number, nowMs: number): { savedAs: string; bytes: Buffer } {
    if (this.fd === undefined) throw new MemoryError('E_INTERNAL', 'The journal is not open.');
    const bytes = this.bytesFrom(at);
    const savedAs = damagedName(this.path, nowMs);
    const fd = this.sfs.openSync(savedAs, 'wx', 0o644);
    try {
      writeFully(this.sfs, fd, bytes, 0);
      this.sfs.fsyncSync(fd);
    } finally {
      this.sfs.closeSync(fd);
    }
    this.sfs.ftruncateSync(this.fd, at);
    this.sfs.fdatasyncSync(this.fd);
    fsyncDir(this.sfs, this.dir);
    this.offset = at;
    return { savedAs, bytes };
  }

  close(): void { this.closeFd(); }

  private closeFd(): void {
    if (this.fd !== undefined) {
      try { this.sfs.closeSync(this.fd); } catch { /* already closed */ }
      this.fd = undefined;
    }
  }
}

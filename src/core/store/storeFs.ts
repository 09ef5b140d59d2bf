/**
 * The file operations the durable store uses, as one injectable object. Production passes node:fs;
 * tests wrap it to inject faults (ENOSPC, EROFS) that cannot be produced for real as root or
 * without a full disk. Every call is synchronous except the bulk snapshot write and `fdatasync`
 * (a journal append's sync runs on libuv's thread pool, so the thread keeps answering reads).
 */
import * as fs from 'node:fs';
import { MemoryError } from '../errors';

export interface StoreFs {
  mkdirSync(path: string, options: { recursive: true }): void;
  accessSync(path: string, mode: number): void;
  openSync(path: string, flags: string, mode?: number): number;
  closeSync(fd: number): void;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  fstatSync(fd: number): { size: number; ino: number };
  statSync(path: string): { size: number; mtimeMs: number; ino: number; isDirectory(): boolean };
  fdatasyncSync(fd: number): void;
  /** fdatasync off the calling thread (libuv's pool): resolves when the data is durable. */
  fdatasync(fd: number): Promise<void>;
  fsyncSync(fd: number): void;
  ftruncateSync(fd: number, length: number): void;
  renameSync(from: string, to: string): void;
  unlinkSync(path: string): void;
  existsSync(path: string): boolean;
  readdirSync(path: string): string[];
  readFileSync(path: string): Buffer;
  copyFileSync(from: string, to: string): void;
  /** A second name for an existing file (a hard link); optional: without it a purge writes a copy. */
  linkSync?(existing: string, newPath: string): void;
  /** Creates `path` (must not exist), writes the chunks and fsyncs it, without blocking the thread. */
  writeNewFileSynced(path: string, chunks: readonly Uint8Array[]): Promise<void>;
}

export const nodeStoreFs: StoreFs = {
  mkdirSync: (p, o) => { fs.mkdirSync(p, o); },
  accessSync: (p, m) => fs.accessSync(p, m),
  openSync: (p, f, m) => fs.openSync(p, f, m),
  closeSync: (fd) => fs.closeSync(fd),
  readSync: (fd, b, o, l, p) => fs.readSync(fd, b, o, l, p),
  writeSync: (fd, b, o, l, p) => fs.writeSync(fd, b, o, l, p),
  fstatSync: (fd) => fs.fstatSync(fd),
  statSync: (p) => fs.statSync(p),
  fdatasyncSync: (fd) => fs.fdatasyncSync(fd),
  fdatasync: (fd) => new Promise<void>((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve()))),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  ftruncateSync: (fd, l) => fs.ftruncateSync(fd, l),
  renameSync: (a, b) => fs.renameSync(a, b),
  unlinkSync: (p) => fs.unlinkSync(p),
  existsSync: (p) => fs.existsSync(p),
  readdirSync: (p) => fs.readdirSync(p),
  readFileSync: (p) => fs.readFileSync(p),
  copyFileSync: (a, b) => fs.copyFileSync(a, b),
  linkSync: (a, b) => fs.linkSync(a, b),
  writeNewFileSynced: async (path, chunks) => {
    const handle = await fs.promises.open(path, 'wx');
    try {
      for (const c of chunks) await handle.write(c);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};

export function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
}

/** Maps a file-system error to the coded error a user sees. `what` says what was being done. */
export function storeIoError(e: unknown, what: string, dir: string): MemoryError {
  if (e instanceof MemoryError) return e;
  const code = errnoCode(e);
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new MemoryError('E_DISK_FULL', `The disk holding the memory store (${dir}) is full: could not ${what}. Free some space; nothing acknowledged was lost.`, { code }, { cause: e });
  }
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return new MemoryError('E_STORE_READONLY', `The memory store folder ${dir} is not writable (${code}): could not ${what}. Choose a writable folder (setting agentMemory.store.path or --store).`, { code }, { cause: e });
  }
  return new MemoryError('E_STORE_IO', `Could not ${what} in the memory store ${dir} (${code ?? (e instanceof Error ? e.message : String(e))}).`, { code }, { cause: e });
}

/** Makes a rename or create durable by syncing the folder (not possible on Windows; ignored there). */
export function fsyncDir(sfs: StoreFs, dir: string): void {
  let fd: number | undefined;
  try {
    fd = sfs.openSync(dir, 'r');
    sfs.fsyncSync(fd);
  } catch (e) {
    const code = errnoCode(e);
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw e;
  } finally {
    if (fd !== undefined) sfs.closeSync(fd);
  }
}

/** Writes all of `data` at `position` (writeSync may write less than asked). */
export function writeFully(sfs: StoreFs, fd: number, data: Uint8Array, position: number): void {
  let done = 0;
  while (done < data.length) {
    const n = sfs.writeSync(fd, data, done, data.length - done, position + done);
    if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' });
    done += n;
  }
}

/** Reads `length` bytes at `position` (fewer if the file is shorter). */
export function readAt(sfs: StoreFs, fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = sfs.readSync(fd, buf, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? buf : buf.subarray(0, done);
}

/** A file name for a damaged file kept aside: `<name>.damaged-<UTC timestamp>`. */
export function damagedName(path: string, nowMs: number): string {
  return `${path}.damaged-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}`;
}

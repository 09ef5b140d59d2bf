/**
 * The store's cross-process write lock: a file created with O_EXCL ("wx") holding
 * {pid, host, token, at}. Holds are short (one transaction batch + one fsync). A lock whose pid is
 * dead on this host, whose age passes `staleLockMs`, or that stayed empty past the grace period
 * (its creator died between create and write) is broken automatically (lock times are wall-clock,
 * never the injected domain clock, since they coordinate processes): it is renamed to a unique
 * name, re-read, and deleted only if it is still the lock that was judged stale.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MemoryError } from '../errors';
import type { Logger } from '../logger';
import { damagedName, errnoCode, storeIoError, writeFully } from './storeFs';
import type { StoreFs } from './storeFs';

export const LOCK_FILE = 'write.lock';

/** First and last poll delays while waiting for another process's lock (doubling in between). */
const FIRST_WAIT_MS = 1;
const MAX_WAIT_MS = 20;

export interface LockInfo {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
  readonly at: number;
}

export interface WriteLockOptions {
  readonly dir: string;
  readonly fs: StoreFs;
  readonly logger: Logger;
  readonly timeoutMs: number;
  readonly staleLockMs: number;
  readonly emptyLockGraceMs: number;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) === 'EPERM';
  }
}

/** A lock file's content, or 'empty' when it is not (all of) a lock. */
function parseLock(text: string): LockInfo | 'empty' {
  try {
    const info = JSON.parse(text) as LockInfo;
    return info !== null && typeof info === 'object' && typeof info.pid === 'number' && typeof info.token === 'string' ? info : 'empty';
  } catch {
    return 'empty';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class WriteLock {
  readonly path: string;
  private held: string | undefined;

  constructor(private readonly o: WriteLockOptions) {
    this.path = join(o.dir, LOCK_FILE);
  }

  get isHeld(): boolean { return this.held !== undefined; }

  /** Acquires the lock, waiting up to the timeout; throws E_STORE_LOCKED with the holder named. */
  async acquire(): Promise<void> {
    if (this.held) throw new MemoryError('E_INTERNAL', 'The store write lock is already held by this store.');
    const deadline = Date.now() + this.o.timeoutMs;
    let wait = FIRST_WAIT_MS;
    for (;;) {
      if (this.tryCreate()) return;
      const holder = this.readHolder();
      if (holder === 'directory') {
        this.setAsideDirectory();
        continue;
      }
      if (holder !== 'gone' && this.isStale(holder)) {
        this.breakStale(holder);
        continue;
      }
      if (holder === 'gone') continue;
      if (Date.now() >= deadline) {
        const who = holder === 'empty' ? 'a process that is starting a write' : `process ${holder.pid} on ${holder.host}`;
        throw new MemoryError('E_STORE_LOCKED', `The memory store is busy: ${who} has held its write lock for over ${Math.round(this.o.timeoutMs / 1000)} s. Try again; if no other window or CLI is running, delete ${this.path}.`, { holder });
      }
      await sleep(wait + Math.random() * wait);
      wait = Math.min(MAX_WAIT_MS, wait * 2);
    }
  }

  /** True if this store still owns the lock file (checked before appending to the journal). */
  stillHeld(): boolean {
    if (!this.held) return false;
    const info = this.readHolder();
    return typeof info === 'object' && info.token === this.held;
  }

  release(): void {
    const token = this.held;
    this.held = undefined;
    if (!token) return;
    const info = this.readHolder();
    if (typeof info === 'object' && info.token === token) {
      try { this.o.fs.unlinkSync(this.path); } catch (e) { if (errnoCode(e) !== 'ENOENT') this.o.logger.warn(`Could not remove the store write lock: ${String(e)}`); }
    } else {
      this.o.logger.warn('The store write lock was taken over by another process before it was released.');
    }
  }

  private tryCreate(): boolean {
    const token = randomBytes(8).toString('hex');
    let fd: number;
    try {
      fd = this.o.fs.openSync(this.path, 'wx', 0o644);
    } catch (e) {
      if (errnoCode(e) === 'EEXIST') return false;
      throw storeIoError(e, 'create the write lock', this.o.dir);
    }
    try {
      const info: LockInfo = { pid: process.pid, host: hostname(), token, at: Date.now() };
      writeFully(this.o.fs, fd, Buffer.from(JSON.stringify(info)), 0);
    } catch (e) {
      this.o.fs.closeSync(fd);
      try { this.o.fs.unlinkSync(this.path); } catch { /* best effort */ }
      throw storeIoError(e, 'write the write lock', this.o.dir);
    }
    this.o.fs.closeSync(fd);
    this.held = token;
    return true;
  }

  /** A directory named like the lock is never a lock (no process creates one): keep it aside. */
  private setAsideDirectory(): void {
    const aside = damagedName(this.path, Date.now());
    try { this.o.fs.renameSync(this.path, aside); } catch (e) {
      if (errnoCode(e) === 'ENOENT') return;
      throw storeIoError(e, 'set aside a directory in place of the write lock', this.o.dir);
    }
    this.o.logger.warn(`A directory was in place of the memory store write lock; it was kept aside as ${aside}.`);
  }

  /** The current holder, 'empty' for a lock file without (complete) content, 'gone' if none. */
  private readHolder(): LockInfo | 'empty' | 'gone' | 'directory' {
    let text: string;
    try { text = this.o.fs.readFileSync(this.path).toString('utf8'); } catch (e) {
      if (errnoCode(e) === 'ENOENT') return 'gone';
      if (errnoCode(e) === 'EISDIR') return 'directory';
      throw storeIoError(e, 'read the write lock', this.o.dir);
    }
    return parseLock(text);
  }

  private isStale(holder: LockInfo | 'empty'): boolean {
    if (holder === 'empty') {
      try { return Date.now() - this.o.fs.statSync(this.path).mtimeMs > this.o.emptyLockGraceMs; } catch { return false; }
    }
    if (holder.host === hostname() && !pidAlive(holder.pid)) return true;
    return Date.now() - holder.at > this.o.staleLockMs;
  }

  private breakStale(holder: LockInfo | 'empty'): void {
    const aside = `${this.path}.stale-${randomBytes(6).toString('hex')}`;
    try { this.o.fs.renameSync(this.path, aside); } catch (e) {
      if (errnoCode(e) === 'ENOENT') return;
      throw storeIoError(e, 'recover a stale write lock', this.o.dir);
    }
    let moved: string;
    try { moved = this.o.fs.readFileSync(aside).toString('utf8'); } catch { moved = ''; }
    // An unreadable lock is the same one if what was moved is still not a lock: a text check for
    // "token" would take a truncated lock for a fresh one and give it back forever.
    const movedLock = parseLock(moved);
    const sameLock = holder === 'empty' ? movedLock === 'empty' : typeof movedLock === 'object' && movedLock.token === holder.token;
    if (!sameLock) {
      // Another process took the lock between our check and the rename: give it back.
      try { this.o.fs.renameSync(aside, this.path); } catch { /* it will see its lock gone and abort its write */ }
      return;
    }
    try { this.o.fs.unlinkSync(aside); } catch { /* harmless leftover */ }
    const who = holder === 'empty' ? 'an empty lock file' : `process ${holder.pid} on ${holder.host}`;
    this.o.logger.warn(`Recovered the memory store write lock left by ${who}.`);
  }
}

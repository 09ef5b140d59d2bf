/**
 * openMemoryStore: the same MemoryStore contract entirely in memory (no files, no journal, no
 * other processes). Tests of other modules use it; so can tools that want a scratch store.
 */
import { randomUUID } from 'node:crypto';
import { systemClock, isoFromMs } from '../clock';
import type { Clock } from '../clock';
import { DEFAULT_STORE_CONFIG } from '../config/storeConfig';
import { MemoryError } from '../errors';
import { silentLogger } from '../logger';
import type { Logger } from '../logger';
import { runMigrations, MIGRATIONS } from './migrations';
import type { Migration } from './migrations';
import { SqlDatabase } from './sqlDatabase';
import { createEngineDatabase } from './sqlEngine';
import { StoreListeners } from './storeListeners';
import type { MemoryStore, SqlReader, SqlWriter, StoreChange, Disposable } from './storeTypes';
import { runRecorded } from './writeTransaction';

export interface MemoryStoreOptions {
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Defaults to every migration; tests pass a prefix to build an older schema. */
  readonly migrations?: readonly Migration[];
  /** How long writeLater() writes wait for another write (StoreConfig.deferredWriteMs). */
  readonly deferredWriteMs?: number;
}

export const IN_MEMORY_DIR = ':memory:';

/**
 * Pragmas every store connection uses. The engine keeps the database in an in-memory file system,
 * so SQLite's own rollback journal stays in memory and it never syncs: durability comes from the
 * store's journal, not from SQLite's.
 */
/** SQLite's page cache per connection, KiB (`PRAGMA cache_size` takes it negated). */
export const PAGE_CACHE_KIB = 16_384;

export function configureConnection(db: SqlDatabase): void {
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA journal_mode = MEMORY');
  db.exec('PRAGMA synchronous = OFF');
  db.exec('PRAGMA temp_store = MEMORY');
  // A 16 MiB page cache instead of SQLite's 2 MiB: one recall reads the memories table, the
  // full-text indexes of memories and hints and the graph tables, and at 2 MiB they evicted one
  // another, so every query copied the same pages in again from the engine's in-memory file
  // (docs/store.md, "Recall latency, fourth round").
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  // Deleted rows are overwritten with zeros instead of lingering in free space, so a snapshot
  // exported after a forget does not carry the forgotten text (docs/store.md, "Forget means gone").
  db.exec('PRAGMA secure_delete = ON');
}

/** Applies pending migrations in one transaction on a bare database. */
export function migrateInPlace(db: SqlDatabase, clock: Clock, migrations: readonly Migration[] = MIGRATIONS): void {
  db.exec('BEGIN');
  try {
    runRecorded(db, (w) => runMigrations(w, { nowIso: isoFromMs(clock.now()), newStoreId: randomUUID, migrations }));
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}

export function readStoreId(db: SqlReader): string {
  const row = db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'store_id'");
  if (!row) throw new MemoryError('E_STORE_CORRUPT', 'The memory store has no id (meta.store_id is missing).');
  return row.value;
}

class InMemoryStore implements MemoryStore {
  readonly dir = IN_MEMORY_DIR;
  readonly storeId: string;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly listeners: StoreListeners;
  /** writeLater() writes not yet queued, in request order. */
  private deferred: (() => void)[] = [];
  private deferredPromises = new Set<Promise<unknown>>();
  private deferTimer: NodeJS.Timeout | undefined;

  constructor(private readonly db: SqlDatabase, logger: Logger, private readonly deferredWriteMs: number) {
    this.storeId = readStoreId(db);
    this.listeners = new StoreListeners(logger);
  }

  read<T>(fn: (db: SqlReader) => T): T {
    this.assertOpen();
    return fn(this.db);
  }

  write<T>(label: string, fn: (db: SqlWriter) => T): Promise<T> {
    this.promoteDeferred();
    return this.enqueue(label, fn);
  }

  writeLater<T>(label: string, fn: (db: SqlWriter) => T): Promise<T> {
    const promise = new Promise<T>((resolve, reject) => {
      this.deferred.push(() => { this.enqueue(label, fn).then(resolve, reject); });
    });
    const tracked = promise.catch(() => undefined);
    this.deferredPromises.add(tracked);
    void tracked.then(() => this.deferredPromises.delete(tracked));
    if (!this.deferTimer) {
      this.deferTimer = setTimeout(() => this.promoteDeferred(), this.deferredWriteMs);
      this.deferTimer.unref();
    }
    return promise;
  }

  async flushDeferred(): Promise<void> {
    this.promoteDeferred();
    await Promise.all([...this.deferredPromises]);
  }

  private promoteDeferred(): void {
    if (this.deferTimer) { clearTimeout(this.deferTimer); this.deferTimer = undefined; }
    for (const start of this.deferred.splice(0)) start();
  }

  private enqueue<T>(label: string, fn: (db: SqlWriter) => T): Promise<T> {
    const run = async (): Promise<T> => {
      this.assertOpen();
      this.db.exec('BEGIN');
      let result: T;
      try {
        result = runRecorded(this.db, fn).result;
        this.db.exec('COMMIT');
      } catch (e) {
        this.db.exec('ROLLBACK');
        throw e;
      }
      this.listeners.fire({ external: false, labels: [label] });
      return result;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  onDidChange(listener: (change: StoreChange) => void): Disposable {
    return this.listeners.add(listener);
  }

  refresh(): void { /* nothing external to apply */ }

  /** A copy of the database image (exportMemoryStoreImage). */
  exportImage(): Uint8Array {
    this.assertOpen();
    return this.db.export();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.promoteDeferred();
    await this.queue;
    this.closed = true;
    this.listeners.clear();
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryError('E_INTERNAL', 'The memory store is closed.');
  }
}

/**
 * Migrated database images, one per migration list, built once per process. Tests and benches open
 * hundreds of scratch stores; running every migration costs tens of ms of CPU each, copying the
 * migrated image about a third of that (bench/unitSuite.mjs measures the unit suite).
 */
const migratedImages = new WeakMap<readonly Migration[], Uint8Array>();

async function freshlyMigrated(clock: Clock, migrations: readonly Migration[]): Promise<SqlDatabase> {
  const db = new SqlDatabase(await createEngineDatabase());
  try {
    configureConnection(db);
    migrateInPlace(db, clock, migrations);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * A bare database with the migrations applied: a copy of the list's migrated image, given what
 * migrating it now would have written differently — its own store id, and the clock's time as
 * creation and migration time (test/unit/store/migratedImage.test.ts compares the two).
 */
async function migratedDatabase(clock: Clock, migrations: readonly Migration[]): Promise<SqlDatabase> {
  // With no migrations there is no meta table to give an id to (and the store refuses to open).
  if (migrations.length === 0) return freshlyMigrated(clock, migrations);
  let image = migratedImages.get(migrations);
  if (!image) {
    const template = await freshlyMigrated(clock, migrations);
    try {
      image = template.export();
    } finally {
      template.close();
    }
    migratedImages.set(migrations, image);
  }
  const db = new SqlDatabase(await createEngineDatabase(image));
  configureConnection(db);
  const nowIso = isoFromMs(clock.now());
  db.run("UPDATE meta SET value = ? WHERE key = 'store_id'", [randomUUID()]);
  db.run("UPDATE meta SET value = ? WHERE key = 'created_at'", [nowIso]);
  db.run('UPDATE schema_migrations SET applied_at = ?', [nowIso]);
  return db;
}

/** An in-memory MemoryStore with the full schema (or the given migrations) applied. */
export async function openMemoryStore(options: MemoryStoreOptions = {}): Promise<MemoryStore> {
  const db = await migratedDatabase(options.clock ?? systemClock, options.migrations ?? MIGRATIONS);
  return new InMemoryStore(db, options.logger ?? silentLogger, options.deferredWriteMs ?? DEFAULT_STORE_CONFIG.deferredWriteMs);
}

/**
 * An in-memory MemoryStore opened on a copy of a database image another store exported (benches
 * keep a built store across runs: bench/locomo.ts). The image must hold the full schema; it is
 * used as it is (same store id).
 */
export async function openMemoryStoreFromImage(image: Uint8Array, options: Omit<MemoryStoreOptions, 'migrations' | 'clock'> = {}): Promise<MemoryStore> {
  const db = new SqlDatabase(await createEngineDatabase(image));
  configureConnection(db);
  return new InMemoryStore(db, options.logger ?? silentLogger, options.deferredWriteMs ?? DEFAULT_STORE_CONFIG.deferredWriteMs);
}

/** The database image of an in-memory store (what openMemoryStoreFromImage opens). */
export function exportMemoryStoreImage(store: MemoryStore): Uint8Array {
  if (!(store instanceof InMemoryStore)) throw new MemoryError('E_INTERNAL', 'Only an in-memory store exports its image here.');
  return store.exportImage();
}

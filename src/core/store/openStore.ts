/**
 * openStore: opens (or creates) the durable store in a folder. Steps: check the folder is
 * writable; start from the newest valid snapshot (refusing newer schemas untouched); replay the
 * journal after it; if anything is damaged, take the write lock and repair (keep damaged bytes
 * aside, cut the journal at the last good record); apply pending migrations as one journaled
 * write; report what was recovered.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { resolve } from 'node:path';
import { isoFromMs, systemClock } from '../clock';
import type { Clock } from '../clock';
import { resolveStoreConfig } from '../config/storeConfig';
import type { StoreConfig } from '../config/storeConfig';
import { MemoryError } from '../errors';
import { silentLogger } from '../logger';
import type { Logger } from '../logger';
import { DurableStore } from './durableStore';
import type { DurableMemoryStore } from './durableStore';
import { JournalTail } from './journalTail';
import { Replica } from './replica';
import { assertSchemaNotNewer, hasPendingMigrations, latestVersion, MIGRATIONS, runMigrations } from './migrations';
import type { Migration } from './migrations';
import { configureConnection, readStoreId } from './memoryStore';
import { readSnapshot } from './snapshotFile';
import { SqlDatabase } from './sqlDatabase';
import { createEngineDatabase } from './sqlEngine';
import { loadBase } from './storeBase';
import { damagedName, fsyncDir, nodeStoreFs, storeIoError } from './storeFs';
import type { StoreFs } from './storeFs';
import { RecoveryLog } from './storeRecovery';
import { WriteLock } from './writeLock';

export interface OpenStoreOptions {
  /** Folder of the store; created if missing. */
  readonly dir: string;
  readonly logger?: Logger;
  /** Domain time for migration records (never used for locking). */
  readonly clock?: Clock;
  readonly config?: Partial<StoreConfig>;
  /** File operations (tests inject faults). */
  readonly fs?: StoreFs;
  /** Defaults to every migration; tests pass a prefix to build an older schema. */
  readonly migrations?: readonly Migration[];
}

function prepareFolder(sfs: StoreFs, dir: string): void {
  try {
    sfs.mkdirSync(dir, { recursive: true });
    sfs.accessSync(dir, constants.R_OK | constants.W_OK);
  } catch (e) {
    throw storeIoError(e, 'open the folder', dir);
  }
}

/** Keeps damaged snapshot files aside (under the lock, after re-checking they are still damaged). */
function setAsideSnapshots(sfs: StoreFs, dir: string, damaged: readonly { path: string }[], log: RecoveryLog): void {
  for (const { path } of damaged) {
    if (readSnapshot(sfs, path).status !== 'damaged') continue;
    const aside = damagedName(path, Date.now());
    sfs.renameSync(path, aside);
    log.keptAside(aside);
  }
  if (damaged.length) fsyncDir(sfs, dir);
}

export async function openStore(options: OpenStoreOptions): Promise<DurableMemoryStore> {
  const dir = resolve(options.dir);
  const sfs = options.fs ?? nodeStoreFs;
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const config = resolveStoreConfig(options.config);
  const migrations = options.migrations ?? MIGRATIONS;
  const log = new RecoveryLog();
  prepareFolder(sfs, dir);

  const base = loadBase(sfs, dir, latestVersion(migrations), log);
  const db = new SqlDatabase(await createEngineDatabase(base.image));
  let tail: JournalTail | undefined;
  try {
    configureConnection(db);
    tail = new JournalTail(sfs, dir, base.position.generation, base.position.offset);
    const lock = new WriteLock({ dir, fs: sfs, logger, timeoutMs: config.lockTimeoutMs, staleLockMs: config.staleLockMs, emptyLockGraceMs: config.emptyLockGraceMs });
    const replica = new Replica({ dir, fs: sfs, logger, config, migrations, lock, recoveryLog: log }, db, tail, base.position.seq);
    const store = new DurableStore({ dir, replica, snapshotPosition: base.position, lock, fs: sfs, logger, config, migrations });
    const replayed = replica.catchUp(false).length;
    assertSchemaNotNewer(db, migrations);

    if (base.damaged.length > 0 || tail.hasNew()) {
      // Bytes left past the last good record: under the lock they are damage, not a write in progress.
      await store.exclusive(async () => {
        await lock.acquire();
        try {
          replica.catchUp(true);
          setAsideSnapshots(sfs, dir, base.damaged, log);
        } catch (e) {
          throw storeIoError(e, 'repair the store', dir);
        } finally {
          lock.release();
        }
      });
    }
    if (hasPendingMigrations(db, migrations)) {
      await store.write('migrate', (w) => runMigrations(w, { nowIso: isoFromMs(clock.now()), newStoreId: randomUUID, migrations }));
    }
    store.storeId = readStoreId(db);
    store.recovery = log.report(base.openedFrom, replayed);
    if (store.recovery) logger.warn(store.recovery.message);
    store.startPolling();
    return store;
  } catch (e) {
    tail?.close();
    db.close();
    if (e instanceof MemoryError) throw e;
    throw storeIoError(e, 'open the store', dir);
  }
}

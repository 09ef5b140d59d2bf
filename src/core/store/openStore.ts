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
import { JournalTip } from './journalTip';
import { acknowledgedLoss, Replica } from './replica';
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
  /** Also verify the previous snapshot in full and set it aside when damaged (`agent-memory store recover`). */
  readonly verifyPreviousSnapshot?: boolean;
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

  // The tip is read before the journal: it never runs ahead of the durable journal, so a journal
  // that ends before it has lost acknowledged records (docs/store.md, "Journal tip").
  const tip = new JournalTip(sfs, dir);
  const tipBefore = tip.read();
  const base = loadBase(sfs, dir, latestVersion(migrations), log, options.verifyPreviousSnapshot === true);
  const db = new SqlDatabase(await createEngineDatabase(base.image, 'take'));
  let replica: Replica | undefined;
  try {
    configureConnection(db);
    const tail = new JournalTail(sfs, dir, base.position.generation, base.position.offset);
    const lock = new WriteLock({ dir, fs: sfs, logger, timeoutMs: config.lockTimeoutMs, staleLockMs: config.staleLockMs, emptyLockGraceMs: config.emptyLockGraceMs });
    replica = new Replica({ dir, fs: sfs, logger, config, migrations, lock, recoveryLog: log, tip }, db, tail, base.position.seq);
    const store = new DurableStore({ dir, replica, snapshotPosition: base.position, lock, fs: sfs, logger, config, migrations });
    const r = replica;
    const problem = r.inspect();
    let replayed = 0;
    if (!problem) {
      replayed = r.catchUp(false).length;
      assertSchemaNotNewer(r.db, migrations);
    }
    const tipAhead = tipBefore.status === 'damaged' || (acknowledgedLoss(tipBefore, r.appliedSeq, r.tail.generation) ?? 0) > 0;
    if (base.damaged.length > 0 || problem || r.suspect || tipAhead || r.tail.hasNew()) {
      // Under the lock, bytes past the last good record are damage, not a write in progress, and
      // the journal can be compared with the tip without racing a writer.
      await store.exclusive(async () => {
        await lock.acquire();
        try {
          setAsideSnapshots(sfs, dir, base.damaged, log);
          const before = r.appliedSeq;
          await r.ensureConsistent(log);
          replayed += Math.max(0, r.appliedSeq - before);
        } catch (e) {
          throw storeIoError(e, 'repair the store', dir);
        } finally {
          lock.release();
        }
      });
      assertSchemaNotNewer(r.db, migrations);
    }
    // r.db, not db: catching up may have reloaded a newer snapshot another process installed.
    if (hasPendingMigrations(r.db, migrations)) {
      await store.write('migrate', (w) => runMigrations(w, { nowIso: isoFromMs(clock.now()), newStoreId: randomUUID, migrations }));
    }
    store.storeId = readStoreId(r.db);
    store.recovery = log.report(base.openedFrom, replayed);
    if (store.recovery) logger.warn(store.recovery.message);
    store.startPolling();
    return store;
  } catch (e) {
    replica?.tail.close();
    tip.close();
    try { (replica?.db ?? db).close(); } catch { /* already closed by a reload */ }
    if (e instanceof MemoryError) throw e;
    throw storeIoError(e, 'open the store', dir);
  }
}

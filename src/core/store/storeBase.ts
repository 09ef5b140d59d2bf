/**
 * Picks the state a process starts from: the newest valid snapshot (current, else previous), or an
 * empty database at the start of the oldest journal generation. Refuses stores written by newer
 * code before touching anything.
 */
import { join } from 'node:path';
import { MemoryError } from '../errors';
import { JOURNAL_HEADER_BYTES } from './journalCodec';
import { JournalTail, listGenerations } from './journalTail';
import type { RecoveryLog } from './storeRecovery';
import { PREVIOUS_SNAPSHOT_FILE, readSnapshot, SNAPSHOT_FILE, SNAPSHOT_FORMAT } from './snapshotFile';
import type { SnapshotHeader, SnapshotPosition } from './snapshotFile';
import type { StoreFs } from './storeFs';

export interface BaseState {
  readonly image: Uint8Array | undefined;
  readonly position: SnapshotPosition;
  readonly openedFrom: 'snapshot' | 'previous snapshot' | 'journal only';
  /** Snapshot files found damaged; they are kept aside under the write lock by the caller. */
  readonly damaged: readonly { path: string; reason: string }[];
}

function refuseNewer(path: string, h: SnapshotHeader, knownSchema: number): void {
  if (h.format > SNAPSHOT_FORMAT || h.schemaVersion > knownSchema) {
    throw new MemoryError('E_STORE_NEWER_SCHEMA', `This memory store was written by a newer version of Agent Memory (${path}: schema ${h.schemaVersion}, format ${h.format}; this version understands schema ${knownSchema}). Update the extension or CLI; the store was left untouched.`, { found: h.schemaVersion, known: knownSchema });
  }
}

/**
 * `verifyPrevious` also reads the previous snapshot in full when the newest one is fine (recover
 * does; a normal open does not, to keep open time at one snapshot read), so a damaged one is set
 * aside instead of surfacing only when it is needed.
 */
export function loadBase(sfs: StoreFs, dir: string, knownSchema: number, log: RecoveryLog, verifyPrevious = false): BaseState {
  const damaged: { path: string; reason: string }[] = [];
  const candidates: [string, BaseState['openedFrom']][] = [[SNAPSHOT_FILE, 'snapshot'], [PREVIOUS_SNAPSHOT_FILE, 'previous snapshot']];
  for (const [name, label] of candidates) {
    const path = join(dir, name);
    const read = readSnapshot(sfs, path);
    if (read.status === 'missing') continue;
    if (read.header) refuseNewer(path, read.header, knownSchema);
    if (read.status === 'damaged') {
      damaged.push({ path, reason: read.reason });
      log.note(`The ${label} ${name} is damaged (${read.reason}).`);
      continue;
    }
    if (verifyPrevious && label === 'snapshot') {
      const prevPath = join(dir, PREVIOUS_SNAPSHOT_FILE);
      const prev = readSnapshot(sfs, prevPath);
      if (prev.status === 'damaged') {
        damaged.push({ path: prevPath, reason: prev.reason });
        log.note(`The previous snapshot ${PREVIOUS_SNAPSHOT_FILE} is damaged (${prev.reason}); the newest snapshot is fine, so nothing depends on it.`);
      }
    }
    return { image: read.image, position: read.header, openedFrom: label, damaged };
  }
  const generations = listGenerations(sfs, dir);
  const generation = generations[0] ?? 1;
  const tail = new JournalTail(sfs, dir, generation, JOURNAL_HEADER_BYTES);
  let firstSeq = 1;
  try {
    firstSeq = tail.firstSeq() ?? 1;
  } catch {
    // A damaged header: the replica's consistency check repairs or sets the generation aside.
  } finally {
    tail.close();
  }
  if (firstSeq > 1) {
    log.note(`No usable snapshot covers journal records 1–${firstSeq - 1}, which were already compacted away.`);
    log.lostRecords += firstSeq - 1;
  }
  return { image: undefined, position: { seq: firstSeq - 1, generation, offset: JOURNAL_HEADER_BYTES }, openedFrom: 'journal only', damaged };
}

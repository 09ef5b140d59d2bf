/**
 * A read-only check of a store folder's files (`agent-memory store check`, docs/store.md "Fault
 * table"): both snapshots verified in full, every journal generation scanned record by record,
 * the newest snapshot's position and the journal tip compared with the journal, the write lock
 * and the files earlier repairs kept aside listed. Nothing is written, so it is safe to run
 * while other processes use the store.
 */
import { join } from 'node:path';
import { decodeHeader, JOURNAL_HEADER_BYTES, scanRecords } from './journalCodec';
import { journalPath, listGenerations } from './journalTail';
import { JournalTip } from './journalTip';
import { PREVIOUS_SNAPSHOT_FILE, readSnapshot, SNAPSHOT_FILE } from './snapshotFile';
import type { SnapshotRead } from './snapshotFile';
import { errnoCode } from './storeFs';
import type { StoreFs } from './storeFs';
import { LOCK_FILE } from './writeLock';

export interface StoreFileFinding {
  /** File name inside the store folder. */
  readonly file: string;
  /** 'damage': something is wrong with data the store needs or may need; 'note': informational. */
  readonly severity: 'damage' | 'note';
  readonly message: string;
}

export interface StoreFileCheck {
  readonly ok: boolean;
  readonly findings: readonly StoreFileFinding[];
  /** Files earlier repairs kept aside (`*.damaged-<time>`). */
  readonly keptAside: readonly string[];
  /** Last journal record found, and what the tip says was acknowledged last. */
  readonly lastRecord: number | undefined;
  readonly tipRecord: number | undefined;
}

function snapshotFinding(name: string, read: SnapshotRead, role: string): StoreFileFinding | undefined {
  if (read.status === 'damaged') return { file: name, severity: 'damage', message: `The ${role} is damaged (${read.reason}).` };
  return undefined;
}

function safeRead(sfs: StoreFs, path: string): SnapshotRead {
  try {
    return readSnapshot(sfs, path);
  } catch (e) {
    return { status: 'damaged', reason: `unreadable (${errnoCode(e) ?? String(e)})` };
  }
}

export function checkStoreFiles(sfs: StoreFs, dir: string): StoreFileCheck {
  const findings: StoreFileFinding[] = [];
  // The tip first: it never runs ahead of the durable journal, so reading the journal after it
  // cannot report a write that lands meanwhile as missing.
  const tipRead = new JournalTip(sfs, dir).read();
  const names = sfs.readdirSync(dir);
  const current = safeRead(sfs, join(dir, SNAPSHOT_FILE));
  const previous = safeRead(sfs, join(dir, PREVIOUS_SNAPSHOT_FILE));
  for (const f of [snapshotFinding(SNAPSHOT_FILE, current, 'newest snapshot'), snapshotFinding(PREVIOUS_SNAPSHOT_FILE, previous, 'previous snapshot')]) if (f) findings.push(f);
  if (current.status === 'missing' && previous.status !== 'missing') findings.push({ file: SNAPSHOT_FILE, severity: 'note', message: 'Only the previous snapshot exists (a snapshot install was interrupted or the newest one was deleted); the store opens from the previous one.' });

  let lastRecord: number | undefined;
  let lastGeneration: number | undefined;
  const generations = listGenerations(sfs, dir);
  for (const g of generations) {
    const path = journalPath(dir, g);
    const name = path.slice(dir.length + 1);
    let bytes: Buffer;
    try { bytes = sfs.readFileSync(path); } catch (e) {
      findings.push({ file: name, severity: 'damage', message: `The journal cannot be read (${errnoCode(e) === 'EISDIR' ? 'it is a directory' : errnoCode(e) ?? String(e)}).` });
      continue;
    }
    const header = decodeHeader(bytes);
    if (!header) {
      findings.push({ file: name, severity: 'damage', message: 'The journal header is damaged.' });
      continue;
    }
    if (header.generation !== g) findings.push({ file: name, severity: 'damage', message: `The journal's header names generation ${header.generation}.` });
    const scan = scanRecords(bytes.subarray(JOURNAL_HEADER_BYTES), JOURNAL_HEADER_BYTES);
    let expected = header.firstSeq;
    for (const r of scan.records) {
      if (r.seq !== expected) { findings.push({ file: name, severity: 'damage', message: `Record ${expected} is followed by record ${r.seq}.` }); break; }
      expected++;
    }
    if (scan.stop !== 'end') {
      findings.push({ file: name, severity: 'damage', message: `${bytes.length - scan.stopOffset} byte(s) from byte ${scan.stopOffset} on are ${scan.stop === 'incomplete' ? 'an incomplete record' : 'damaged'} (after record ${expected - 1}).` });
    }
    if (scan.records.length) { lastRecord = expected - 1; lastGeneration = g; }
  }
  const base = current.status === 'ok' ? current : previous.status === 'ok' ? previous : undefined;
  if (base) {
    const { seq, generation, offset } = base.header;
    if (!generations.includes(generation)) {
      if (!generations.some((g) => g > generation)) findings.push({ file: SNAPSHOT_FILE, severity: 'damage', message: `The snapshot continues in journal generation ${generation}, which is missing.` });
    } else {
      let size = 0;
      try { size = sfs.statSync(journalPath(dir, generation)).size; } catch { /* reported above */ }
      if (size < offset) findings.push({ file: journalPath(dir, generation).slice(dir.length + 1), severity: 'damage', message: `The journal is ${size} bytes long, shorter than the ${offset} bytes the snapshot (record ${seq}) covers.` });
    }
    if (lastRecord === undefined || lastRecord < seq) lastRecord = Math.max(lastRecord ?? 0, seq);
  }
  let tipRecord: number | undefined;
  if (tipRead.status === 'damaged') findings.push({ file: 'journal.tip', severity: 'damage', message: `The journal tip is damaged (${tipRead.reason}); loss counts after damage would be lower bounds.` });
  if (tipRead.status === 'ok') {
    tipRecord = tipRead.tip.seq;
    const rotations = lastGeneration !== undefined ? Math.max(0, tipRead.tip.generation - lastGeneration) : 0;
    const missing = tipRecord - (lastRecord ?? 0) - rotations;
    if (missing > 0) findings.push({ file: 'journal.tip', severity: 'damage', message: `The tip records ${tipRecord} as the last acknowledged record but the journal ends at record ${lastRecord ?? 0}: ${missing} acknowledged transaction(s) are missing.` });
  }
  if (names.includes(LOCK_FILE)) {
    let text = '';
    try { text = sfs.readFileSync(join(dir, LOCK_FILE)).toString('utf8'); } catch (e) {
      findings.push({ file: LOCK_FILE, severity: 'damage', message: `The write lock cannot be read (${errnoCode(e) === 'EISDIR' ? 'it is a directory' : errnoCode(e) ?? String(e)}); the next write sets it aside.` });
    }
    if (text) findings.push({ file: LOCK_FILE, severity: 'note', message: `A write lock is present: ${text.slice(0, 200)} (normal while another process writes).` });
  }
  const keptAside = names.filter((n) => /\.damaged-\d{4}-/.test(n)).sort();
  if (keptAside.length) findings.push({ file: keptAside.join(', '), severity: 'note', message: `${keptAside.length} file(s) kept aside by an earlier repair.` });
  return { ok: !findings.some((f) => f.severity === 'damage'), findings, keptAside, lastRecord, tipRecord };
}

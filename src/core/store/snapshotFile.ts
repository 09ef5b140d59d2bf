/**
 * Snapshot files: a full SQLite image of the store at one journal position, written atomically
 * (temp file → fsync → rename → fsync folder). Layout (64-byte header, then the image):
 *   0 magic "AMSNAP01" | 8 u32 format | 12 u32 schema version | 16 u64 sequence covered |
 *   24 u64 journal offset just past that record | 32 u32 journal generation | 36 u32 CRC-32 of the
 *   image | 40 u64 image length | 48 reserved | 60 u32 CRC-32 of bytes 0..59.
 * The store keeps the current snapshot and the previous one, so a damaged current snapshot still
 * opens from the previous one plus the journal (which is kept until the previous one covers it).
 */
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { crc32 } from './crc32';
import { errnoCode, fsyncDir, readAt } from './storeFs';
import type { StoreFs } from './storeFs';

export const SNAPSHOT_MAGIC = 'AMSNAP01';
export const SNAPSHOT_FORMAT = 1;
export const SNAPSHOT_HEADER_BYTES = 64;
export const SNAPSHOT_FILE = 'snapshot.amsnap';
export const PREVIOUS_SNAPSHOT_FILE = 'snapshot.prev.amsnap';

export interface SnapshotPosition {
  readonly seq: number;
  readonly generation: number;
  readonly offset: number;
}

export interface SnapshotHeader extends SnapshotPosition {
  readonly format: number;
  readonly schemaVersion: number;
  readonly imageLength: number;
  readonly imageCrc: number;
}

export type SnapshotRead =
  | { readonly status: 'missing' }
  | { readonly status: 'damaged'; readonly reason: string; readonly header?: SnapshotHeader }
  | { readonly status: 'ok'; readonly header: SnapshotHeader; readonly image: Uint8Array };

export function encodeSnapshotHeader(h: Omit<SnapshotHeader, 'format'>): Buffer {
  const b = Buffer.alloc(SNAPSHOT_HEADER_BYTES);
  b.write(SNAPSHOT_MAGIC, 0, 'latin1');
  b.writeUInt32LE(SNAPSHOT_FORMAT, 8);
  b.writeUInt32LE(h.schemaVersion, 12);
  b.writeBigUInt64LE(BigInt(h.seq), 16);
  b.writeBigUInt64LE(BigInt(h.offset), 24);
  b.writeUInt32LE(h.generation, 32);
  b.writeUInt32LE(h.imageCrc, 36);
  b.writeBigUInt64LE(BigInt(h.imageLength), 40);
  b.writeUInt32LE(crc32(b.subarray(0, 60)), 60);
  return b;
}

export function decodeSnapshotHeader(b: Buffer): SnapshotHeader | undefined {
  if (b.length < SNAPSHOT_HEADER_BYTES || b.toString('latin1', 0, 8) !== SNAPSHOT_MAGIC) return undefined;
  if (b.readUInt32LE(60) !== crc32(b.subarray(0, 60))) return undefined;
  return {
    format: b.readUInt32LE(8),
    schemaVersion: b.readUInt32LE(12),
    seq: Number(b.readBigUInt64LE(16)),
    offset: Number(b.readBigUInt64LE(24)),
    generation: b.readUInt32LE(32),
    imageCrc: b.readUInt32LE(36),
    imageLength: Number(b.readBigUInt64LE(40)),
  };
}

/** Reads only the header (cheap; used to decide whether a snapshot is due). */
export function readSnapshotHeader(sfs: StoreFs, path: string): SnapshotHeader | undefined {
  let fd: number;
  try { fd = sfs.openSync(path, 'r'); } catch { return undefined; }
  // A directory in the file's place opens but cannot be read: no header.
  try { return decodeSnapshotHeader(readAt(sfs, fd, 0, SNAPSHOT_HEADER_BYTES)); } catch { return undefined; } finally { sfs.closeSync(fd); }
}

/** Reads and verifies a whole snapshot. */
export function readSnapshot(sfs: StoreFs, path: string): SnapshotRead {
  if (!sfs.existsSync(path)) return { status: 'missing' };
  let bytes: Buffer;
  try {
    bytes = sfs.readFileSync(path);
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT') return { status: 'missing' };
    return { status: 'damaged', reason: code === 'EISDIR' ? 'it is a directory' : `unreadable (${code ?? String(e)})` };
  }
  const header = decodeSnapshotHeader(bytes);
  if (!header) return { status: 'damaged', reason: bytes.length < SNAPSHOT_HEADER_BYTES ? 'truncated header' : 'bad header checksum' };
  if (header.format > SNAPSHOT_FORMAT) return { status: 'ok', header, image: new Uint8Array(0) };
  const image = bytes.subarray(SNAPSHOT_HEADER_BYTES);
  if (image.length !== header.imageLength) return { status: 'damaged', reason: `truncated (${image.length} of ${header.imageLength} bytes)`, header };
  if (crc32(image) !== header.imageCrc) return { status: 'damaged', reason: 'image checksum mismatch', header };
  return { status: 'ok', header, image };
}

/** Writes a snapshot to a unique temp file in `dir` and fsyncs it (async); returns the temp path. */
export async function writeSnapshotTemp(sfs: StoreFs, dir: string, image: Uint8Array, position: SnapshotPosition, schemaVersion: number): Promise<string> {
  const tmp = join(dir, `${SNAPSHOT_FILE}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const header = encodeSnapshotHeader({ ...position, schemaVersion, imageLength: image.length, imageCrc: crc32(image) });
  try {
    await sfs.writeNewFileSynced(tmp, [header, image]);
  } catch (e) {
    try { sfs.unlinkSync(tmp); } catch { /* best effort */ }
    throw e;
  }
  return tmp;
}

/**
 * Installs a synced temp snapshot as the current one (caller holds the write lock): the current
 * becomes the previous, the temp becomes the current, then the folder is synced.
 */
export function installSnapshot(sfs: StoreFs, dir: string, tmp: string): void {
  const current = join(dir, SNAPSHOT_FILE);
  if (sfs.existsSync(current)) sfs.renameSync(current, join(dir, PREVIOUS_SNAPSHOT_FILE));
  sfs.renameSync(tmp, current);
  fsyncDir(sfs, dir);
}

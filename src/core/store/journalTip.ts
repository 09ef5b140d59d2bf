/**
 * The journal tip (`journal.tip`, docs/store.md "Journal tip"): the sequence, generation and end
 * offset of the last acknowledged journal record. Written under the write lock right after each
 * append's fdatasync (one 40-byte positional write, not synced itself), so it is never ahead of
 * the durable journal. Open and every write compare it with the journal: a journal that ends
 * before the tip lost acknowledged records, and `tip.seq - last good seq` is exactly how many.
 * Layout: 0 magic "AMJTIP01" | 8 u32 generation | 12 u32 zero | 16 u64 sequence | 24 u64 end
 * offset | 32 u32 CRC-32 of bytes 0..31 | 36 u32 zero.
 */
import { join } from 'node:path';
import { crc32 } from './crc32';
import { errnoCode, writeFully } from './storeFs';
import type { StoreFs } from './storeFs';

export const TIP_FILE = 'journal.tip';
const TIP_MAGIC = 'AMJTIP01';
export const TIP_BYTES = 40;

export interface JournalTipValue {
  readonly seq: number;
  readonly generation: number;
  readonly offset: number;
}

export type TipRead =
  | { readonly status: 'ok'; readonly tip: JournalTipValue }
  | { readonly status: 'missing' }
  | { readonly status: 'damaged'; readonly reason: string };

export function encodeTip(t: JournalTipValue): Buffer {
  const b = Buffer.alloc(TIP_BYTES);
  b.write(TIP_MAGIC, 0, 'latin1');
  b.writeUInt32LE(t.generation, 8);
  b.writeBigUInt64LE(BigInt(t.seq), 16);
  b.writeBigUInt64LE(BigInt(t.offset), 24);
  b.writeUInt32LE(crc32(b.subarray(0, 32)), 32);
  return b;
}

export function decodeTip(b: Buffer): TipRead {
  if (b.length < TIP_BYTES) return { status: 'damaged', reason: `truncated (${b.length} of ${TIP_BYTES} bytes)` };
  if (b.toString('latin1', 0, 8) !== TIP_MAGIC || b.readUInt32LE(32) !== crc32(b.subarray(0, 32))) return { status: 'damaged', reason: 'bad checksum' };
  return { status: 'ok', tip: { generation: b.readUInt32LE(8), seq: Number(b.readBigUInt64LE(16)), offset: Number(b.readBigUInt64LE(24)) } };
}

/** One process's handle on the tip file (kept open; written only under the write lock). */
export class JournalTip {
  readonly path: string;
  private fd: number | undefined;

  constructor(private readonly sfs: StoreFs, dir: string) {
    this.path = join(dir, TIP_FILE);
  }

  read(): TipRead {
    let bytes: Buffer;
    try {
      bytes = this.sfs.readFileSync(this.path);
    } catch (e) {
      const code = errnoCode(e);
      if (code === 'ENOENT') return { status: 'missing' };
      return { status: 'damaged', reason: code === 'EISDIR' ? 'it is a directory' : `unreadable (${code ?? String(e)})` };
    }
    return decodeTip(bytes);
  }

  /**
   * Records the acknowledged end of the journal. Throws on I/O errors; callers that already made
   * the journal durable log and go on (the tip only sharpens loss reports, docs/store.md).
   */
  write(t: JournalTipValue): void {
    this.ensureOpen();
    writeFully(this.sfs, this.fd as number, encodeTip(t), 0);
  }

  /** Rewrites the tip and syncs it (after a repair, so the next open does not report the same loss again). */
  writeSynced(t: JournalTipValue): void {
    this.write(t);
    this.sfs.fsyncSync(this.fd as number);
  }

  /** Forgets the open handle (after the file was set aside or replaced). */
  close(): void {
    if (this.fd !== undefined) {
      try { this.sfs.closeSync(this.fd); } catch { /* already closed */ }
      this.fd = undefined;
    }
  }

  private ensureOpen(): void {
    if (this.fd !== undefined) {
      // Reopen if the file was deleted or replaced since (a stale handle would write into nothing).
      try {
        if (this.sfs.statSync(this.path).ino === this.sfs.fstatSync(this.fd).ino) return;
      } catch { /* gone: reopen below */ }
      this.close();
    }
    try {
      this.fd = this.sfs.openSync(this.path, 'r+');
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT') throw e;
      this.fd = this.sfs.openSync(this.path, 'w+', 0o644);
    }
  }
}

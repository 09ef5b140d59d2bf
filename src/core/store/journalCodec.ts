/**
 * Binary layout of the shared journal (see docs/store.md).
 *
 * File header (32 bytes): magic "AMJOURN1", u32 format, u32 generation, u64 first sequence,
 * u32 CRC-32 of the preceding 24 bytes, 4 zero bytes.
 * Record: u32 payload length, u32 CRC-32 of (sequence ‖ payload), u64 sequence, payload (UTF-8
 * JSON). Sequences are global and consecutive across generations. Payloads:
 *   {"k":"tx","l":label,"s":[[sql, params?], ...]}  one committed transaction
 *   {"k":"rotate","g":next}                           this generation is sealed; continue in `next`
 * Little-endian throughout. Parameters keep their SQLite type: blobs as {"$b": base64}, non-finite
 * reals as {"$n": "Infinity" | "-Infinity"}.
 */
import { MemoryError } from '../errors';
import { crc32 } from './crc32';
import type { SqlParams, SqlValue } from './storeTypes';
import type { RecordedStatement } from './writeTransaction';

export const JOURNAL_MAGIC = 'AMJOURN1';
export const JOURNAL_FORMAT = 1;
export const JOURNAL_HEADER_BYTES = 32;
export const RECORD_HEADER_BYTES = 16;
/** A length field above this is damage, not a record (a transaction this big is refused up front). */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;

export interface JournalHeader {
  readonly format: number;
  readonly generation: number;
  readonly firstSeq: number;
}

export type JournalPayload =
  | { readonly k: 'tx'; readonly l: string; readonly s: readonly RecordedStatement[] }
  | { readonly k: 'rotate'; readonly g: number };

export interface DecodedRecord {
  readonly seq: number;
  readonly payload: JournalPayload;
  /** Offset just past this record. */
  readonly end: number;
}

/** Why scanning stopped: clean end, a record not fully written yet, or bytes that fail their checksum. */
export type ScanStop = 'end' | 'incomplete' | 'corrupt';

export function encodeHeader(h: JournalHeader): Buffer {
  const b = Buffer.alloc(JOURNAL_HEADER_BYTES);
  b.write(JOURNAL_MAGIC, 0, 'latin1');
  b.writeUInt32LE(h.format, 8);
  b.writeUInt32LE(h.generation, 12);
  b.writeBigUInt64LE(BigInt(h.firstSeq), 16);
  b.writeUInt32LE(crc32(b.subarray(0, 24)), 24);
  return b;
}

/** Undefined when the bytes are not a valid header (short, wrong magic, bad checksum). */
export function decodeHeader(b: Buffer): JournalHeader | undefined {
  if (b.length < JOURNAL_HEADER_BYTES || b.toString('latin1', 0, 8) !== JOURNAL_MAGIC) return undefined;
  if (b.readUInt32LE(24) !== crc32(b.subarray(0, 24))) return undefined;
  return { format: b.readUInt32LE(8), generation: b.readUInt32LE(12), firstSeq: Number(b.readBigUInt64LE(16)) };
}

type JsonValue = string | number | null | { $b: string } | { $n: string };

function encodeValue(v: SqlValue): JsonValue {
  if (v instanceof Uint8Array) return { $b: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? null : { $n: v > 0 ? 'Infinity' : '-Infinity' };
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v ?? null;
}

function decodeValue(v: JsonValue): SqlValue {
  if (v !== null && typeof v === 'object') {
    if ('$b' in v) return new Uint8Array(Buffer.from(v.$b, 'base64'));
    return v.$n === 'Infinity' ? Infinity : -Infinity;
  }
  return v;
}

function encodeParams(p: SqlParams): JsonValue[] | Record<string, JsonValue> {
  if (Array.isArray(p)) return (p as readonly SqlValue[]).map(encodeValue);
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(p as Record<string, SqlValue>)) out[k] = encodeValue(v);
  return out;
}

function decodeParams(p: JsonValue[] | Record<string, JsonValue>): SqlParams {
  if (Array.isArray(p)) return p.map(decodeValue);
  const out: Record<string, SqlValue> = {};
  for (const [k, v] of Object.entries(p)) out[k] = decodeValue(v);
  return out;
}

function payloadJson(payload: JournalPayload): string {
  if (payload.k === 'rotate') return JSON.stringify(payload);
  return JSON.stringify({ k: 'tx', l: payload.l, s: payload.s.map((st) => (st.params === undefined ? [st.sql] : [st.sql, encodeParams(st.params)])) });
}

export function encodeRecord(seq: number, payload: JournalPayload): Buffer {
  const body = Buffer.from(payloadJson(payload), 'utf8');
  if (body.length > MAX_RECORD_BYTES) throw new MemoryError('E_INVALID_INPUT', `One store transaction is too large to journal (${body.length} bytes).`);
  const b = Buffer.allocUnsafe(RECORD_HEADER_BYTES + body.length);
  b.writeUInt32LE(body.length, 0);
  b.writeBigUInt64LE(BigInt(seq), 8);
  body.copy(b, RECORD_HEADER_BYTES);
  b.writeUInt32LE(crc32(b.subarray(8)), 4);
  return b;
}

function parsePayload(text: string): JournalPayload | undefined {
  try {
    const raw = JSON.parse(text) as { k?: unknown; l?: unknown; s?: unknown; g?: unknown };
    if (raw.k === 'rotate' && typeof raw.g === 'number') return { k: 'rotate', g: raw.g };
    if (raw.k === 'tx' && typeof raw.l === 'string' && Array.isArray(raw.s)) {
      const s = (raw.s as [string, (JsonValue[] | Record<string, JsonValue>)?][]).map(([sql, params]) => (params === undefined ? { sql } : { sql, params: decodeParams(params) }));
      return { k: 'tx', l: raw.l, s };
    }
  } catch { /* reported as corrupt below */ }
  return undefined;
}

/**
 * Decodes records from `buf` (which starts at file offset `base`). Stops at the end, at a record
 * whose bytes are not all there yet, or at one that fails its checksum.
 */
export function scanRecords(buf: Buffer, base: number): { records: DecodedRecord[]; stop: ScanStop; stopOffset: number } {
  const records: DecodedRecord[] = [];
  let pos = 0;
  while (pos < buf.length) {
    if (buf.length - pos < RECORD_HEADER_BYTES) return { records, stop: 'incomplete', stopOffset: base + pos };
    const len = buf.readUInt32LE(pos);
    if (len > MAX_RECORD_BYTES) return { records, stop: 'corrupt', stopOffset: base + pos };
    if (buf.length - pos < RECORD_HEADER_BYTES + len) return { records, stop: 'incomplete', stopOffset: base + pos };
    const crc = buf.readUInt32LE(pos + 4);
    if (crc !== crc32(buf.subarray(pos + 8, pos + RECORD_HEADER_BYTES + len))) return { records, stop: 'corrupt', stopOffset: base + pos };
    const payload = parsePayload(buf.toString('utf8', pos + RECORD_HEADER_BYTES, pos + RECORD_HEADER_BYTES + len));
    if (!payload) return { records, stop: 'corrupt', stopOffset: base + pos };
    pos += RECORD_HEADER_BYTES + len;
    records.push({ seq: Number(buf.readBigUInt64LE(pos - len - 8)), payload, end: base + pos });
  }
  return { records, stop: 'end', stopOffset: base + pos };
}

/** Counts well-formed records after a damaged one (for the recovery report; they cannot be applied). */
export function countRecordsAfterDamage(buf: Buffer): number {
  if (buf.length < RECORD_HEADER_BYTES) return 0;
  const len = buf.readUInt32LE(0);
  if (len > MAX_RECORD_BYTES || RECORD_HEADER_BYTES + len > buf.length) return 0;
  return scanRecords(buf.subarray(RECORD_HEADER_BYTES + len), 0).records.length;
}

import * as zlib from 'node:zlib';

/** CRC-32 (IEEE), native when the runtime has zlib.crc32 (Node ≥ 20.15), else a table fallback. */
const native = (zlib as unknown as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

let table: Uint32Array | undefined;

function fallback(data: Uint8Array, value = 0): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) crc = (table[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function crc32(data: Uint8Array, value = 0): number {
  return native ? native(data, value) >>> 0 : fallback(data, value);
}

/** Exposed so a test can check the fallback against the native implementation. */
export const crc32Fallback = fallback;

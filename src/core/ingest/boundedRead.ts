import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { MemoryError } from '../errors';
import { decodeUtf8Strict } from '../memory/textValidation';

/**
 * Reads a whole input file with a hard size cap that holds for anything open() returns: regular
 * files, files still growing, pipes, FIFOs and devices (`/dev/zero` never ends, and its stat size
 * is 0). The cap is enforced on bytes actually read, so at most `maxBytes` + one chunk is ever in
 * memory. Text is decoded strictly (docs/ingest.md "Input rules"): invalid UTF-8 is refused with
 * its byte offset rather than turned into U+FFFD.
 */
const CHUNK = 1 << 20;

export function readFileBounded(path: string, maxBytes: number, what = path): Buffer {
  let fd: number;
  try { fd = openSync(path, 'r'); } catch { throw new MemoryError('E_NOT_FOUND', `Cannot read ${what}.`); }
  try {
    let isDir = false;
    try { isDir = fstatSync(fd).isDirectory(); } catch { /* unknown kind: the read below decides */ }
    if (isDir) throw new MemoryError('E_INVALID_INPUT', `${what} is a folder, not a file.`);
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      let n: number;
      try { n = readSync(fd, buf, 0, CHUNK, null); } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue;
        throw new MemoryError('E_NOT_FOUND', `Cannot read ${what}.`, undefined, { cause: e });
      }
      if (n === 0) break;
      total += n;
      if (total > maxBytes) {
        throw new MemoryError('E_INVALID_INPUT', `${what} is larger than the ${maxBytes}-byte limit (or never ends); nothing was read into the store.`, { limit: maxBytes });
      }
      parts.push(n === CHUNK ? buf : buf.subarray(0, n));
    }
    return Buffer.concat(parts, total);
  } finally {
    closeSync(fd);
  }
}

/** readFileBounded, then strict UTF-8 decoding. */
export function readTextFileBounded(path: string, maxBytes: number, what = path): string {
  return decodeUtf8Strict(readFileBounded(path, maxBytes, what), what);
}

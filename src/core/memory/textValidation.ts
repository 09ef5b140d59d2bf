import { MemoryError } from '../errors';

/**
 * Lossless text input (docs/ingest.md "Input rules"). The store keeps text in SQLite, whose C
 * string binding ends a value at the first NUL, and UTF-8 cannot encode a lone UTF-16 surrogate;
 * either would silently lose or change text. So both are refused, with the field and the
 * position, wherever text enters — never dropped or replaced.
 */

/** The first NUL or unpaired surrogate in `text`, as a UTF-16 index and a description, if any. */
export function findUnstorableChar(text: string): { index: number; what: string } | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return { index: i, what: 'a NUL character (U+0000)' };
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) { i++; continue; }
      return { index: i, what: `an unpaired surrogate (U+${c.toString(16).toUpperCase()})` };
    }
    if (c >= 0xdc00 && c <= 0xdfff) return { index: i, what: `an unpaired surrogate (U+${c.toString(16).toUpperCase()})` };
  }
  return undefined;
}

/** Throws E_INVALID_INPUT naming `field` when `text` holds a NUL or an unpaired surrogate. */
export function assertStorableText(text: string, field: string): void {
  const bad = findUnstorableChar(text);
  if (bad) throw new MemoryError('E_INVALID_INPUT', `${field} contains ${bad.what} at character ${bad.index}; it cannot be stored without changing the text.`, { field, index: bad.index });
}

/** The byte offset of the first invalid UTF-8 sequence in `bytes`, or -1 when it is all valid. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) { i++; continue; }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; }
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

const STRICT = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 (a leading BOM is dropped), refusing invalid bytes with their offset: nothing becomes U+FFFD. */
export function decodeUtf8Strict(bytes: Uint8Array, what: string, baseOffset = 0): string {
  try {
    return STRICT.decode(bytes);
  } catch {
    const at = invalidUtf8Offset(bytes);
    throw new MemoryError('E_INVALID_INPUT', `${what} is not valid UTF-8 at byte ${baseOffset + Math.max(at, 0)}; convert it to UTF-8 first (e.g. iconv -f latin1 -t utf-8).`, { byte: baseOffset + Math.max(at, 0) });
  }
}

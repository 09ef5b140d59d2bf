import { readFileSync } from 'node:fs';
import { MemoryError } from '../core/errors';
import { invalidUtf8Offset } from '../core/memory/textValidation';

/**
 * Node decodes command-line arguments as UTF-8 and turns invalid bytes (latin-1 text, a
 * surrogate encoded as three bytes) into U+FFFD before any code runs, which would store changed
 * text. On Linux the raw bytes are still readable in /proc/self/cmdline, so an argument that is
 * not valid UTF-8 is refused with its byte offset (docs/ingest.md "Input rules"). Elsewhere the
 * check is skipped. `argCount` is how many trailing entries are the command's own arguments.
 */
export function checkRawArgs(argCount: number, cmdlinePath = '/proc/self/cmdline'): void {
  if (argCount <= 0) return;
  let raw: Buffer;
  try { raw = readFileSync(cmdlinePath); } catch { return; }
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === 0) { parts.push(raw.subarray(start, i)); start = i + 1; }
  }
  if (start < raw.length) parts.push(raw.subarray(start));
  const own = parts.slice(-argCount);
  own.forEach((bytes, i) => {
    const at = invalidUtf8Offset(bytes);
    if (at >= 0) throw new MemoryError('E_INVALID_INPUT', `Argument ${i + 1} is not valid UTF-8 at byte ${at}; pass UTF-8 text (e.g. convert with iconv -f latin1 -t utf-8).`, { argument: i + 1, byte: at });
  });
}

/**
 * `<store>/hooks.log`, where every hook call leaves one line (docs/agents.md). Its own small module
 * (node builtins only) because the hook fast path (hookFastPath.ts) writes it without loading the
 * full CLI.
 */
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const HOOK_LOG = 'hooks.log';
const LOG_MAX_BYTES = 1024 * 1024;

/** Appends one line (halving the log past 1 MB); never throws: a hook never fails because its log could not be written. */
export function log(storeDir: string, line: string): void {
  try {
    mkdirSync(storeDir, { recursive: true });
    const path = join(storeDir, HOOK_LOG);
    try {
      if (statSync(path).size > LOG_MAX_BYTES) {
        const text = readFileSync(path, 'utf8');
        writeFileSync(path, text.slice(text.length / 2));
      }
    } catch { /* no log yet */ }
    appendFileSync(path, `${new Date().toISOString()} ${line.replace(/\s+/g, ' ')}\n`);
  } catch { /* a hook never fails because its log could not be written */ }
}

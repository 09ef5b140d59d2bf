import { MemoryError } from '../errors';

/**
 * Journal replay re-executes recorded statements, so a recorded statement must produce the same
 * effect every time it runs on the same state. These SQL functions and keywords read the clock or
 * a random source; callers pass times from the injected Clock and ids generated in TypeScript.
 */
const NONDETERMINISTIC = [
  /\brandom\s*\(/i,
  /\brandomblob\s*\(/i,
  /\bcurrent_(timestamp|date|time)\b/i,
  /\b(date|time|datetime|julianday|unixepoch|strftime|timediff)\s*\([^)]*'now'/i,
  /\bunixepoch\s*\(\s*\)/i,
];

/**
 * SQL texts already checked. The write path runs the same few hundred statements over and over
 * (an ingest runs ~100 per memory), so each text is matched against the patterns once; the set is
 * emptied when it reaches CHECKED_MAX (texts built with a variable number of `?` differ).
 */
const checked = new Set<string>();
const CHECKED_MAX = 4096;

/** Throws E_INTERNAL when `sql` uses a function whose result would differ on replay. */
export function assertDeterministicSql(sql: string): void {
  if (checked.has(sql)) return;
  for (const pattern of NONDETERMINISTIC) {
    if (pattern.test(sql)) {
      throw new MemoryError('E_INTERNAL', `A stored write used a non-deterministic SQL function (${pattern.source}); pass values from the clock or TypeScript instead.`, { sql });
    }
  }
  if (checked.size >= CHECKED_MAX) checked.clear();
  checked.add(sql);
}

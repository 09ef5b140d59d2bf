/** `?, ?, …` for an `IN (…)` list of n bound values (callers chunk long lists below SQLite's limit). */
export function sqlPlaceholders(n: number): string {
  return new Array(n).fill('?').join(',');
}

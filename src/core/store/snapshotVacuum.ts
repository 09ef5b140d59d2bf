/**
 * When a snapshot vacuums first: free pages left by pruning would otherwise be carried by every
 * snapshot (docs/store.md, "Snapshots and compaction"). vscode-free.
 */
import type { SqlDatabase } from './sqlDatabase';

/**
 * Free pages at or above this share of the database (and at least VACUUM_MIN_FREE_PAGES) make a
 * snapshot vacuum first. Below it SQLite reuses them soon enough; a VACUUM costs about as much as
 * rebuilding every table and index (docs/store.md, "Measured"), so it is not run on every snapshot.
 */
export const VACUUM_FREE_FRACTION = 0.1;
export const VACUUM_MIN_FREE_PAGES = 64;

export function worthVacuuming(db: SqlDatabase): boolean {
  const free = db.get<{ freelist_count: number }>('PRAGMA freelist_count')?.freelist_count ?? 0;
  if (free < VACUUM_MIN_FREE_PAGES) return false;
  const pages = db.get<{ page_count: number }>('PRAGMA page_count')?.page_count ?? 0;
  return pages > 0 && free / pages >= VACUUM_FREE_FRACTION;
}

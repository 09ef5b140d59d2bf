/**
 * When a snapshot vacuums first: free pages left by pruning would otherwise be carried by every
 * snapshot (docs/store.md, "Snapshots and compaction"). vscode-free.
 */
import { reclaimableShare } from './imagePages';
import type { SqlDatabase } from './sqlDatabase';

/**
 * Free pages at or above this share of the database (and at least VACUUM_MIN_FREE_PAGES) make a
 * snapshot vacuum first. Below it SQLite reuses them soon enough; a VACUUM costs about as much as
 * rebuilding every table and index (docs/store.md, "Measured"), so it is not run on every snapshot.
 */
export const VACUUM_FREE_FRACTION = 0.1;
export const VACUUM_MIN_FREE_PAGES = 64;

/**
 * An explicit compaction (`maintain compact-store`) vacuums when a VACUUM would give back at least
 * this share of the exported image: free pages plus the whole pages the unused bytes of each
 * b-tree add up to (imagePages.ts). Page splits leave half-empty pages (an index filled in key
 * order, such as created_at, stays about half full) that freelist_count does not see: a 10k store
 * filled through `ingest` had 1 free page and 12.7 % reclaimable by this estimate, and VACUUM took it from 32.7 to
 * 29.3 MB, 10.3 % (docs/store.md, "Snapshots and compaction").
 */
export const COMPACT_RECLAIMABLE_FRACTION = 0.1;

/** Whether a compaction should vacuum, judged on the image it would otherwise write (imagePages.ts). */
export function worthCompacting(db: SqlDatabase, image: Uint8Array): boolean {
  const roots = db.all<{ rootpage: number }>('SELECT rootpage FROM sqlite_schema WHERE rootpage > 0').map((r) => r.rootpage);
  return reclaimableShare(image, roots) >= COMPACT_RECLAIMABLE_FRACTION;
}

export function worthVacuuming(db: SqlDatabase): boolean {
  const free = db.get<{ freelist_count: number }>('PRAGMA freelist_count')?.freelist_count ?? 0;
  if (free < VACUUM_MIN_FREE_PAGES) return false;
  const pages = db.get<{ page_count: number }>('PRAGMA page_count')?.page_count ?? 0;
  return pages > 0 && free / pages >= VACUUM_FREE_FRACTION;
}

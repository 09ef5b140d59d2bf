/**
 * Which memories take part in team memory, and whose they are, for the surfaces that mark them
 * (the graph tree, the Knowledge panel; docs/team.md "In VS Code"). A memory is marked when it is
 * a teammate's replica (team_shares origin 'remote', also when it merged into a local memory with
 * the same text through `local_id`) or one of this store's own memories that is currently shared
 * (origin 'local', state 'shared'). Personal, tombstoned and refused rows are not marked.
 */
import type { SqlReader } from '../store/storeTypes';

export interface TeamMark {
  /** The PostgreSQL role that wrote it; for this store's own memories, the role it connected as (null before a connect). */
  readonly author: string | null;
  /** True for this store's own shared memories, false for a teammate's replica. */
  readonly mine: boolean;
}

/** SQLite's default bound on parameters is 999 (older builds); stay well below it. */
const CHUNK = 400;

/** Team marks of the given memories, keyed by memory id; memories without a mark are absent. */
export function teamMarks(db: SqlReader, memoryIds: readonly string[]): Map<string, TeamMark> {
  const marks = new Map<string, TeamMark>();
  if (memoryIds.length === 0) return marks;
  const role = db.get<{ value: string }>("SELECT value FROM team_state WHERE key = 'role'")?.value ?? null;
  const ids = [...new Set(memoryIds)];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const p = part.map(() => '?').join(',');
    const rows = db.all<{ memory_id: string; local_id: string | null; origin: string; author: string | null }>(
      `SELECT memory_id, local_id, origin, author FROM team_shares
        WHERE state = 'shared' AND (memory_id IN (${p}) OR local_id IN (${p}))`, [...part, ...part]);
    for (const r of rows) {
      if (r.origin === 'local') {
        marks.set(r.memory_id, { author: role, mine: true });
      } else {
        const target = r.local_id ?? r.memory_id;
        // This store's own sharing of the same text wins: the row is its author's first.
        if (!marks.get(target)?.mine) marks.set(target, { author: r.author, mine: false });
      }
    }
  }
  return marks;
}

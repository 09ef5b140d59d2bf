/**
 * The memory columns recall works with (the candidates' hydration), read in one place: the lexical
 * arm selects them with its rows, so hydration reads only the memories the other arms found
 * (docs/store.md, "Recall latency, fourth round").
 */
import type { SqlReader } from '../store/storeTypes';
import { filterClause } from './recallFilter';
import type { MemoryFilter } from './recallFilter';

/** `who`: the memory's author (speaker, agent or role), read with the rest so the stages that ask whose a memory is need no read of their own. */
export interface MemoryRow { id: string; content: string; type: string; created_at: string; source_id: string | null; importance: number; who: string | null }

/** The select list of a MemoryRow over `memories m`. */
export const MEMORY_ROW_COLUMNS = 'm.id AS id, m.content AS content, m.type AS type, m.created_at AS created_at, m.source_id AS source_id, m.importance AS importance, m.who AS who';

/**
 * The rows of `ids` that pass `filter`, into `out` (ids already there are not read again). The ids
 * travel as one JSON array parameter: binding hundreds of parameters one by one cost more than
 * the lookups.
 */
export function hydrateInto(db: SqlReader, ids: readonly string[], filter: MemoryFilter, out: Map<string, MemoryRow>): Map<string, MemoryRow> {
  const missing = ids.filter((id) => !out.has(id));
  if (missing.length === 0) return out;
  const f = filterClause(filter);
  for (const r of db.all<MemoryRow>(
    `SELECT ${MEMORY_ROW_COLUMNS} FROM memories m WHERE m.id IN (SELECT value FROM json_each(?)) AND ${f.sql}`, [JSON.stringify(missing), ...f.params])) out.set(r.id, r);
  return out;
}

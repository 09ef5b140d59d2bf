import { buildMatchExpression } from '../recall/ftsQuery';
import type { SqlReader } from '../store/storeTypes';
import { SETTLED_INDEX } from '../store/schema/settledIndexSchema';
import { analyseMemory, detectMemorySupersession, supersessionRole } from './memorySupersession';
import type { MemorySupersessionFinding } from './memorySupersession';

/** Most earlier memories one new memory is compared with (the best lexical matches). */
export const SCAN_CANDIDATES = 40;
/** Most words of the new memory that go into the candidate query. */
const QUERY_WORDS = 16;

/**
 * The memory-level supersessions one memory takes part in, against the memories of the same agent
 * and project that share its words (FTS5 OR queries, best `SCAN_CANDIDATES` by bm25). Runs inside
 * the extract job's write, after the memory is marked extracted, so of any pair the memory that is
 * extracted last sees the other. Pure reads; the caller applies the findings.
 *
 * Two searches, each only where a finding can be (supersessionRole, memorySupersession.ts):
 * - as the NEWER side (a memory that names what it replaces, or carries a setting): older memories
 *   holding a word of what it replaces or one of its setting keys, which every finding needs;
 * - as the OLDER side: newer memories, only when a newer one has settled (extracted, failed, or
 *   never queued) — a newer memory still pending will find this one in its own scan. During an
 *   ingest in time order none has, so the search (an OR over common words that scored every row
 *   holding one: most of an ingest's CPU at 10k) is skipped; `SETTLED_INDEX` answers at once.
 * Same findings as the all-pairs `findMemorySupersessions` whatever the extraction order
 * (test/unit/graph/memorySupersessionWrites.test.ts).
 */
export function memorySupersessionsFor(db: SqlReader, memoryId: string, limit = SCAN_CANDIDATES): MemorySupersessionFinding[] {
  const mem = db.get<{ id: string; type: string; content: string; created_at: string; agent_id: string; project: string | null; is_deleted: number }>(
    'SELECT id, type, content, created_at, agent_id, project, is_deleted FROM memories WHERE id = ?', [memoryId]);
  if (!mem || mem.is_deleted) return [];
  const self = analyseMemory({ id: mem.id, type: mem.type, content: mem.content, createdAt: mem.created_at });
  const role = supersessionRole(self);
  if (role === 'never') return [];
  const out = new Map<string, MemorySupersessionFinding>();
  const compare = (match: string | undefined, side: 'older' | 'newer'): void => {
    if (!match) return;
    for (const r of candidates(db, mem, match, limit)) {
      if (side === 'older' ? r.created_at >= mem.created_at : r.created_at <= mem.created_at) continue;
      const f = detectMemorySupersession(self, analyseMemory({ id: r.id, type: r.type, content: r.content, createdAt: r.created_at }));
      if (f) out.set(`${f.olderId}>${f.newerId}`, f);
    }
  };
  // As the newer side: the rows holding what a finding needs, a setting key or a word of what it
  // replaces. (Ranking them by all its words, `(needed) AND (all)`, cost 2.6 times as much at 10k.)
  if (role === 'any') compare(buildMatchExpression([...new Set([...self.settings.keys(), ...self.replaced.flatMap((p) => [...p])])].slice(0, QUERY_WORDS), 'OR'), 'older');
  if (hasSettledNewer(db, mem)) compare(buildMatchExpression([...new Set([...self.settings.keys(), ...self.words])].slice(0, QUERY_WORDS), 'OR'), 'newer');
  return [...out.values()];
}

type Row = { id: string; type: string; content: string; created_at: string };

/** Whether a newer memory of the same agent and project has settled (its own scan ran, or never will). */
function hasSettledNewer(db: SqlReader, mem: { created_at: string; agent_id: string; project: string | null }): boolean {
  return db.get(`SELECT 1 AS x FROM memories INDEXED BY ${SETTLED_INDEX}
    WHERE extraction_status <> 'pending' AND created_at > ? AND agent_id = ? AND project IS ? AND is_deleted = 0 LIMIT 1`, [mem.created_at, mem.agent_id, mem.project]) !== undefined;
}

/** The best `limit` live memories of the agent and project for an FTS5 MATCH expression, by bm25. */
function candidates(db: SqlReader, mem: { id: string; agent_id: string; project: string | null }, match: string, limit: number): Row[] {
  return db.all<Row>(
    `SELECT m.id AS id, m.type AS type, m.content AS content, m.created_at AS created_at
       FROM (SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?) f
       JOIN memories m ON m.rowid = f.rowid
      WHERE m.id <> ? AND m.is_deleted = 0 AND m.agent_id = ? AND m.project IS ?
      ORDER BY f.rank`, [match, limit, mem.id, mem.agent_id, mem.project]);
}

import { buildMatchExpression } from '../recall/ftsQuery';
import type { SqlReader } from '../store/storeTypes';
import { analyseMemory, detectMemorySupersession, supersessionRole } from './memorySupersession';
import type { MemorySupersessionFinding } from './memorySupersession';

/** Most earlier memories one new memory is compared with (the best lexical matches). */
export const SCAN_CANDIDATES = 40;
/** Most words of the new memory that go into the candidate query. */
const QUERY_WORDS = 16;

/**
 * The memory-level supersessions one memory takes part in, against the memories of the same agent
 * and project that share its words (an FTS5 OR query over its significant words and setting keys,
 * best `SCAN_CANDIDATES` by bm25). Runs inside the extract job's write, so the store sees both
 * memories whichever of them is extracted last. Pure reads; the caller applies the findings.
 */
export function memorySupersessionsFor(db: SqlReader, memoryId: string, limit = SCAN_CANDIDATES): MemorySupersessionFinding[] {
  const mem = db.get<{ id: string; type: string; content: string; created_at: string; agent_id: string; project: string | null; is_deleted: number }>(
    'SELECT id, type, content, created_at, agent_id, project, is_deleted FROM memories WHERE id = ?', [memoryId]);
  if (!mem || mem.is_deleted) return [];
  const self = analyseMemory({ id: mem.id, type: mem.type, content: mem.content, createdAt: mem.created_at });
  // A memory that names nothing it replaces and carries no setting can only be superseded by a
  // NEWER memory (supersessionRole); ingesting in time order, there is usually none yet, and the
  // candidate query (an FTS5 OR over common words: most of an ingest's CPU at 10k) is skipped.
  // Same findings as without the shortcut (test/unit/graph/memorySupersessionWrites.test.ts).
  const role = supersessionRole(self);
  if (role === 'never') return [];
  if (role === 'olderOnly' && !db.get('SELECT 1 AS x FROM memories WHERE agent_id = ? AND project IS ? AND created_at > ? AND is_deleted = 0 LIMIT 1', [mem.agent_id, mem.project, mem.created_at])) return [];
  const words = [...new Set([...self.settings.keys(), ...self.words])].slice(0, QUERY_WORDS);
  const match = buildMatchExpression(words, 'OR');
  if (!match) return [];
  const rows = db.all<{ id: string; type: string; content: string; created_at: string }>(
    `SELECT m.id AS id, m.type AS type, m.content AS content, m.created_at AS created_at
       FROM (SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?) f
       JOIN memories m ON m.rowid = f.rowid
      WHERE m.id <> ? AND m.is_deleted = 0 AND m.agent_id = ? AND m.project IS ?
      ORDER BY f.rank`, [match, limit, mem.id, mem.agent_id, mem.project]);
  const out: MemorySupersessionFinding[] = [];
  for (const r of rows) {
    if (role === 'olderOnly' && r.created_at <= mem.created_at) continue;
    const f = detectMemorySupersession(self, analyseMemory({ id: r.id, type: r.type, content: r.content, createdAt: r.created_at }));
    if (f) out.push(f);
  }
  return out;
}

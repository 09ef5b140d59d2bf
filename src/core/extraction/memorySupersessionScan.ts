import { buildMatchExpression } from '../recall/ftsQuery';
import { porterStem } from '../recall/porterStemmer';
import { uncachedTermStats } from '../recall/termStats';
import { candidateTerms } from '../recall/termProbe';
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
 * The query runs only where a finding can be (supersessionRole, memorySupersession.ts):
 * - as the NEWER side, for a memory that names what it replaces or carries a setting: older
 *   candidates are compared;
 * - as the OLDER side, only when a newer memory has settled (extracted, failed, or never queued):
 *   a newer memory still pending will find this one in its own scan. During an ingest in time
 *   order none has, so a memory that can only be superseded skips the query (an OR over common
 *   words that scored every row holding one: most of an ingest's CPU at 10k); `SETTLED_INDEX`
 *   answers at once.
 * Same findings as the all-pairs `findMemorySupersessions` whatever the extraction order
 * (test/unit/graph/memorySupersessionWrites.test.ts).
 */
export function memorySupersessionsFor(db: SqlReader, memoryId: string, wordCounts: ScanWordCounts = new ScanWordCounts(), limit = SCAN_CANDIDATES): MemorySupersessionFinding[] {
  const mem = db.get<{ id: string; type: string; content: string; created_at: string; agent_id: string; project: string | null; is_deleted: number }>(
    'SELECT id, type, content, created_at, agent_id, project, is_deleted FROM memories WHERE id = ?', [memoryId]);
  if (!mem || mem.is_deleted) return [];
  const self = analyseMemory({ id: mem.id, type: mem.type, content: mem.content, createdAt: mem.created_at });
  const role = supersessionRole(self);
  if (role === 'never') return [];
  // As the NEWER side (it names what it replaces, or carries a setting) it compares with older
  // candidates; as the OLDER side with newer ones only when a newer memory has settled.
  const asNewer = role === 'any';
  const asOlder = hasSettledNewer(db, mem);
  if (!asNewer && !asOlder) return [];
  // One candidate query for both sides: the best matches of all its words and setting keys. (Only
  // the rows holding what a finding needs, ranked by those words alone, missed most pairs at 10k:
  // 475 superseded memories against 2,476; ranked by all words within them cost 2.6 times as much.)
  const match = buildMatchExpression(withoutCommonWords(db, [...new Set([...self.settings.keys(), ...self.words])], wordCounts).slice(0, QUERY_WORDS), 'OR');
  const out = new Map<string, MemorySupersessionFinding>();
  for (const r of match ? candidates(db, mem, match, limit) : []) {
    if (r.created_at < mem.created_at ? !asNewer : r.created_at > mem.created_at ? !asOlder : true) continue;
    const f = detectMemorySupersession(self, analyseMemory({ id: r.id, type: r.type, content: r.content, createdAt: r.created_at }));
    if (f) out.set(`${f.olderId}>${f.newerId}`, f);
  }
  return [...out.values()];
}

type Row = { id: string; type: string; content: string; created_at: string };

/** Above this share of the memories a word is left out of the candidate query (recall's rule: lexical.commonTermFraction). */
const COMMON_WORD_FRACTION = 0.1;
/** Below this many memories every word stays (recall's lexical.commonTermMinDocs). */
const COMMON_WORD_MIN_DOCS = 1000;

/**
 * The words without the very common ones, as recall's lexical arm does (termProbe.ts
 * candidateTerms, document counts from memories_fts_vocab): a word held by a tenth of the store
 * barely changes which memories rank first, but made FTS5 score every row holding it (at 10k the
 * supersession scan cost more than the rest of an ingest's main thread). The store's size is read
 * as its largest rowid, an upper bound that costs one index step.
 */
function withoutCommonWords(db: SqlReader, words: readonly string[], counts: ScanWordCounts): string[] {
  const total = db.get<{ n: number | null }>('SELECT MAX(rowid) AS n FROM memories')?.n ?? 0;
  if (total <= COMMON_WORD_MIN_DOCS) return [...words];
  const docs = new Map(words.map((w) => [w, counts.docCount(db, porterStem(w), total)]));
  return candidateTerms(words, docs, total, COMMON_WORD_FRACTION, COMMON_WORD_MIN_DOCS);
}

/** Share of the store's size it may grow or shrink by before kept word counts are read again. */
const COUNTS_TOLERANCE = 0.02;
/** Kept word counts at most; past this the keeper starts over. */
const MAX_KEPT_WORDS = 20_000;

/**
 * Document counts of words for the common-word rule above, kept across extract jobs (one keeper per
 * extract handler) while the store's size stays within 2 % (at least 64 memories) of the size they
 * were read at. Reading a count walks the word's whole doclist in memories_fts_vocab, so reading
 * every word of every memory afresh was a tenth of an ingest's main thread at 10k
 * (docs/store.md, "Ingest throughput, third round"). The rule only decides which words go into a
 * candidate query, so a count that is a little stale can move a word near the tenth in or out, and
 * nothing else; a bulk ingest inserts every memory before extracting any, so there the counts are
 * exact for the whole extraction.
 */
export class ScanWordCounts {
  private readonly docs = new Map<string, number>();
  private readAt = -1;

  docCount(db: SqlReader, indexTerm: string, total: number): number {
    if (Math.abs(total - this.readAt) > Math.max(64, this.readAt * COUNTS_TOLERANCE) || this.docs.size >= MAX_KEPT_WORDS) {
      this.docs.clear();
      this.readAt = total;
    }
    let n = this.docs.get(indexTerm);
    if (n === undefined) {
      n = uncachedTermStats.docCount(db, indexTerm);
      this.docs.set(indexTerm, n);
    }
    return n;
  }
}

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

/**
 * The lexical arm and the hints arm over FTS5.
 * Probing: candidates come from one OR query over the Latin terms (bm25 over
 * memories_fts) plus, for CJK terms, an instr() probe over live memories (unicode61 keeps a CJK run
 * as one token, so FTS cannot find a CJK word inside a sentence; see bench/recall.ts for its cost).
 * Each candidate's hits are counted over all terms, the hit rule filters (majority up to
 * lexical.majorityUpTo terms, so a two-term query must hit both), and the channel score blends the
 * hit ranking (hits − 1 + bm25Norm) / terms with normalised bm25 by lexical.hitWeight.
 * Without probing: one bm25 query, AND for ≤ 3 terms, else OR.
 * CJK method: probing, not a trigram index. A trigram index only matches terms of 3+ characters,
 * while most Chinese words are two characters; the instr() probe handles both (bench/recall.ts
 * measures its cost against a trigram table at each store size). The probe scans memories_cjk
 * (migration 21, trigger-kept: only memories containing CJK), not every memory.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { SqlReader, SqlValue } from '../store/storeTypes';
import { bm25TopK } from './bm25TopK';
import { buildMatchExpression, plainOperator } from './ftsQuery';
import { indexableTerm, indexTermOf } from './lexicalIndex';
import type { LexicalIndex } from './lexicalIndex';
import { porterStem } from './porterStemmer';
import { hasCjk } from './queryTerms';
import { MEMORY_ROW_COLUMNS } from './memoryRows';
import type { MemoryRow } from './memoryRows';
import { filterClause } from './recallFilter';
import type { MemoryFilter } from './recallFilter';
import { candidateTerms, countHits, normaliseBm25, probedLexicalScore, requiredHits, weightedLexicalScore } from './termProbe';
import { uncachedTermStats } from './termStats';
import type { TermStats } from './termStats';

export interface LexicalHit {
  readonly score: number;
  readonly hits: number;
  readonly termCount: number;
}

interface RawRow extends MemoryRow { rank: number }

export function ftsRows(db: SqlReader, match: string, filter: MemoryFilter, limit: number): RawRow[] {
  const f = filterClause(filter);
  // Top rowids from FTS alone first, then the join and filter on that small set: joining before
  // the sort would fetch every matching row (thousands for common words). Filters that can drop
  // many rows (project, time window) widen the inner window.
  const inner = limit * (filter.project !== undefined || filter.since !== undefined || filter.until !== undefined ? 4 : 1) + 20;
  return db.all<RawRow>(
    `SELECT ${MEMORY_ROW_COLUMNS}, f.rank AS rank
       FROM (SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?) f
       JOIN memories m ON m.rowid = f.rowid
      WHERE ${f.sql}
      ORDER BY f.rank LIMIT ?`, [match, inner, ...f.params, limit]);
}

/**
 * ftsRows for an OR of plain terms, answered by the in-memory index (lexicalIndex.ts, bm25TopK.ts):
 * the same top rows by the same bm25 as `ORDER BY rank`, then the same join and filter. Undefined
 * when the index cannot answer (a term of another shape, or the index out of step), so the caller
 * asks FTS5.
 */
function indexRows(db: SqlReader, index: LexicalIndex, terms: readonly string[], filter: MemoryFilter, limit: number): RawRow[] | undefined {
  if (terms.length === 0 || !terms.every(indexableTerm) || !index.current(db)) return undefined;
  const inner = limit * (filter.project !== undefined || filter.since !== undefined || filter.until !== undefined ? 4 : 1) + 20;
  const top = bm25TopK(index, terms.map(indexTermOf), inner);
  if (top.length === 0) return [];
  const f = filterClause(filter);
  const rows = db.all<MemoryRow & { rid: number }>(
    `SELECT m.rowid AS rid, ${MEMORY_ROW_COLUMNS} FROM memories m
      WHERE m.rowid IN (SELECT value FROM json_each(?)) AND ${f.sql}`, [JSON.stringify(top.map((t) => t.rowid)), ...f.params]);
  const byRowid = new Map(rows.map((r) => [r.rid, r]));
  const out: RawRow[] = [];
  for (const t of top) {
    const r = byRowid.get(t.rowid);
    // FTS5's bm25() is negative, lower is better: the rank the arm normalises.
    if (r) out.push({ ...r, rank: -t.score });
    if (out.length >= limit) break;
  }
  return out;
}

function cjkRows(db: SqlReader, cjkTerms: readonly string[], filter: MemoryFilter, limit: number): RawRow[] {
  if (cjkTerms.length === 0) return [];
  const f = filterClause(filter);
  // memories_cjk (migration 21) holds only CJK-bearing memories: the instr() scan covers those,
  // and only rows with a hit are joined to memories for the filter.
  const hitSql = cjkTerms.map(() => '(instr(c.content, ?) > 0)').join(' + ');
  return db.all<RawRow>(
    `SELECT ${MEMORY_ROW_COLUMNS}, 0 AS rank
       FROM (SELECT memory_rowid, hits FROM (SELECT c.memory_rowid AS memory_rowid, (${hitSql}) AS hits FROM memories_cjk c) WHERE hits > 0) h
       JOIN memories m ON m.rowid = h.memory_rowid
      WHERE ${f.sql}
      ORDER BY h.hits DESC, m.created_at DESC LIMIT ?`, [...cjkTerms as SqlValue[], ...f.params, limit]);
}

/**
 * Latin terms for the candidate query: very common terms (lexical.commonTermFraction of the
 * memories, counted by memories_fts_vocab, migration 22) are left to the hit count.
 */
function latinCandidateTerms(db: SqlReader, latin: readonly string[], cfg: SearchConfig, stats: TermStats): string[] {
  if (latin.length < 2 || cfg.lexical.commonTermFraction >= 1) return [...latin];
  const total = stats.memoryCount(db);
  if (total <= cfg.lexical.commonTermMinDocs) return [...latin];
  const docs = new Map<string, number>();
  // The vocabulary holds index terms, stemmed since migration 23.
  for (const t of latin) docs.set(t, stats.docCount(db, porterStem(t)));
  return candidateTerms(latin, docs, total, cfg.lexical.commonTermFraction, cfg.lexical.commonTermMinDocs);
}

/**
 * How much each term tells memories apart in this store: ln(N / df) / ln(N) in [0, 1] from
 * memories_fts_vocab (index terms, so stemmed), a term no memory holds 1, CJK terms 1 (not in the
 * index). A speaker's name held by half a conversation weighs ~0.1, a rare word ~1.
 */
export function termWeights(db: SqlReader, terms: readonly string[], stats: TermStats = uncachedTermStats): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of terms) out.set(t, 1);
  const latin = terms.filter((t) => !hasCjk(t));
  if (latin.length === 0) return out;
  const total = stats.memoryCount(db);
  if (total < 2) return out;
  for (const t of latin) {
    const df = stats.docCount(db, porterStem(t));
    out.set(t, df <= 0 ? 1 : Math.min(1, Math.max(0, Math.log(total / df) / Math.log(total))));
  }
  return out;
}

/**
 * Lexical channel per memory id. `terms` come from queryTerms(); `stats` may be the store's cached
 * term statistics (termStats.ts: recall passes them, so their reads run once between writes);
 * `index` the store's in-memory lexical index (lexicalIndex.ts), which then ranks the candidates.
 * `rowsOut` receives every memory row the arm read (each passed the filter), for hydration.
 */
export function lexicalSearch(db: SqlReader, terms: readonly string[], filter: MemoryFilter, cfg: SearchConfig, stats: TermStats = uncachedTermStats, index?: LexicalIndex, rowsOut?: Map<string, MemoryRow>): Map<string, LexicalHit> {
  const out = new Map<string, LexicalHit>();
  if (terms.length === 0) return out;
  const limit = cfg.topK * cfg.lexical.candidateFactor;
  if (!cfg.lexical.probing) {
    const match = buildMatchExpression(terms, plainOperator(terms.length));
    if (!match) return out;
    const rows = ftsRows(db, match, filter, cfg.topK);
    if (rowsOut) for (const r of rows) rowsOut.set(r.id, r);
    const norm = normaliseBm25(rows.map((r) => r.rank));
    rows.forEach((r, i) => out.set(r.id, { score: norm[i] as number, hits: countHits(terms, r.content), termCount: terms.length }));
    return out;
  }
  const latin = terms.filter((t) => !hasCjk(t));
  const cjk = terms.filter((t) => hasCjk(t));
  const candidates = latinCandidateTerms(db, latin, cfg, stats);
  const match = buildMatchExpression(candidates, 'OR');
  // The in-memory index answers plain terms (lexicalIndex.ts); FTS5 everything else.
  const fts = match ? (index ? indexRows(db, index, candidates, filter, limit) : undefined) ?? ftsRows(db, match, filter, limit) : [];
  const norm = normaliseBm25(fts.map((r) => r.rank));
  const bm25ById = new Map<string, number>();
  fts.forEach((r, i) => bm25ById.set(r.id, norm[i] as number));
  const need = requiredHits(terms.length, cfg.lexical.majorityUpTo, cfg.lexical.longQueryMinHits);
  const weights = cfg.lexical.idfHits && terms.length > 1 ? termWeights(db, terms, stats) : undefined;
  const weightSum = weights ? [...weights.values()].reduce((a, b) => a + b, 0) : 0;
  const scored: Array<[string, LexicalHit]> = [];
  const seen = new Set<string>();
  for (const r of [...fts, ...cjkRows(db, cjk, filter, limit)]) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    rowsOut?.set(r.id, r);
    const hits = countHits(terms, r.content);
    if (hits < need) continue;
    // A CJK-only candidate has no bm25; it ranks by hits alone (bm25Norm 1 within its hit count).
    const b = bm25ById.get(r.id) ?? 1;
    const score = weights && weightSum > 0
      ? weightedLexicalScore(terms.filter((t) => countHits([t], r.content) > 0).reduce((a, t) => a + (weights.get(t) ?? 1), 0) / weightSum, b, cfg.lexical.hitWeight)
      : probedLexicalScore(hits, terms.length, b, cfg.lexical.hitWeight);
    scored.push([r.id, { score, hits, termCount: terms.length }]);
  }
  scored.sort((a, b) => b[1].score - a[1].score);
  for (const [id, hit] of scored.slice(0, limit)) out.set(id, hit);
  return out;
}

/**
 * Hints channel per memory id: memory_hints_fts over the same terms (OR), bm25 normalised per
 * query, the majority-hit rule on the hint text, several hints of one memory merged by max.
 */
export function hintSearch(db: SqlReader, terms: readonly string[], filter: MemoryFilter, cfg: SearchConfig): Map<string, number> {
  const out = new Map<string, number>();
  if (terms.length === 0) return out;
  const match = buildMatchExpression(terms.filter((t) => !hasCjk(t)), 'OR');
  if (!match) return out;
  // A store without hints (none written yet) answers from one primary-key row instead of
  // preparing and running an FTS5 query for nothing.
  if (!db.get('SELECT 1 AS found FROM memory_hints LIMIT 1')) return out;
  const f = filterClause(filter);
  const rows = db.all<{ id: string; hint: string; rank: number }>(
    `SELECT h.memory_id AS id, h.hint AS hint, bm25(memory_hints_fts) AS rank
       FROM memory_hints_fts JOIN memory_hints h ON h.rowid = memory_hints_fts.rowid JOIN memories m ON m.id = h.memory_id
      WHERE memory_hints_fts MATCH ? AND ${f.sql}
      ORDER BY rank LIMIT ?`, [match, ...f.params, cfg.topK * cfg.lexical.candidateFactor]);
  const norm = normaliseBm25(rows.map((r) => r.rank));
  const need = requiredHits(terms.length, cfg.lexical.majorityUpTo, cfg.lexical.longQueryMinHits);
  rows.forEach((r, i) => {
    const hits = countHits(terms, r.hint);
    if (hits < need) return;
    const s = probedLexicalScore(hits, terms.length, norm[i] as number, cfg.lexical.hitWeight);
    out.set(r.id, Math.max(out.get(r.id) ?? 0, s));
  });
  return out;
}

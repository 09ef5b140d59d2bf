/**
 * Term probing (docs/recall-design.md, "Term probing"), the pure part: which terms a candidate hits, the majority-hit rule and the
 * lexical channel score. Latin terms hit whole tokens after Porter stemming (as memories_fts,
 * 'porter unicode61' since migration 23, matches them); CJK terms hit substrings (unicode61 keeps
 * a CJK run as one token, so a CJK term is probed with instr()).
 */
import { porterStem } from './porterStemmer';
import { contentTokens, hasCjk } from './queryTerms';

const TOKENS_CACHE = new Map<string, Set<string>>();
/**
 * Contents whose tokens are kept. A query's lexical arm alone counts hits in a hundred candidates;
 * at 2,000 the cache was emptied every few dozen queries of a 10k store and re-stemming was a
 * third of the arm (docs/store.md, "Recall latency, fourth round"). ~1 KB each.
 */
const TOKENS_CACHE_MAX = 8_000;
const TERMS_CACHE_MAX = 2_000;

/**
 * Content tokens reduced as the index reduces them. The most recently added contents are kept
 * (when full, the oldest quarter goes): one query asks for the same candidate's tokens once per
 * stage and facet, and the next query's candidates overlap its own.
 */
export function stemmedTokens(content: string): Set<string> {
  const hit = TOKENS_CACHE.get(content);
  if (hit) return hit;
  const out = new Set<string>();
  for (const t of contentTokens(content)) out.add(porterStem(t));
  if (TOKENS_CACHE.size >= TOKENS_CACHE_MAX) {
    let drop = TOKENS_CACHE_MAX / 4;
    for (const key of TOKENS_CACHE.keys()) { TOKENS_CACHE.delete(key); if (--drop <= 0) break; }
  }
  TOKENS_CACHE.set(content, out);
  return out;
}

/** Majority-hit rule: more than half of the terms, so a two-term query must hit both. */
export function minHits(termCount: number): number {
  return termCount <= 0 ? 0 : Math.floor(termCount / 2) + 1;
}

/**
 * Hits a candidate needs: the majority rule for queries of up to `majorityUpTo` terms (so a
 * two-term query must hit both); longer, sentence-like questions need `longMin` hits (capped by
 * the majority), because most of their words never appear in the answer (measured on the dev set).
 */
export function requiredHits(termCount: number, majorityUpTo: number, longMin: number): number {
  const majority = minHits(termCount);
  return termCount <= majorityUpTo ? majority : Math.min(majority, Math.max(1, longMin));
}

const TERM_STEMS = new Map<string, string>();

/** A query term's stem: countHits asks for the same few terms once per candidate, stage and facet. */
function termStem(term: string): string {
  let s = TERM_STEMS.get(term);
  if (s === undefined) {
    s = porterStem(term);
    if (TERM_STEMS.size >= TERMS_CACHE_MAX) TERM_STEMS.clear();
    TERM_STEMS.set(term, s);
  }
  return s;
}

/** Number of `terms` that occur in `content` (Latin terms compared by their Porter stem). */
export function countHits(terms: readonly string[], content: string): number {
  // Both forms are made on first need: most queries have no CJK term, and normalising every
  // candidate's text for nothing was a tenth of the lexical arm.
  let lower: string | undefined;
  let tokens: Set<string> | undefined;
  let hits = 0;
  for (const t of terms) {
    if (hasCjk(t)) { lower ??= content.normalize('NFKC').toLowerCase(); if (lower.includes(t)) hits++; continue; }
    tokens ??= stemmedTokens(content);
    if (tokens.has(termStem(t))) hits++;
  }
  return hits;
}

/**
 * bm25 normalised per query: |raw| / max |raw| over the batch, so the
 * best match is 1. FTS5 bm25() is negative, lower is better. An empty or all-zero batch gives 0s.
 */
export function normaliseBm25(raw: readonly number[]): number[] {
  let max = 0;
  for (const r of raw) max = Math.max(max, Math.abs(r));
  return raw.map((r) => (max > 0 ? Math.abs(r) / max : 0));
}

/**
 * The lexical channel with probing: (hits − 1 + bm25Norm) / termCount. A candidate hitting more
 * terms always outranks one hitting fewer (bm25Norm ≤ 1 only orders within the same hit count);
 * with one term it is plain normalised bm25. `hitWeight` < 1 blends in plain normalised bm25
 * (hitWeight · probed + (1 − hitWeight) · bm25Norm), letting rare-term (high idf) matches compete.
 */
export function probedLexicalScore(hits: number, termCount: number, bm25Norm: number, hitWeight = 1): number {
  if (termCount <= 0 || hits <= 0) return 0;
  const b = Math.min(1, Math.max(0, bm25Norm));
  return hitWeight * ((hits - 1 + b) / termCount) + (1 - hitWeight) * b;
}

/**
 * The lexical channel with idf-weighted probing: hitWeight · (weight of the terms hit / weight of
 * all terms) + (1 − hitWeight) · bm25Norm. Hitting a speaker's name and a common verb no longer
 * counts like hitting the one rare word the question is about.
 */
export function weightedLexicalScore(weightedCoverage: number, bm25Norm: number, hitWeight: number): number {
  const cov = Math.min(1, Math.max(0, weightedCoverage));
  const b = Math.min(1, Math.max(0, bm25Norm));
  return hitWeight * cov + (1 - hitWeight) * b;
}

/**
 * Terms that generate FTS candidates: a term is common when more than `fraction` × `total`
 * memories and more than `minDocs` memories hold it (`docs`: term → memories holding it; missing
 * = 0), and common terms are dropped. When no remaining term is held by any memory (so no
 * candidates would come back), or `fraction` ≥ 1, all terms stay. Order kept.
 */
export function candidateTerms(terms: readonly string[], docs: ReadonlyMap<string, number>, total: number, fraction: number, minDocs = 0): string[] {
  if (fraction >= 1 || total <= 0 || terms.length < 2) return [...terms];
  const df = (t: string): number => docs.get(t) ?? 0;
  const kept = terms.filter((t) => df(t) <= fraction * total || df(t) <= minDocs);
  return kept.some((t) => df(t) > 0) ? kept : [...terms];
}

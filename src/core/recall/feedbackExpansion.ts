/**
 * Pseudo-relevance feedback for the lexical arm (RM3-style; docs/recall-design.md, "Feedback"):
 * the words that the best lexical hits share, weighed by those hits' scores and by how rare each
 * word is in the store, become a second FTS query; its normalised bm25 is blended into the lexical
 * channel, `lexical' = (1 − weight) · lexical + weight · feedback`. A memory that answers a question
 * in other words than the question's, but in the words of the turns around the best match, is
 * then found lexically.
 *
 * `feedbackTerms` and `blendFeedback` are the pure parts; `feedbackLexical` reads the store.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { SqlReader } from '../store/storeTypes';
import type { LexicalHit } from './lexicalArm';
import { ftsRows, termWeights } from './lexicalArm';
import { buildMatchExpression } from './ftsQuery';
import { porterStem } from './porterStemmer';
import { contentTokens, STOP_WORDS } from './queryTerms';
import type { MemoryFilter } from './recallFilter';
import { normaliseBm25 } from './termProbe';

export type FeedbackConfig = SearchConfig['feedback'];

/** One feedback document: its text and its lexical score. */
export interface FeedbackDoc {
  readonly content: string;
  readonly score: number;
}

/**
 * Words (surface forms, one per Porter stem) that occur in at least `minDocs` of `docs` and are
 * not query terms, ranked by Σ over the docs holding them of (doc score / doc length), times their
 * rarity weight `weightOf` (0 = held by every memory, 1 = rare); the best `count` with a positive
 * weight. Words of fewer than 3 letters, stop words and numbers are never feedback.
 */
export function feedbackTerms(docs: readonly FeedbackDoc[], query: readonly string[], weightOf: (word: string) => number, count: number, minDocs: number): string[] {
  const queryStems = new Set(query.map((t) => porterStem(t)));
  const mass = new Map<string, { word: string; docs: number; mass: number }>();
  for (const d of docs) {
    const words = [...contentTokens(d.content)].filter((w) => w.length >= 3 && !STOP_WORDS.has(w) && !/\d/.test(w));
    if (words.length === 0) continue;
    const seen = new Set<string>();
    for (const w of words) {
      const stem = porterStem(w);
      if (queryStems.has(stem) || seen.has(stem)) continue;
      seen.add(stem);
      const e = mass.get(stem) ?? { word: w, docs: 0, mass: 0 };
      e.docs++;
      e.mass += Math.max(0, d.score) / words.length;
      mass.set(stem, e);
    }
  }
  const ranked = [...mass.values()].filter((e) => e.docs >= minDocs)
    .map((e) => ({ word: e.word, value: e.mass * weightOf(e.word) }))
    .filter((e) => e.value > 0)
    .sort((a, b) => b.value - a.value || a.word.localeCompare(b.word));
  return ranked.slice(0, count).map((e) => e.word);
}

/**
 * The lexical channel with feedback blended in: every hit keeps its hits and term count, its score
 * becomes (1 − weight) · score + weight · feedback; a memory found only by feedback joins with
 * weight · feedback and no query-term hits.
 */
export function blendFeedback(lexical: ReadonlyMap<string, LexicalHit>, feedback: ReadonlyMap<string, number>, weight: number, termCount: number): Map<string, LexicalHit> {
  const out = new Map<string, LexicalHit>();
  for (const [id, hit] of lexical) out.set(id, { ...hit, score: (1 - weight) * hit.score + weight * (feedback.get(id) ?? 0) });
  for (const [id, fb] of feedback) if (!out.has(id) && fb > 0) out.set(id, { score: weight * fb, hits: 0, termCount });
  return out;
}

/** The lexical hits with feedback from the best `cfg.feedback.docs` of them (unchanged when off or nothing to add). */
export function feedbackLexical(db: SqlReader, lexical: ReadonlyMap<string, LexicalHit>, terms: readonly string[], filter: MemoryFilter, cfg: SearchConfig): Map<string, LexicalHit> {
  const fb = cfg.feedback;
  if (!fb.enabled || fb.weight <= 0 || lexical.size < fb.minDocs || terms.length === 0) return new Map(lexical);
  const top = [...lexical.entries()].sort((a, b) => b[1].score - a[1].score).slice(0, fb.docs);
  const contents = new Map<string, string>();
  for (const r of db.all<{ id: string; content: string }>(`SELECT id, content FROM memories WHERE id IN (${top.map(() => '?').join(',')})`, top.map(([id]) => id))) contents.set(r.id, r.content);
  const docs = top.flatMap(([id, hit]) => { const c = contents.get(id); return c === undefined ? [] : [{ content: c, score: hit.score }]; });
  // Rarity weights only for words that can qualify (held by minDocs of the feedback docs).
  const candidates = feedbackTerms(docs, terms, () => 1, Number.MAX_SAFE_INTEGER, fb.minDocs);
  const weights = termWeights(db, candidates);
  const expansion = feedbackTerms(docs, terms, (w) => weights.get(w) ?? 0, fb.terms, fb.minDocs);
  const match = buildMatchExpression(expansion, 'OR');
  if (!match) return new Map(lexical);
  const rows = ftsRows(db, match, filter, cfg.topK * cfg.lexical.candidateFactor);
  const norm = normaliseBm25(rows.map((r) => r.rank));
  const scores = new Map<string, number>();
  rows.forEach((r, i) => scores.set(r.id, norm[i] as number));
  return blendFeedback(lexical, scores, fb.weight, terms.length);
}

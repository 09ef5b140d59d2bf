/**
 * Speaker-aware matching (docs/recall-design.md, "Fifth round"): when a query names the author of
 * some candidates ("What does Melanie do to destress?"), the memories that person wrote are lifted
 * over those of the other speakers. A name said in half a conversation has almost no idf, so the
 * lexical arm cannot tell "Melanie said" from "Caroline said to Melanie"; the `who` column can.
 *
 * Speakers are read from the candidates only (no scan of the store): the stage applies when the
 * candidates have at least two distinct authors and the query names some but not all of them.
 * Generic roles ("user", "assistant", ...) never count as a named speaker: "what did the user
 * ask" names no one.
 */
import type { SqlReader } from '../store/storeTypes';
import { applyFactor, sortByScore } from './recallTypes';
import type { Candidate } from './recallTypes';

export interface SpeakerConfig {
  readonly enabled: boolean;
  /** Score × (1 + boost) for a memory written by a speaker the query names. */
  readonly boost: number;
}

/** Author names that are roles, not people. */
const ROLES = new Set(['user', 'assistant', 'agent', 'system', 'tool', 'bot', 'model', 'me', 'you', 'human', 'ai', 'unknown', 'default']);

/** `who` of each candidate id that has one. */
export function loadAuthors(db: SqlReader, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  for (const r of db.all<{ id: string; who: string | null }>(`SELECT id, who FROM memories WHERE id IN (${ids.map(() => '?').join(',')})`, [...ids])) {
    if (r.who) out.set(r.id, r.who);
  }
  return out;
}

/** Lower-cased words of `text` (letters and digits), possessives stripped ("Melanie's" → "melanie"). */
function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).map((w) => w.replace(/['’]s$/u, '')));
}

/** The authors among `authors` whose full name (every word of it) the query holds. */
export function namedSpeakers(query: string, authors: Iterable<string>): Set<string> {
  const q = words(query);
  const out = new Set<string>();
  for (const who of new Set(authors)) {
    const name = who.trim().toLowerCase();
    if (name.length < 2 || ROLES.has(name)) continue;
    const parts = [...words(name)];
    if (parts.length > 0 && parts.every((p) => q.has(p))) out.add(who);
  }
  return out;
}

/**
 * Lifts the candidates written by a speaker the query names; unchanged when the candidates have
 * fewer than two authors or the query names none or all of them. Re-sorted.
 */
export function applySpeakerMatch(cands: Candidate[], query: string, authors: ReadonlyMap<string, string>, cfg: SpeakerConfig): Candidate[] {
  if (!cfg.enabled || cfg.boost <= 0) return cands;
  const distinct = new Set(authors.values());
  if (distinct.size < 2) return cands;
  const named = namedSpeakers(query, distinct);
  if (named.size === 0 || named.size === distinct.size) return cands;
  for (const c of cands) {
    const who = authors.get(c.id);
    if (who !== undefined && named.has(who)) applyFactor(c, 'speaker', 1 + cfg.boost, `written by ${who}, whom the query names`);
  }
  return sortByScore(cands);
}

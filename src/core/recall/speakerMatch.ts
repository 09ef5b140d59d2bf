/**
 * Speaker-aware matching (docs/recall-design.md, "Sixth round"): when a query names the author of
 * some candidates ("What does Melanie do to destress?"), the memories the other speakers wrote are
 * lowered × (1 − penalty), so the named person's own turns rank above them. A name said in half a
 * conversation has almost no idf, so the lexical arm cannot tell "Melanie said" from "Caroline said
 * to Melanie"; the `who` column can. The stage runs after session neighbours and the rerank (on the
 * window), so a neighbour turn the other speaker wrote keeps the context it brought but no longer
 * crowds out the named speaker's answer; a penalty, not a lift, keeps scores on the 0–1 scale.
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
  /** Score × (1 − penalty) for a memory written by another speaker than the ones the query names. */
  readonly penalty: number;
}

/** Author names that are roles, not people. */
export const ROLES = new Set(['user', 'assistant', 'agent', 'system', 'tool', 'bot', 'model', 'me', 'you', 'human', 'ai', 'unknown', 'default']);

/**
 * Whether a query can name this author (namedSpeakers): any name but a role's. Looser than the
 * learned order's isPersonName (a capitalised name), which decides whether turns are a dialogue.
 */
export function isNameable(who: string): boolean {
  const name = who.trim().toLowerCase();
  return name.length >= 2 && !ROLES.has(name);
}

/** `who` of each candidate id that has one. */
export function loadAuthors(db: SqlReader, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  for (const r of db.all<{ id: string; who: string | null }>(`SELECT id, who FROM memories WHERE id IN (${ids.map(() => '?').join(',')})`, [...ids])) {
    if (r.who) out.set(r.id, r.who);
  }
  return out;
}

/** `who` of candidate ids (those that have one). */
export type AuthorsOf = (db: SqlReader, ids: readonly string[]) => Map<string, string>;

/**
 * `loadAuthors` kept for one recall: the window, the speaker stage and the learned order each ask
 * for the authors of the candidates, and each id is read at most once (one statement for the ids
 * not read yet). `known`: authors already read (the candidates' rows carry them, recallCandidates.ts),
 * so only memories the stages added (session neighbours) are read here.
 */
export function recallAuthors(known: Iterable<readonly [string, string | null]> = []): AuthorsOf {
  const seen = new Map<string, string | null>(known);
  return (db, ids) => {
    const missing = ids.filter((id) => !seen.has(id));
    if (missing.length > 0) {
      const read = loadAuthors(db, missing);
      for (const id of missing) seen.set(id, read.get(id) ?? null);
    }
    const out = new Map<string, string>();
    for (const id of ids) {
      const who = seen.get(id);
      if (who) out.set(id, who);
    }
    return out;
  };
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
    if (!isNameable(who)) continue;
    const parts = [...words(who.trim().toLowerCase())];
    if (parts.length > 0 && parts.every((p) => q.has(p))) out.add(who);
  }
  return out;
}

/**
 * The window when the query names some of the speakers (docs/recall-design.md, "Twelfth round"):
 * the first `namedCount` memories the named speakers wrote and the first `otherCount` of the rest
 * (other speakers and memories without an author), in the order given. In a conversation nearly
 * all the evidence of a question about one person is that person's own turns (97 % of it in the
 * development conversations), while a plain window gives half its places to the other speaker:
 * this lets the named person's turns from deeper in the list reach the learned order.
 */
export function speakerWindow(cands: readonly Candidate[], authors: ReadonlyMap<string, string>, named: ReadonlySet<string>, namedCount: number, otherCount: number): Candidate[] {
  const out: Candidate[] = [];
  let mine = 0, rest = 0;
  for (const c of cands) {
    if (mine >= namedCount && rest >= otherCount) break;
    const who = authors.get(c.id);
    if (who !== undefined && named.has(who)) {
      if (mine < namedCount) { out.push(c); mine++; }
    } else if (rest < otherCount) { out.push(c); rest++; }
  }
  return out;
}

/**
 * Lowers the candidates written by a speaker the query does not name when it names another;
 * unchanged when the candidates have fewer than two authors or the query names none or all of
 * them. Memories without an author are left alone. Re-sorted.
 */
export function applySpeakerMatch(cands: Candidate[], query: string, authors: ReadonlyMap<string, string>, cfg: SpeakerConfig): Candidate[] {
  if (!cfg.enabled || cfg.penalty <= 0) return cands;
  const distinct = new Set(authors.values());
  if (distinct.size < 2) return cands;
  const named = namedSpeakers(query, distinct);
  if (named.size === 0 || named.size === distinct.size) return cands;
  const asked = [...named].join(' and ');
  for (const c of cands) {
    const who = authors.get(c.id);
    if (who !== undefined && !named.has(who)) applyFactor(c, 'speaker', 1 - cfg.penalty, `written by ${who}; the question is about ${asked}`);
  }
  return sortByScore(cands);
}

/**
 * Learned order (docs/recall-design.md, "Seventh round" and "Eighth round"): the window's memories
 * are reordered by a small linear model over what the earlier stages do not weigh together — where
 * each arm ranked the memory, whether the memory states something or asks, how long it is, whether
 * its author is the person the question names, whether it sits right next to one of the best
 * matches in its session, how many of the best ten share its session, how high the turns either
 * side of it rank, whether it replies to a question, and whether it says something its author had
 * not said earlier in the window (a first mention rather than a return to it). It reorders only
 * when the best memory is a turn of a dialogue between two people (isDialogue): the model was
 * learned on such conversations, and on notes it weighs the wrong things. The weights are learned on the development
 * conversations by `bench/trainOrder.ts`
 * (logistic regression over the window, chosen and checked leave one conversation out) and kept in
 * learnedOrderWeights.ts; no text of those conversations is in the repository.
 *
 * The model is `−a · ln(1 + position) + Σ w_f · x_f` over the window as the earlier stages left it
 * (position 0 = their best). The window is put in the model's order and keeps its scores: the
 * memory the model puts k-th gets the k-th highest score, so scores stay on the scale the earlier
 * stages left and only the order changes; "Why" says how far a memory moved and the features that
 * moved it most.
 */
import type { SqlReader } from '../store/storeTypes';
import type { MemoryFilter } from './recallFilter';
import { loadPreviousTurns, loadSessionPlaces, placeAuthors, takesTurns } from './sessionNeighbours';
import type { SessionPlace } from './sessionNeighbours';
import { loadAuthors, namedSpeakers, ROLES } from './speakerMatch';
import type { AuthorsOf } from './speakerMatch';
import { applyDelta } from './recallTypes';
import type { Candidate } from './recallTypes';
import type { VectorIndex } from './vectorIndex';

/**
 * The features: the two arms' ranks in the window (ln(1 + rank), rank 0 = the arm's best) and
 * strengths (the lexical channel; the semantic channel over the window's best); `sameSession` is
 * ln(1 + how many of the window's first SESSION_HEAD share the memory's session, itself included);
 * `neighbourPlace` is −ln(1 + the best window place of the turn just before or after it), or
 * −ln(1 + window size) when neither is in the window; `novelty` is 1 − the best cosine between
 * the memory and a window memory its author wrote before it (1 when there is none or no vectors):
 * the turn where something is first told, not the later ones that come back to it
 * (docs/recall-design.md, "Tenth round"); the rest 0/1.
 */
export const ORDER_FEATURES = ['lexicalRank', 'semanticRank', 'lexical', 'semantic', 'question', 'short', 'long', 'firstPerson', 'namedAuthor', 'otherAuthor', 'nearBest', 'sameSession', 'neighbourPlace', 'answersQuestion', 'novelty'] as const;
export type OrderFeature = typeof ORDER_FEATURES[number];
export type OrderFeatures = Record<OrderFeature, number>;

/** Learned weights: `position` is a (on −ln(1 + position)), the rest w_f. Ordering only, so no intercept. */
export type LearnedOrderWeights = Readonly<Record<OrderFeature | 'position', number>>;

export interface LearnedOrderConfig {
  readonly enabled: boolean;
  readonly weights: LearnedOrderWeights;
}

/**
 * A window memory's session and the turn right before it. The turn after a window memory, when it
 * is in the window too, is the one whose previous turn it is: one read per memory tells both.
 */
export interface TurnContext {
  readonly session: string;
  /** Its place in the order memories were written (rowid): which of two same-time turns came first. */
  readonly seq?: number;
  readonly previous?: string;
  /** The turn before it asks something (its own words end with "?"). */
  readonly previousAsks: boolean;
}

/** What the features read besides the candidates: authors (`who`), the session neighbours of the best three, each memory's turn. */
export interface OrderContext {
  readonly query: string;
  readonly authors: ReadonlyMap<string, string>;
  /** Ids within two turns of one of the best three memories in the same dialogue (loadOrderContext). */
  readonly nearBest: ReadonlySet<string>;
  /** Each window memory that has a session: its session and the turn before it. */
  readonly turns: ReadonlyMap<string, TurnContext>;
  /** Whether the best memory is a turn of a dialogue; the stage reorders only then. */
  readonly dialogue: boolean;
  /** A window memory's stored vector (normalised), when the store has one for the query's model. */
  readonly vectorOf?: (id: string) => Float32Array | undefined;
}

/** A session's turns around one memory, with their authors, in order (up to two each side). */
interface Around { readonly ids: readonly string[]; readonly authors: readonly (string | null)[]; readonly at: number }

/** The turns around a memory in the order they were said, from its session place. */
function around(id: string, p: SessionPlace | undefined): Around | undefined {
  if (!p) return undefined;
  const before = [...p.before].reverse();
  return { ids: [...before.map((r) => r.id), id, ...p.after.map((r) => r.id)], authors: placeAuthors(p), at: before.length };
}

/** A person's name as an author: one to three capitalised words, not a role ("user") nor a tool id ("claude-code"). */
export function isPersonName(who: string): boolean {
  return !ROLES.has(who.trim().toLowerCase()) && /^\p{Lu}[\p{L}'’-]*(?: \p{Lu}[\p{L}'’-]*){0,2}$/u.test(who.trim());
}

/**
 * Whether the turns around a memory are a dialogue between two people: at least three of them,
 * every one written by one of exactly two people (isPersonName), taking turns (no one follows
 * themselves). The model was learned on such conversations; notes that two agents happen to write
 * in turn ("claude-code", "copilot-agent"), a log of one writer's notes, or a chat whose authors
 * are roles are not, and there the turn next to a match is not its answer.
 */
export function isDialogue(a: Around | undefined): boolean {
  return !!a && a.authors.length >= 3 && a.authors.every((w) => !!w && isPersonName(w)) && takesTurns(a.authors);
}

/**
 * Which of `ids` are turns of a dialogue between two people (isDialogue). The authors first (one
 * statement, or none when the recall has read them): only a memory a person wrote can be such a
 * turn, and only for those are the turns around it read (two statements each), so notes by agents
 * or without an author cost one read.
 */
export function loadDialogueTurns(db: SqlReader, ids: readonly string[], filter: MemoryFilter, authorsOf: AuthorsOf = loadAuthors): Set<string> {
  const authors = authorsOf(db, ids);
  const byPeople = ids.filter((id) => { const who = authors.get(id); return who !== undefined && isPersonName(who); });
  const places = loadSessionPlaces(db, byPeople, NEAR_BEST_SPAN, filter);
  return new Set(byPeople.filter((id) => isDialogue(around(id, places.get(id)))));
}

/**
 * Whether the best of `cands` is a turn of a dialogue (isDialogue; the stage runs only then: the
 * model was learned on conversations) and, if so, the candidates' authors, the dialogue turns
 * within two of the best NEAR_BEST_HEAD and every candidate's session and previous turn. Outside
 * a dialogue one read of the best's place and two index ranges; inside, two more for each of the
 * best few and one statement for the whole window's previous turns.
 */
export function loadOrderContext(db: SqlReader, cands: readonly Candidate[], query: string, filter: MemoryFilter, vectorOf?: (id: string) => Float32Array | undefined, authorsOf: AuthorsOf = loadAuthors): OrderContext {
  const first = cands[0]?.id;
  const firstPlace = first === undefined ? undefined : loadSessionPlaces(db, [first], NEAR_BEST_SPAN, filter).get(first);
  const best = first === undefined ? undefined : around(first, firstPlace);
  if (!isDialogue(best)) return { query, authors: new Map(), nearBest: new Set(), turns: new Map(), dialogue: false };
  const nearBest = new Set<string>();
  const add = (a: Around): void => a.ids.forEach((id, k) => { if (k !== a.at) nearBest.add(id); });
  add(best as Around);
  const head = cands.slice(1, NEAR_BEST_HEAD).map((c) => c.id);
  const places = loadSessionPlaces(db, head, NEAR_BEST_SPAN, filter);
  for (const id of head) {
    const a = around(id, places.get(id));
    if (a && isDialogue(a)) add(a);
  }
  const turns = new Map<string, TurnContext>();
  for (const [id, p] of loadPreviousTurns(db, cands.map((c) => c.id), filter)) {
    turns.set(id, { session: p.session, seq: p.seq, ...(p.previous ? { previous: p.previous.id } : {}), previousAsks: p.previous !== undefined && asks(p.previous.content) });
  }
  return { query, authors: authorsOf(db, cands.map((c) => c.id)), nearBest, turns, dialogue: true, ...(vectorOf ? { vectorOf } : {}) };
}

/** The stored vectors `novelty` reads, from the index the vector arm searched (none without an embedder). */
export function windowVectors(index: VectorIndex | undefined): ((id: string) => Float32Array | undefined) | undefined {
  return index ? (id) => index.vectors.row(id) : undefined;
}

/** Words a memory under this many has is "short" (a reaction: "Wow, sounds great!"). */
export const SHORT_WORDS = 8;
/** Words from which a memory is "long" (it tells a story). */
export const LONG_WORDS = 40;
/** How many of the best memories' session neighbours count as "next to a best match". */
export const NEAR_BEST_HEAD = 3;
/** How many of the window's first memories `sameSession` counts. */
export const SESSION_HEAD = 10;
/** The novelty from which "Why" calls a memory something its author had not said earlier (a best cosine under 0.5). */
const NEW_FROM_AUTHOR = 0.5;
/** Turns on each side of a best match that are "next to" it (and that tell a dialogue). */
const NEAR_BEST_SPAN = 2;

/** The memory's own words: a leading "Name: " label and bracketed asides ("[shares a photo of …]") left out. */
function body(content: string): string {
  return content.replace(/^[^\n:[\]]{1,40}:\s+/, '').replace(/\[[^\]]*\]/g, ' ').trim();
}

/** Whether a turn asks something: its own words end with "?". */
function asks(content: string): boolean {
  return /\?\s*$/.test(body(content));
}

/** Rank of each candidate by one channel among `cands` (0 = highest); a candidate without that evidence gets `cands.length`. */
function channelRanks(cands: readonly Candidate[], channel: 'lexical' | 'semantic'): Map<string, number> {
  const ranked = cands.filter((c) => c.channels[channel] > 0).sort((a, b) => b.channels[channel] - a.channels[channel]);
  const out = new Map<string, number>();
  ranked.forEach((c, i) => out.set(c.id, i));
  for (const c of cands) if (!out.has(c.id)) out.set(c.id, cands.length);
  return out;
}

/**
 * Each candidate's novelty (see ORDER_FEATURES): 1 − its best cosine with a window memory by the
 * same author written before it (earlier `createdAt`, or the same and an earlier `seq`); 1 without
 * an author, a vector or an earlier memory. At most window² / 2 dot products, in dialogues only.
 */
function novelty(cands: readonly Candidate[], ctx: OrderContext): number[] {
  const out = cands.map(() => 1);
  if (!ctx.vectorOf) return out;
  // Each author's window memories in the order they were written; each compared with the ones before it.
  const byAuthor = new Map<string, { i: number; at: string; seq: number | undefined; v: Float32Array }[]>();
  cands.forEach((c, i) => {
    const who = ctx.authors.get(c.id);
    const v = who === undefined ? undefined : ctx.vectorOf?.(c.id);
    if (who === undefined || !v) return;
    let list = byAuthor.get(who);
    if (!list) byAuthor.set(who, (list = []));
    list.push({ i, at: c.createdAt, seq: ctx.turns.get(c.id)?.seq, v });
  });
  for (const list of byAuthor.values()) {
    list.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : (a.seq ?? 0) - (b.seq ?? 0)));
    list.forEach((m, k) => {
      let best = 0;
      for (let j = 0; j < k; j++) {
        const o = list[j] as typeof m;
        // Same time and no known order (a memory outside any session): neither came first.
        if (o.at === m.at && (o.seq === undefined || m.seq === undefined || o.seq >= m.seq)) continue;
        const d = dot(m.v, o.v);
        if (d > best) best = d;
      }
      out[m.i] = 1 - Math.min(1, best);
    });
  }
  return out;
}

/** Dot product of two vectors of the same width. */
function dot(a: Float32Array, b: Float32Array): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, k = 0;
  const n = a.length;
  for (; k + 3 < n; k += 4) {
    s0 += (a[k] as number) * (b[k] as number);
    s1 += (a[k + 1] as number) * (b[k + 1] as number);
    s2 += (a[k + 2] as number) * (b[k + 2] as number);
    s3 += (a[k + 3] as number) * (b[k + 3] as number);
  }
  for (; k < n; k++) s0 += (a[k] as number) * (b[k] as number);
  return s0 + s1 + s2 + s3;
}

/** Every candidate's features, in the candidates' order. */
export function orderFeatures(cands: readonly Candidate[], ctx: OrderContext): OrderFeatures[] {
  const lexical = channelRanks(cands, 'lexical');
  const semantic = channelRanks(cands, 'semantic');
  const bestSemantic = Math.max(1e-9, ...cands.map((c) => c.channels.semantic));
  const distinct = new Set(ctx.authors.values());
  const named = distinct.size >= 2 ? namedSpeakers(ctx.query, distinct) : new Set<string>();
  const place = new Map(cands.map((c, i) => [c.id, i]));
  /** The best window place of a memory's adjacent turns: its previous turn's, and that of the window memory whose previous turn it is. */
  const adjacentPlace = new Map<string, number>();
  const closer = (id: string, p: number | undefined): void => { if (p !== undefined && p < (adjacentPlace.get(id) ?? Infinity)) adjacentPlace.set(id, p); };
  cands.forEach((c, i) => {
    const previous = ctx.turns.get(c.id)?.previous;
    if (previous === undefined) return;
    closer(c.id, place.get(previous));
    closer(previous, i);
  });
  const headSessions = new Map<string, number>();
  for (const c of cands.slice(0, SESSION_HEAD)) {
    const session = ctx.turns.get(c.id)?.session;
    if (session !== undefined) headSessions.set(session, (headSessions.get(session) ?? 0) + 1);
  }
  const fresh = novelty(cands, ctx);
  return cands.map((c, i) => {
    const text = body(c.content);
    const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
    const who = ctx.authors.get(c.id);
    const turn = ctx.turns.get(c.id);
    return {
      lexicalRank: Math.log(1 + (lexical.get(c.id) as number)),
      semanticRank: Math.log(1 + (semantic.get(c.id) as number)),
      lexical: c.channels.lexical,
      semantic: c.channels.semantic / bestSemantic,
      question: asks(c.content) ? 1 : 0,
      short: words < SHORT_WORDS ? 1 : 0,
      long: words >= LONG_WORDS ? 1 : 0,
      firstPerson: /\b(I|my|me|mine|we|our|us|I'm|I've|I'd|I'll|we're|we've)\b/.test(text) ? 1 : 0,
      namedAuthor: who !== undefined && named.has(who) ? 1 : 0,
      otherAuthor: who !== undefined && named.size > 0 && !named.has(who) ? 1 : 0,
      nearBest: ctx.nearBest.has(c.id) ? 1 : 0,
      sameSession: Math.log(1 + (turn ? headSessions.get(turn.session) ?? 0 : 0)),
      neighbourPlace: -Math.log(1 + (adjacentPlace.get(c.id) ?? cands.length)),
      answersQuestion: turn?.previousAsks ? 1 : 0,
      novelty: fresh[i] as number,
    };
  });
}

/** The model's value of each candidate (in the candidates' order, the position being the index). */
export function orderValues(features: readonly OrderFeatures[], w: LearnedOrderWeights): number[] {
  return features.map((x, i) => -w.position * Math.log(1 + i) + ORDER_FEATURES.reduce((s, f) => s + w[f] * x[f], 0));
}

/** The candidates' indices in the model's order (ties keep the earlier stages' order). */
export function learnedPositions(features: readonly OrderFeatures[], w: LearnedOrderWeights): number[] {
  const v = orderValues(features, w);
  return v.map((_, i) => i).sort((a, b) => (v[b] as number) - (v[a] as number) || a - b);
}

/** "Why" words for a feature as it is for this memory. */
function describe(f: OrderFeature, x: OrderFeatures, window: number): string {
  const absent = x[f] === 0;
  const rank = (v: number): string => { const r = Math.round(Math.exp(v) - 1); return r >= window ? 'not found' : `ranked ${r + 1}${ordinal(r + 1)}`; };
  switch (f) {
    case 'lexicalRank': return `${rank(x.lexicalRank)} by keywords`;
    case 'semanticRank': return `${rank(x.semanticRank)} by meaning`;
    case 'lexical': return x.lexical >= 0.5 ? 'a strong keyword match' : x.lexical > 0 ? 'a weak keyword match' : 'no keyword match';
    case 'semantic': return x.semantic >= 0.8 ? 'close in meaning' : 'further in meaning';
    case 'question': return absent ? 'a statement, not a question' : 'a question, not a statement';
    case 'short': return absent ? 'more than a short reply' : 'a short reply';
    case 'long': return absent ? 'not a long account' : 'a long account';
    case 'firstPerson': return absent ? 'says nothing about the writer' : 'says something about the writer';
    case 'namedAuthor': return absent ? 'not written by the person asked about' : 'written by the person asked about';
    case 'otherAuthor': return absent ? 'not by another speaker' : 'by another speaker than the person asked about';
    case 'nearBest': return absent ? 'not next to one of the best matches' : 'next to one of the best matches';
    case 'sameSession': { const n = Math.round(Math.exp(x.sameSession) - 1); return n === 0 ? 'from a conversation none of the best ten are from' : `its conversation holds ${n} of the best ten`; }
    case 'neighbourPlace': { const r = Math.round(Math.exp(-x.neighbourPlace) - 1); return r >= window ? 'the turns beside it do not match' : `the turn beside it ranked ${r + 1}${ordinal(r + 1)}`; }
    case 'answersQuestion': return absent ? 'not a reply to a question' : 'a reply to a question';
    case 'novelty': return x.novelty >= NEW_FROM_AUTHOR ? 'something its author had not said earlier' : 'close to what its author said earlier';
  }
}

function ordinal(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th';
  return n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
}

/** The (at most) two features that pushed a memory most in the direction it moved, against the window's average. */
function reasons(x: OrderFeatures, mean: OrderFeatures, w: LearnedOrderWeights, up: boolean, window: number): string[] {
  return ORDER_FEATURES.map((f) => ({ f, c: w[f] * (x[f] - mean[f]) }))
    .filter((e) => (up ? e.c > 1e-9 : e.c < -1e-9))
    .sort((a, b) => Math.abs(b.c) - Math.abs(a.c))
    .slice(0, 2).map((e) => describe(e.f, x, window));
}

/**
 * Puts the window in the model's order, each place keeping its score (the memory placed k-th gets
 * the k-th highest score); one "learnedOrder" change per memory that moved, saying from where to
 * where and why. Candidates arrive sorted by score (runStages keeps them so).
 */
export function applyLearnedOrder(cands: Candidate[], ctx: OrderContext, cfg: LearnedOrderConfig): Candidate[] {
  if (!cfg.enabled || !ctx.dialogue || cands.length < 2) return cands;
  const features = orderFeatures(cands, ctx);
  const order = learnedPositions(features, cfg.weights);
  const scores = cands.map((c) => c.score).sort((a, b) => b - a);
  const mean = Object.fromEntries(ORDER_FEATURES.map((f) => [f, features.reduce((s, x) => s + x[f], 0) / features.length])) as OrderFeatures;
  order.forEach((from, to) => {
    if (from === to) return;
    const c = cands[from] as Candidate;
    const why = reasons(features[from] as OrderFeatures, mean, cfg.weights, to < from, cands.length);
    applyDelta(c, 'learnedOrder', (scores[to] as number) - c.score, `moved ${to < from ? 'up' : 'down'} from ${from + 1}${ordinal(from + 1)} to ${to + 1}${ordinal(to + 1)}${why.length ? `: ${why.join(', ')}` : ''}`);
  });
  return order.map((i) => cands[i] as Candidate);
}

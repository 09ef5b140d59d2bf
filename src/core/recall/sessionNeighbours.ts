/**
 * Session neighbourhood expansion (docs/recall-design.md, "Session neighbours"): the turns right
 * before and after a well-ranked memory in the same capture session join the candidates (or are
 * lifted) at a share of that memory's score. In a conversation the words of a question often sit
 * in one turn ("What did you do last weekend?") and the answer in the next, which shares none of
 * them; the evidence of a multi-part question is often a few turns apart in one session.
 *
 * Neighbours are the adjacent live memories of the same `session_key` in insertion (rowid) order,
 * read by `loadSessionNeighbours`; `expandSessionNeighbours` is the pure scoring part.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { SqlReader } from '../store/storeTypes';
import { filterClause } from './recallFilter';
import type { MemoryFilter } from './recallFilter';
import { applyDelta, sortByScore } from './recallTypes';
import type { Candidate } from './recallTypes';

export type SessionNeighbourConfig = SearchConfig['neighbours'];

/** A memory next to a head candidate, hydrated so it can join the candidates. */
export type NeighbourRow = Pick<Candidate, 'id' | 'content' | 'type' | 'createdAt' | 'sourceId' | 'importance'>;

/** Head candidate id → its neighbours (up to `span` before and after, nearest first). */
export type NeighbourMap = ReadonlyMap<string, readonly NeighbourRow[]>;

interface Row { id: string; content: string; type: string; created_at: string; source_id: string | null; importance: number; who: string | null }

/** A turn of a session around a memory, with its author. */
export type SessionTurn = NeighbourRow & { readonly who: string | null };

/** A memory's place in its session: its session, its author and the up-to-`span` live turns before and after it, nearest first. */
export interface SessionPlace {
  readonly session: string;
  readonly who: string | null;
  readonly before: readonly SessionTurn[];
  readonly after: readonly SessionTurn[];
}

/**
 * Each of `ids`' place in its session (rowid order) under the recall filter: one lookup for every
 * id, then two index range searches per id with a session. Memories without a session have none.
 */
export function loadSessionPlaces(db: SqlReader, ids: readonly string[], span: number, filter: MemoryFilter): Map<string, SessionPlace> {
  const out = new Map<string, SessionPlace>();
  if (span <= 0 || ids.length === 0) return out;
  const f = filterClause(filter);
  const cols = 'm.id AS id, m.content AS content, m.type AS type, m.created_at AS created_at, m.source_id AS source_id, m.importance AS importance, m.who AS who';
  const toTurn = (r: Row): SessionTurn => ({ id: r.id, content: r.content, type: r.type, createdAt: r.created_at, sourceId: r.source_id, importance: r.importance, who: r.who });
  const places = new Map<string, { rowid: number; session_key: string; who: string | null }>();
  for (const r of db.all<{ id: string; rowid: number; session_key: string; who: string | null }>(`SELECT id, rowid, session_key, who FROM memories WHERE id IN (${ids.map(() => '?').join(',')}) AND session_key IS NOT NULL`, [...ids])) places.set(r.id, r);
  for (const id of ids) {
    const self = places.get(id);
    if (!self) continue;
    const before = db.all<Row>(`SELECT ${cols} FROM memories m WHERE m.session_key = ? AND m.rowid < ? AND ${f.sql} ORDER BY m.rowid DESC LIMIT ?`, [self.session_key, self.rowid, ...f.params, span]);
    const after = db.all<Row>(`SELECT ${cols} FROM memories m WHERE m.session_key = ? AND m.rowid > ? AND ${f.sql} ORDER BY m.rowid ASC LIMIT ?`, [self.session_key, self.rowid, ...f.params, span]);
    out.set(id, { session: self.session_key, who: self.who, before: before.map(toTurn), after: after.map(toTurn) });
  }
  return out;
}

/** A memory's session and the live turn right before it there (under the recall filter), if any. */
export interface PreviousTurn {
  readonly session: string;
  /** The memory's place in the order memories were written (its rowid): a session's turns in the order they were said. */
  readonly seq: number;
  readonly previous?: { readonly id: string; readonly content: string };
}

/**
 * Each of `ids`' session and previous turn in one statement (a correlated index lookup per id inside
 * the engine): the previous turn loadSessionPlaces reads with two statements per id, for a whole window at once.
 */
export function loadPreviousTurns(db: SqlReader, ids: readonly string[], filter: MemoryFilter): Map<string, PreviousTurn> {
  const out = new Map<string, PreviousTurn>();
  if (ids.length === 0) return out;
  const f = filterClause(filter, 'q');
  const rows = db.all<{ id: string; session: string; seq: number; previous: string | null; content: string | null }>(
    `SELECT c.id AS id, c.session_key AS session, c.rowid AS seq, p.id AS previous, p.content AS content FROM memories c
     LEFT JOIN memories p ON p.rowid = (SELECT q.rowid FROM memories q WHERE q.session_key = c.session_key AND q.rowid < c.rowid AND ${f.sql} ORDER BY q.rowid DESC LIMIT 1)
     WHERE c.id IN (${ids.map(() => '?').join(',')}) AND c.session_key IS NOT NULL`, [...f.params, ...ids]);
  for (const r of rows) out.set(r.id, { session: r.session, seq: r.seq, ...(r.previous !== null ? { previous: { id: r.previous, content: r.content ?? '' } } : {}) });
  return out;
}

/**
 * Whether a run of turns' authors (in order) is two authors taking turns: exactly two, each known,
 * and no one follows themselves. A conversation (two people, or a user and an assistant) is; a
 * session of agents' notes, where one agent often writes several in a row or three take part, is
 * not (docs/recall-design.md, "Ninth round").
 */
export function takesTurns(authors: readonly (string | null)[]): boolean {
  if (authors.length < 2 || authors.some((w) => !w)) return false;
  if (new Set(authors).size !== 2) return false;
  return authors.every((w, i) => i === 0 || w !== authors[i - 1]);
}

/** The authors of a place's turns in session order: the turns before, the memory, the turns after. */
export function placeAuthors(p: SessionPlace): (string | null)[] {
  return [...[...p.before].reverse().map((t) => t.who), p.who, ...p.after.map((t) => t.who)];
}

/**
 * The up-to-`span` live memories before and after each of `ids` in its session (loadSessionPlaces),
 * nearest first, alternating after/before. Memories without a session have no neighbours; with
 * `turnTakingOnly`, neither have memories whose turns around them are not two authors taking turns
 * (takesTurns): in a log of notes the next note is not an answer.
 */
export function loadSessionNeighbours(db: SqlReader, ids: readonly string[], span: number, filter: MemoryFilter, turnTakingOnly = false): Map<string, NeighbourRow[]> {
  const out = new Map<string, NeighbourRow[]>();
  const strip = ({ who: _who, ...row }: SessionTurn): NeighbourRow => row;
  for (const [id, place] of loadSessionPlaces(db, ids, span, filter)) {
    if (turnTakingOnly && !takesTurns(placeAuthors(place))) continue;
    const { before, after } = place;
    const rows: NeighbourRow[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      if (after[i]) rows.push(strip(after[i] as SessionTurn));
      if (before[i]) rows.push(strip(before[i] as SessionTurn));
    }
    if (rows.length > 0) out.set(id, rows);
  }
  return out;
}

/**
 * The head (first `cfg.head`) candidates pass `cfg.weight` × their score to each neighbour: a
 * neighbour not yet a candidate joins with that score (channels from `channelsOf`), one already
 * ranked lower is lifted to it. Never lowers a score; re-sorted.
 */
export function expandSessionNeighbours(cands: readonly Candidate[], neighbours: NeighbourMap, cfg: SessionNeighbourConfig, channelsOf: (id: string) => Candidate['channels']): Candidate[] {
  if (!cfg.enabled || cfg.weight <= 0 || neighbours.size === 0) return [...cands];
  const byId = new Map(cands.map((c) => [c.id, c]));
  const added: Candidate[] = [];
  // Offers come from the scores before any lift, so a lifted neighbour passes nothing on.
  const head = cands.slice(0, cfg.head).map((c) => ({ parent: c, offered: c.score * cfg.weight }));
  for (const { parent, offered } of head) {
    for (const n of neighbours.get(parent.id) ?? []) {
      const note = 'next to a recalled memory of the same session';
      const existing = byId.get(n.id);
      if (existing) {
        if (existing.score < offered) applyDelta(existing, 'neighbours', offered - existing.score, note);
        continue;
      }
      const channels = channelsOf(n.id);
      const c: Candidate = {
        id: n.id, content: n.content, type: n.type, createdAt: n.createdAt, sourceId: n.sourceId, importance: n.importance,
        score: offered, channels,
        explain: { channels, fused: 0, sources: ['neighbour'], boosts: [], penalties: [], notes: [note], score: offered },
      };
      byId.set(n.id, c);
      added.push(c);
    }
  }
  return sortByScore([...cands, ...added]);
}

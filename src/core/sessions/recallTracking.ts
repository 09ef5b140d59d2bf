/**
 * Tracked recall: the session layer's side of recall. Recall (src/core/recall/recallService.ts)
 * only reads and returns what to record; this records it: access_count + 1 and last_accessed for
 * returned memories (a metadata-only UPDATE, so the FTS triggers never fire), and with a session
 * key one session_memories row per result (source, rank, was_injected) plus fts_hit_count + 1 for
 * every memory the lexical arm found (new rows for those get source 'fts_only'): the feedback
 * loop's input.
 *
 * Nothing is written on the answer path: each recall appends its entry to the store's pending
 * bookkeeping, and one deferred write (`store.writeLater`) drains every entry gathered so far in
 * request order. It commits with the process's next write (a session end sees it), after
 * `deferredWriteMs` at the latest, or on close, so a burst of recalls costs one journal record and
 * one fsync, none of them between a query and its answer (docs/store.md "Deferred write"). The same
 * write keeps session_memories bounded (sessionRetention.ts).
 */
import { recallDetailed } from '../recall/recallService';
import type { RecallBookkeepingEntry, RecallOutcome } from '../recall/recallService';
import type { RecallDeps, RecallRequest } from '../recall/recallRequest';
import type { MemoryStore, SqlWriter } from '../store/storeTypes';
import { pruneSessionMemories } from './sessionRetention';

export interface TrackedRecallOutcome extends RecallOutcome {
  /**
   * Settles once this recall's bookkeeping is durable: true (also when there was nothing to record
   * or tracking was off), or false when it could not be written (the store was closed or the write
   * failed; the results stand either way). Nobody needs to await it; tests and benches do.
   */
  readonly recorded: Promise<boolean>;
}

/** Recall, then its bookkeeping queued for the deferred write (unless `deps.track` is false). */
export async function trackedRecall(store: MemoryStore, req: RecallRequest, deps: RecallDeps, withExplain = true): Promise<TrackedRecallOutcome> {
  const out = await recallDetailed(store, req, deps, withExplain);
  const recorded = deps.track !== false && out.bookkeeping ? trackRecall(store, out.bookkeeping) : Promise.resolve(true);
  return { ...out, recorded };
}

/** Queues one recall's bookkeeping; settles as `TrackedRecallOutcome.recorded` does. */
export function trackRecall(store: MemoryStore, entry: RecallBookkeepingEntry): Promise<boolean> {
  return pendingBookkeeping(store).add(entry);
}

/**
 * Writes the bookkeeping of several recalls, oldest first, with the same outcome as writing each
 * on its own (one UPDATE per returned memory, one session_memories upsert per result and lexical
 * hit): access counts are summed per memory (last_accessed is the latest recall's time), and the
 * session rows are worked out here recall by recall (ranks continue from the session's row count,
 * a row met again only adds hits and keeps the maxima), then written as one upsert per row.
 * Each kind is ONE statement whose rows travel as a JSON array parameter (json_each), because the
 * journal records every statement with its SQL text: per-row statements made a recall cost ~16 KB
 * of journal, and the journal's growth then forced snapshot rewrites while recalls ran.
 */
export function recordRecalls(w: SqlWriter, entries: readonly RecallBookkeepingEntry[]): void {
  const access = new Map<string, { n: number; at: string }>();
  for (const e of entries) {
    for (const r of e.results) {
      const a = access.get(r.id);
      access.set(r.id, { n: (a?.n ?? 0) + 1, at: a && a.at > e.nowIso ? a.at : e.nowIso });
    }
  }
  if (access.size > 0) {
    w.run(`UPDATE memories SET access_count = access_count + (j.value ->> '$[1]'), last_accessed = j.value ->> '$[2]'
      FROM json_each(?) AS j WHERE memories.id = j.value ->> '$[0]'`, [JSON.stringify([...access].map(([id, a]) => [id, a.n, a.at]))]);
  }
  const rows = sessionRows(w, entries);
  if (rows.length > 0) {
    w.run(`INSERT INTO session_memories (session_key, memory_id, source, final_score, rank, was_injected, fts_hit_count, created_ms)
      SELECT j.value ->> '$[0]', j.value ->> '$[1]', j.value ->> '$[2]', j.value ->> '$[3]', j.value ->> '$[4]', j.value ->> '$[5]', j.value ->> '$[6]', j.value ->> '$[7]'
        FROM json_each(?) AS j WHERE true
      ON CONFLICT(session_key, agent_id, memory_id) DO UPDATE SET
        fts_hit_count = fts_hit_count + excluded.fts_hit_count,
        was_injected = MAX(was_injected, excluded.was_injected),
        final_score = MAX(final_score, excluded.final_score)`, [JSON.stringify(rows.map((r) => [r.session, r.memory, r.source, r.score, r.rank, r.injected, r.hits, r.atMs]))]);
    pruneSessionMemories(w, new Set(rows.map((r) => r.session)));
  }
}

/** One upsert; `atMs` is session_memories.created_ms (ms since the epoch, migration 30). */
interface SessionRow { session: string; memory: string; source: string; score: number; rank: number; injected: number; hits: number; atMs: number }

/**
 * The session_memories upserts of `entries`, merged per (session, memory) in first-seen order.
 * A row new to the session takes the rank, source and time of its first recall; as before, every
 * result and lexical hit of a recall advances that recall's rank counter, which starts at the
 * session's row count (rows of any agent; recall writes the default agent's rows).
 */
function sessionRows(w: SqlWriter, entries: readonly RecallBookkeepingEntry[]): SessionRow[] {
  const state = new Map<string, { count: number; existing: Set<string>; rows: Map<string, SessionRow> }>();
  const out: SessionRow[] = [];
  for (const e of entries) {
    if (e.session === undefined) continue;
    const session = e.session;
    let st = state.get(session);
    if (!st) {
      st = {
        count: w.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories WHERE session_key = ?', [session])?.n ?? 0,
        existing: new Set(w.all<{ memory_id: string }>("SELECT memory_id FROM session_memories WHERE session_key = ? AND agent_id = 'default'", [session]).map((r) => r.memory_id)),
        rows: new Map(),
      };
      state.set(session, st);
    }
    const s = st;
    let rank = s.count;
    const upsert = (memory: string, source: string, score: number, injected: number, hits: number): void => {
      const known = s.rows.get(memory);
      if (known) {
        known.hits += hits; known.injected = Math.max(known.injected, injected); known.score = Math.max(known.score, score);
      } else {
        // A row that exists already only receives the merged update; its insert values are unused.
        const row: SessionRow = { session, memory, source, score, rank, injected, hits, atMs: Date.parse(e.nowIso) };
        s.rows.set(memory, row);
        out.push(row);
        if (!s.existing.has(memory)) s.count++;
      }
      rank++;
    };
    const lexical = new Set(e.lexicalIds);
    for (const r of e.results) upsert(r.id, r.source, r.score, e.injected ? 1 : 0, lexical.has(r.id) ? 1 : 0);
    const returned = new Set(e.results.map((r) => r.id));
    for (const id of lexical) if (!returned.has(id)) upsert(id, 'fts_only', 0, 0, 1);
  }
  return out;
}

/** Bookkeeping entries waiting for their deferred write, per store. */
class PendingBookkeeping {
  private entries: RecallBookkeepingEntry[] = [];
  private scheduled: Promise<boolean> | undefined;

  constructor(private readonly store: MemoryStore) {}

  add(entry: RecallBookkeepingEntry): Promise<boolean> {
    this.entries.push(entry);
    if (!this.scheduled) {
      this.scheduled = this.store.writeLater('recall', (w) => {
        // Drained when the write runs, so entries added until then ride in the same record.
        this.scheduled = undefined;
        recordRecalls(w, this.entries.splice(0));
      }).then(() => true, () => false);
    }
    return this.scheduled;
  }
}

const bookkeeping = new WeakMap<MemoryStore, PendingBookkeeping>();

function pendingBookkeeping(store: MemoryStore): PendingBookkeeping {
  let p = bookkeeping.get(store);
  if (!p) { p = new PendingBookkeeping(store); bookkeeping.set(store, p); }
  return p;
}

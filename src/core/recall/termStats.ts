/**
 * The store statistics the lexical arm and the facet stage weigh terms with: how many memories
 * there are and how many hold an index term (memories_fts_vocab, stemmed since migration 23).
 * One recall asked for them up to three times (candidate terms, idf hit weights, facet weights),
 * each time with a `COUNT(*) FROM memories` that walks a whole index. `termStatsFor(store)` keeps
 * them per store while the connection's `total_changes()` stays the same: every row this connection
 * changed since it opened (own writes, other processes' records replayed, trigger-kept FTS rows)
 * moves it, and reading it costs one constant-time statement. Store change events arrive
 * asynchronously, too late for a recall right after a write; they still clear the figures (a reload
 * replaces the connection, whose count starts again from zero). The values are the same as reading
 * them afresh.
 */
import type { MemoryStore, SqlReader } from '../store/storeTypes';

export interface TermStats {
  memoryCount(db: SqlReader): number;
  /** Memories holding `indexTerm` (already stemmed as the index stems it). */
  docCount(db: SqlReader, indexTerm: string): number;
}

/** Reads every figure afresh (no store to watch, e.g. a test passing a reader). */
export const uncachedTermStats: TermStats = {
  memoryCount: (db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n ?? 0,
  docCount: (db, term) => db.get<{ doc: number }>('SELECT doc FROM memories_fts_vocab WHERE term = ?', [term])?.doc ?? 0,
};

/** Terms kept between changes; a store with more distinct query terms than this starts over. */
const MAX_TERMS = 10_000;

class CachedTermStats implements TermStats {
  private total: number | undefined;
  private readonly docs = new Map<string, number>();
  /** total_changes() when the kept figures were read. */
  private changes = -1;

  constructor(store: MemoryStore) {
    store.onDidChange(() => this.clear());
  }

  memoryCount(db: SqlReader): number {
    this.check(db);
    this.total ??= uncachedTermStats.memoryCount(db);
    return this.total;
  }

  docCount(db: SqlReader, indexTerm: string): number {
    this.check(db);
    let n = this.docs.get(indexTerm);
    if (n === undefined) {
      n = uncachedTermStats.docCount(db, indexTerm);
      if (this.docs.size >= MAX_TERMS) this.docs.clear();
      this.docs.set(indexTerm, n);
    }
    return n;
  }

  private check(db: SqlReader): void {
    const changes = db.get<{ c: number }>('SELECT total_changes() AS c')?.c ?? -1;
    if (changes !== this.changes) { this.clear(); this.changes = changes; }
  }

  private clear(): void {
    this.total = undefined;
    this.docs.clear();
    this.changes = -1;
  }
}

const perStore = new WeakMap<MemoryStore, TermStats>();

/** The term statistics of `store`, kept until its next change. */
export function termStatsFor(store: MemoryStore): TermStats {
  let s = perStore.get(store);
  if (!s) { s = new CachedTermStats(store); perStore.set(store, s); }
  return s;
}

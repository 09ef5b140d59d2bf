/**
 * An in-memory inverted index over memories_fts's rows, so the lexical arm ranks its candidates
 * with bm25TopK (MaxScore pruning) instead of FTS5 scoring every row that holds a common term
 * (docs/recall-design.md, "Lexical index"; docs/store.md, "Common-term recall").
 *
 * What it holds mirrors memories_fts exactly where the arm asks it: one document per memories row
 * (soft-deleted ones too, as the external-content index holds them), each document's length read
 * from FTS5's own `memories_fts_docsize`, the row and token totals from FTS5's averages record, and
 * postings for the tokens a plain query term can match: runs of ASCII letters (Porter-stemmed as
 * the 'porter unicode61' tokenizer stems them, diacritics folded as unicode61 folds them) and runs
 * of digits. Query terms of any other shape (digits mixed with letters, non-Latin letters, CJK,
 * underscores: multi-token phrases) are left to FTS5, which also keeps serving phrases, the CJK
 * probe and the team server.
 *
 * Built in the background in short slices the first time a recall finds it missing (FTS5 answers
 * until then). Kept in step like the vector index (vectorIndex.ts): before each use one read of FTS5's averages
 * and structure records (two primary-key rows that every write to the index changes, own or another
 * process's replayed from the journal) tells whether anything changed; new rows (larger rowid) are
 * added; when FTS5's row or token totals then differ from the index's (a forget, an edited or
 * pulled content), or a forget or team write was reported, the index is rebuilt on the next use.
 */
import type { Disposable, MemoryStore, SqlReader } from '../store/storeTypes';
import type { Bm25Corpus, PostingList } from './bm25TopK';
import { porterStem } from './porterStemmer';

/** Rows read per statement while loading (as vectorIndex.ts); a background slice reads fewer. */
const LOAD_BATCH = 2048;
const SLICE_BATCH = 256;
/** One background build slice (then the event loop runs whatever waits). */
const BUILD_SLICE_MS = 8;
/** New rows a query adds before answering; beyond that FTS5 answers and the background catches up. */
const QUERY_CATCH_UP_MS = 15;
const PLAIN_LETTERS = /^[a-z]+$/;
const DIGITS = /^[0-9]+$/;
/** unicode61's token characters (letters, numbers, private use); diacritics are folded first. */
const TOKEN_RUN = /[\p{L}\p{N}\p{Co}]+/gu;
const COMBINING = /\p{Mn}/gu;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_RUN = /[a-z0-9]+/g;
/**
 * Write labels (store.write) that can delete rows or rewrite a row's content in place: the totals
 * check catches nearly all of those at once, these close the rest (a deleted newest row replaced by
 * one of the same length) as soon as the store reports them.
 */
const REWRITING_LABELS = ['memory.delete', 'memory.forget', 'store.purge', 'consolidation.', 'team.', 'migrate'];

/** Whether a query term (as queryTerms gives it) is answered by the index: plain letters or digits. */
export function indexableTerm(term: string): boolean {
  return PLAIN_LETTERS.test(term) || DIGITS.test(term);
}

/** The index term a query term matches (the stem FTS5's porter tokenizer gives it). */
export function indexTermOf(term: string): string {
  return porterStem(term);
}

/**
 * The indexable tokens of a text, each reduced as memories_fts reduces it (diacritics removed,
 * lower case, Porter stem), one entry per occurrence. Tokens of other shapes are skipped: no
 * indexable query term can match them.
 */
export function indexTokens(text: string): string[] {
  // Most memories are plain ASCII: no folding to do, and ASCII runs split on anything else.
  const folded = ASCII.test(text) ? text.toLowerCase() : text.normalize('NFD').replace(COMBINING, '').toLowerCase();
  const out: string[] = [];
  for (const run of folded.match(ASCII.test(folded) ? ASCII_RUN : TOKEN_RUN) ?? []) {
    if (PLAIN_LETTERS.test(run)) out.push(stemOf(run));
    else if (DIGITS.test(run)) out.push(run);
  }
  return out;
}

const STEMS = new Map<string, string>();
const STEMS_MAX = 50_000;

/** porterStem with the words already seen kept (a store's vocabulary repeats; the build stems every token). */
function stemOf(word: string): string {
  let s = STEMS.get(word);
  if (s === undefined) {
    s = porterStem(word);
    if (STEMS.size >= STEMS_MAX) STEMS.clear();
    STEMS.set(word, s);
  }
  return s;
}

class MutablePostings implements PostingList {
  docs = new Int32Array(2);
  tfs = new Uint16Array(2);
  length = 0;
  maxTf = 0;
  minLen = 0x7fffffff;

  add(doc: number, tf: number, len: number): void {
    if (this.length === this.docs.length) {
      const docs = new Int32Array(this.length * 2); docs.set(this.docs); this.docs = docs;
      const tfs = new Uint16Array(this.length * 2); tfs.set(this.tfs); this.tfs = tfs;
    }
    this.docs[this.length] = doc;
    this.tfs[this.length] = tf;
    this.length++;
    if (tf > this.maxTf) this.maxTf = tf;
    if (len < this.minLen) this.minLen = len;
  }

  /** One more occurrence in the last document added. */
  bump(): void {
    const tf = (this.tfs[this.length - 1] as number) + 1;
    if (tf <= 0xffff) this.tfs[this.length - 1] = tf;
    if (tf > this.maxTf) this.maxTf = tf;
  }

  bytes(): number { return this.docs.byteLength + this.tfs.byteLength; }
}

/** SQLite's varint (sqlite3GetVarint, as FTS5 writes its records): value and next offset. */
export function readVarint(buf: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const b = buf[at + i];
    if (b === undefined) return [v, at + i];
    v = v * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) return [v, at + i + 1];
  }
  const last = buf[at + 8] ?? 0;
  return [v * 256 + last, at + 9];
}

interface LoadRow { rid: number; content: string; sz: Uint8Array | null }

export class LexicalIndex implements Bm25Corpus {
  private terms = new Map<string, MutablePostings>();
  private lengths = new Int32Array(1024);
  docCount = 0;
  tokenCount = 0;
  private lastRowid = 0;
  private fingerprint = '';
  private rebuildWanted = false;
  private watching: Disposable | undefined;
  /** Loaded through the last row with FTS5's totals matched at `fingerprint`. */
  private complete = false;
  private building: ReturnType<typeof setTimeout> | undefined;
  /** Full builds started since creation (for tests and the bench). */
  builds = 0;

  /** With a store, a query finding the index incomplete builds it in the background (buildInBackground). */
  constructor(private readonly store?: MemoryStore) {}

  /** Forgets and team writes (which may rewrite a row in place) rebuild the index on its next use. */
  watch(store: MemoryStore): void {
    this.watching ??= store.onDidChange((change) => {
      if (change.labels.some((l) => REWRITING_LABELS.some((p) => l.startsWith(p)))) this.rebuildWanted = true;
    });
  }

  dispose(): void {
    this.watching?.dispose();
    this.watching = undefined;
    if (this.building) clearTimeout(this.building);
    this.building = undefined;
  }

  docLength(rowid: number): number { return this.lengths[rowid] ?? 0; }

  postings(indexTerm: string): PostingList | undefined { return this.terms.get(indexTerm); }

  /** Distinct index terms and the bytes of postings and lengths (the footprint the bench reports). */
  footprint(): { terms: number; postings: number; bytes: number } {
    let postings = 0, bytes = this.lengths.byteLength;
    for (const p of this.terms.values()) { postings += p.length; bytes += p.bytes() + 64; }
    return { terms: this.terms.size, postings, bytes };
  }

  /** Brings the index fully up to date now (tests, benches); returns whether it can answer. */
  sync(db: SqlReader): boolean {
    return this.catchUp(db, Infinity) || this.catchUp(db, Infinity);
  }

  /**
   * The query path: whether the index is complete and current. New rows are added within
   * QUERY_CATCH_UP_MS; an index not built yet (or to be rebuilt, or further behind) answers false,
   * so the arm asks FTS5 while the index builds in the background in short slices
   * (buildInBackground): a first build takes seconds at 100k memories (docs/store.md) and must not
   * block a host's event loop or a one-shot CLI recall.
   */
  current(db: SqlReader): boolean {
    if (this.complete && this.catchUp(db, QUERY_CATCH_UP_MS)) return true;
    this.buildInBackground();
    return false;
  }

  private buildInBackground(): void {
    const store = this.store;
    if (!store || this.building) return;
    const step = (): void => {
      this.building = undefined;
      let done = false;
      try { done = store.read((db) => this.catchUp(db, BUILD_SLICE_MS)); } catch { return; /* store closed: stop */ }
      if (!done) this.building = setTimeout(step, 0);
      // A one-shot process must not wait for the build to exit.
      (this.building as { unref?: () => void } | undefined)?.unref?.();
    };
    this.building = setTimeout(step, 0);
    (this.building as { unref?: () => void }).unref?.();
  }

  /**
   * Loads new rows for at most `budgetMs`; once the last row is in, checks FTS5's row and token
   * totals (a row deleted or rewritten in place since makes them differ: start again). True when
   * the index is complete and current.
   */
  private catchUp(db: SqlReader, budgetMs: number): boolean {
    const records = db.all<{ id: number; block: Uint8Array }>('SELECT id, block FROM memories_fts_data WHERE id IN (1, 10) ORDER BY id');
    const fingerprint = records.map((r) => r.block.join(',')).join('/');
    if (this.complete && fingerprint === this.fingerprint && !this.rebuildWanted) return true;
    if (this.rebuildWanted) { this.reset(); this.rebuildWanted = false; }
    this.complete = false;
    if (!this.load(db, budgetMs)) return false;
    const averages = records.find((r) => r.id === 1)?.block;
    let rowCount = 0, tokenCount = 0;
    if (averages && averages.length > 0) {
      const [rows, at] = readVarint(averages, 0);
      rowCount = rows;
      tokenCount = readVarint(averages, at)[0];
    }
    if (this.docCount !== rowCount || this.tokenCount !== tokenCount) { this.reset(); return false; }
    this.complete = true;
    this.fingerprint = fingerprint;
    return true;
  }

  private reset(): void {
    this.terms = new Map();
    this.lengths = new Int32Array(1024);
    this.docCount = 0;
    this.tokenCount = 0;
    this.lastRowid = 0;
    this.complete = false;
    this.builds++;
  }

  /** Adds rows after lastRowid for at most `budgetMs`; true when the last row is in. */
  private load(db: SqlReader, budgetMs: number): boolean {
    const t0 = performance.now();
    const batch = budgetMs === Infinity ? LOAD_BATCH : SLICE_BATCH;
    for (;;) {
      const rows = db.all<LoadRow>(
        `SELECT m.rowid AS rid, m.content AS content, d.sz AS sz FROM memories m JOIN memories_fts_docsize d ON d.id = m.rowid
          WHERE m.rowid > ? ORDER BY m.rowid LIMIT ?`, [this.lastRowid, batch]);
      for (const r of rows) this.addDoc(r.rid, r.content, r.sz ? readVarint(r.sz, 0)[0] : 0);
      if (rows.length < batch) return true;
      if (performance.now() - t0 >= budgetMs) return false;
    }
  }

  private addDoc(rowid: number, content: string, len: number): void {
    if (rowid >= this.lengths.length) {
      const grown = new Int32Array(Math.max(rowid + 1, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[rowid] = len;
    this.docCount++;
    this.tokenCount += len;
    this.lastRowid = rowid;
    for (const term of indexTokens(content)) {
      let p = this.terms.get(term);
      if (!p) { p = new MutablePostings(); this.terms.set(term, p); }
      // Documents arrive in rowid order: a repeated token is the list's last entry.
      if (p.length > 0 && p.docs[p.length - 1] === rowid) p.bump();
      else p.add(rowid, 1, len);
    }
  }
}

const perStore = new WeakMap<MemoryStore, LexicalIndex>();

/** The lexical index of `store`, watching it (created on first use, built on first sync). */
export function lexicalIndexFor(store: MemoryStore): LexicalIndex {
  let ix = perStore.get(store);
  if (!ix) { ix = new LexicalIndex(store); ix.watch(store); perStore.set(store, ix); }
  return ix;
}

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
 * Kept in step like the vector index (vectorIndex.ts): before each use one read of FTS5's averages
 * and structure records (two primary-key rows that every write to the index changes, own or another
 * process's replayed from the journal) tells whether anything changed; new rows (larger rowid) are
 * added; when FTS5's row or token totals then differ from the index's (a forget, an edited or
 * pulled content), or a forget or team write was reported, the index is rebuilt on the next use.
 */
import type { Disposable, MemoryStore, SqlReader } from '../store/storeTypes';
import type { Bm25Corpus, PostingList } from './bm25TopK';
import { porterStem } from './porterStemmer';

/** Rows read per statement while loading (as vectorIndex.ts). */
const LOAD_BATCH = 2048;
const PLAIN_LETTERS = /^[a-z]+$/;
const DIGITS = /^[0-9]+$/;
/** unicode61's token characters (letters, numbers, private use); diacritics are folded first. */
const TOKEN_RUN = /[\p{L}\p{N}\p{Co}]+/gu;
const COMBINING = /\p{Mn}/gu;
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
  const folded = text.normalize('NFD').replace(COMBINING, '').toLowerCase();
  const out: string[] = [];
  for (const run of folded.match(TOKEN_RUN) ?? []) {
    if (PLAIN_LETTERS.test(run)) out.push(porterStem(run));
    else if (DIGITS.test(run)) out.push(run);
  }
  return out;
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
    this.tfs[this.length] = Math.min(tf, 0xffff);
    this.length++;
    if (tf > this.maxTf) this.maxTf = tf;
    if (len < this.minLen) this.minLen = len;
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
  /** False when FTS5's totals could not be matched (the arm then asks FTS5, as before the index). */
  usable = false;
  /** Full builds since creation (for tests and the bench). */
  builds = 0;

  /** Forgets and team writes (which may rewrite a row in place) rebuild the index on its next use. */
  watch(store: MemoryStore): void {
    this.watching ??= store.onDidChange((change) => {
      if (change.labels.some((l) => REWRITING_LABELS.some((p) => l.startsWith(p)))) this.rebuildWanted = true;
    });
  }

  dispose(): void {
    this.watching?.dispose();
    this.watching = undefined;
  }

  docLength(rowid: number): number { return this.lengths[rowid] ?? 0; }

  postings(indexTerm: string): PostingList | undefined { return this.terms.get(indexTerm); }

  /** Distinct index terms and the bytes of postings and lengths (the footprint the bench reports). */
  footprint(): { terms: number; postings: number; bytes: number } {
    let postings = 0, bytes = this.lengths.byteLength;
    for (const p of this.terms.values()) { postings += p.length; bytes += p.bytes() + 64; }
    return { terms: this.terms.size, postings, bytes };
  }

  /** Brings the index up to date with memories_fts; returns whether it can answer (else ask FTS5). */
  sync(db: SqlReader): boolean {
    const records = db.all<{ id: number; block: Uint8Array }>('SELECT id, block FROM memories_fts_data WHERE id IN (1, 10) ORDER BY id');
    const averages = records.find((r) => r.id === 1)?.block;
    const fingerprint = records.map((r) => r.block.join(',')).join('/');
    if (fingerprint === this.fingerprint && !this.rebuildWanted) return this.usable;
    let rowCount = 0, tokenCount = 0;
    if (averages && averages.length > 0) {
      const [rows, at] = readVarint(averages, 0);
      rowCount = rows;
      tokenCount = readVarint(averages, at)[0];
    }
    if (this.rebuildWanted) { this.reset(); this.rebuildWanted = false; }
    this.load(db);
    if (this.docCount !== rowCount || this.tokenCount !== tokenCount) {
      // Rows left or changed in place: start again from the table (once).
      this.reset();
      this.load(db);
    }
    this.usable = this.docCount === rowCount && this.tokenCount === tokenCount;
    this.fingerprint = fingerprint;
    return this.usable;
  }

  private reset(): void {
    this.terms = new Map();
    this.lengths = new Int32Array(1024);
    this.docCount = 0;
    this.tokenCount = 0;
    this.lastRowid = 0;
    this.builds++;
  }

  private load(db: SqlReader): void {
    for (;;) {
      const rows = db.all<LoadRow>(
        `SELECT m.rowid AS rid, m.content AS content, d.sz AS sz FROM memories m JOIN memories_fts_docsize d ON d.id = m.rowid
          WHERE m.rowid > ? ORDER BY m.rowid LIMIT ?`, [this.lastRowid, LOAD_BATCH]);
      for (const r of rows) this.addDoc(r.rid, r.content, r.sz ? readVarint(r.sz, 0)[0] : 0);
      if (rows.length < LOAD_BATCH) break;
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
    const tf = new Map<string, number>();
    for (const t of indexTokens(content)) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [term, n] of tf) {
      let p = this.terms.get(term);
      if (!p) { p = new MutablePostings(); this.terms.set(term, p); }
      p.add(rowid, n, len);
    }
  }
}

const perStore = new WeakMap<MemoryStore, LexicalIndex>();

/** The lexical index of `store`, watching it (created on first use, built on first sync). */
export function lexicalIndexFor(store: MemoryStore): LexicalIndex {
  let ix = perStore.get(store);
  if (!ix) { ix = new LexicalIndex(); ix.watch(store); perStore.set(store, ix); }
  return ix;
}

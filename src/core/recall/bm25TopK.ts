/**
 * Top-k BM25 over in-memory posting lists with MaxScore pruning (Turtle & Flood 1995): the
 * lexical arm's candidate ranking without scoring every row that holds a common term
 * (docs/recall-design.md, "Lexical index"). The score is FTS5's bm25() (ext/fts5/fts5_aux.c,
 * k1 1.2, b 0.75) computed with the same arithmetic in the same phrase order, so scores equal
 * `-bm25(memories_fts)` and the order equals `ORDER BY rank` with ties by rowid ascending.
 *
 * MaxScore: lists sorted by their score bound; once the k-th best score θ is known, the lists whose
 * bounds together cannot exceed θ are "non-essential": only documents of the other lists are
 * visited, and a visited document looks into a non-essential list only while it can still beat θ.
 * Documents arrive in rowid order, so a later one needs a score strictly above θ to enter (ties
 * keep the smaller rowid, as FTS5's ordered scan does).
 */

export const FTS5_K1 = 1.2;
export const FTS5_B = 0.75;

/** One index term's documents (ascending rowids) and term frequencies. */
export interface PostingList {
  readonly docs: Int32Array;
  readonly tfs: Uint16Array;
  /** Entries in use (the arrays may be longer). */
  readonly length: number;
  /** Largest tf and smallest document length among the entries (for the score bound). */
  readonly maxTf: number;
  readonly minLen: number;
}

export interface Bm25Corpus {
  /** Rows in the index (FTS5's nRow). */
  readonly docCount: number;
  /** Tokens in the index (FTS5's total column size). */
  readonly tokenCount: number;
  docLength(rowid: number): number;
  postings(indexTerm: string): PostingList | undefined;
}

export interface ScoredDoc { readonly rowid: number; readonly score: number }

/** FTS5's idf: ln((N − n + 0.5) / (n + 0.5)), at least 1e-6. */
export function fts5Idf(docCount: number, hits: number): number {
  const idf = Math.log((docCount - hits + 0.5) / (hits + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/** One phrase's part of the score, written as fts5_aux.c writes it. */
export function fts5TermScore(idf: number, tf: number, len: number, avgdl: number): number {
  return idf * ((tf * (FTS5_K1 + 1.0)) / (tf + FTS5_K1 * (1 - FTS5_B + FTS5_B * len / avgdl)));
}

/** The full score of a document from its tf per phrase (0 where absent), summed in phrase order. */
function canonicalScore(idfs: Float64Array, tfs: Float64Array, len: number, avgdl: number): number {
  let s = 0.0;
  for (let i = 0; i < idfs.length; i++) s += (idfs[i] as number) * (((tfs[i] as number) * (FTS5_K1 + 1.0)) / ((tfs[i] as number) + FTS5_K1 * (1 - FTS5_B + FTS5_B * len / avgdl)));
  return s;
}

/** Min-heap of the k best, worst on top: lower score, or equal score and larger rowid. */
class TopK {
  readonly rowids: number[] = [];
  readonly scores: number[] = [];
  constructor(readonly k: number) {}
  get full(): boolean { return this.rowids.length >= this.k; }
  get worstScore(): number { return this.scores[0] as number; }
  private worse(i: number, j: number): boolean {
    const a = this.scores[i] as number, b = this.scores[j] as number;
    return a < b || (a === b && (this.rowids[i] as number) > (this.rowids[j] as number));
  }
  private swap(i: number, j: number): void {
    const r = this.rowids[i] as number; this.rowids[i] = this.rowids[j] as number; this.rowids[j] = r;
    const s = this.scores[i] as number; this.scores[i] = this.scores[j] as number; this.scores[j] = s;
  }
  push(rowid: number, score: number): void {
    if (this.full) { this.rowids[0] = rowid; this.scores[0] = score; this.down(0); return; }
    this.rowids.push(rowid); this.scores.push(score);
    for (let i = this.rowids.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) break;
      this.swap(i, p); i = p;
    }
  }
  private down(i: number): void {
    for (const n = this.rowids.length; ;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < n && this.worse(l, m)) m = l;
      if (r < n && this.worse(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m); i = m;
    }
  }
  sorted(): ScoredDoc[] {
    return this.rowids.map((rowid, i) => ({ rowid, score: this.scores[i] as number }))
      .sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  }
}

/** First position ≥ from in list whose doc is ≥ target (galloping, then binary search). */
function seek(docs: Int32Array, length: number, from: number, target: number): number {
  if (from >= length || (docs[from] as number) >= target) return from;
  let step = 1, lo = from, hi = from + 1;
  while (hi < length && (docs[hi] as number) < target) { lo = hi; step *= 2; hi = from + step; }
  if (hi > length) hi = length;
  while (lo + 1 < hi) { const mid = (lo + hi) >> 1; if ((docs[mid] as number) < target) lo = mid; else hi = mid; }
  return hi;
}

/**
 * The `k` best documents for the OR of `phrases` (index terms, in query order; a term may repeat,
 * as FTS5 counts a repeated phrase twice), best first, scored as FTS5's bm25 (positive here).
 */
export function bm25TopK(corpus: Bm25Corpus, phrases: readonly string[], k: number): ScoredDoc[] {
  const n = phrases.length;
  if (n === 0 || k <= 0 || corpus.docCount <= 0) return [];
  const avgdl = corpus.tokenCount / corpus.docCount;
  const idfs = new Float64Array(n);
  interface Cursor { phrase: number; list: PostingList; bound: number; pos: number }
  const cursors: Cursor[] = [];
  phrases.forEach((p, i) => {
    const list = corpus.postings(p);
    const df = list?.length ?? 0;
    idfs[i] = fts5Idf(corpus.docCount, df);
    if (list && df > 0) cursors.push({ phrase: i, list, bound: fts5TermScore(idfs[i] as number, list.maxTf, list.minLen, avgdl), pos: 0 });
  });
  if (cursors.length === 0) return [];
  // Ascending bounds; prefix[j] = bound of lists 0..j-1 together.
  cursors.sort((a, b) => a.bound - b.bound);
  const prefix = new Float64Array(cursors.length + 1);
  for (let j = 0; j < cursors.length; j++) prefix[j + 1] = (prefix[j] as number) + (cursors[j] as Cursor).bound;
  const top = new TopK(k);
  const tfs = new Float64Array(n);
  // Bounds are compared with a small slack below θ, so rounding never prunes a document that could enter.
  const threshold = (): number => (top.full ? top.worstScore - 1e-9 * Math.max(1, Math.abs(top.worstScore)) : -Infinity);
  let firstEssential = 0;
  let theta = -Infinity;
  for (;;) {
    let doc = 0x7fffffff;
    for (let j = firstEssential; j < cursors.length; j++) {
      const c = cursors[j] as Cursor;
      if (c.pos < c.list.length) { const d = c.list.docs[c.pos] as number; if (d < doc) doc = d; }
    }
    if (doc === 0x7fffffff) break;
    tfs.fill(0);
    const len = corpus.docLength(doc);
    let partial = 0;
    for (let j = firstEssential; j < cursors.length; j++) {
      const c = cursors[j] as Cursor;
      if (c.pos < c.list.length && c.list.docs[c.pos] === doc) {
        const tf = c.list.tfs[c.pos] as number;
        tfs[c.phrase] = tf;
        partial += fts5TermScore(idfs[c.phrase] as number, tf, len, avgdl);
        c.pos++;
      }
    }
    let pruned = false;
    for (let j = firstEssential - 1; j >= 0; j--) {
      if (partial + (prefix[j + 1] as number) < theta) { pruned = true; break; }
      const c = cursors[j] as Cursor;
      c.pos = seek(c.list.docs, c.list.length, c.pos, doc);
      if (c.pos < c.list.length && c.list.docs[c.pos] === doc) {
        const tf = c.list.tfs[c.pos] as number;
        tfs[c.phrase] = tf;
        partial += fts5TermScore(idfs[c.phrase] as number, tf, len, avgdl);
      }
    }
    if (pruned) continue;
    const score = canonicalScore(idfs, tfs, len, avgdl);
    if (top.full && !(score > top.worstScore)) continue;
    top.push(doc, score);
    if (top.full) {
      theta = threshold();
      while (firstEssential < cursors.length && (prefix[firstEssential + 1] as number) < theta) firstEssential++;
    }
  }
  return top.sorted();
}

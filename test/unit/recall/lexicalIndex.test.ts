/**
 * The in-memory lexical index (src/core/recall/lexicalIndex.ts, bm25TopK.ts; docs/recall-design.md
 * "Lexical index"): over random corpora its top k equals a brute-force BM25 over every document and
 * equals FTS5's own `ORDER BY rank` (rows, order and scores), and it stays in step with the store on
 * inserts, forgets, in-place edits and another process's writes.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_SEARCH_CONFIG } from '../../../src/core/config/searchConfig';
import { forgetMemory } from '../../../src/core/memory/forget';
import { insertMemory as insertMemoryRecord } from '../../../src/core/memory/memoryRecords';
import { bm25TopK, fts5Idf, fts5TermScore } from '../../../src/core/recall/bm25TopK';
import type { ScoredDoc } from '../../../src/core/recall/bm25TopK';
import { buildMatchExpression } from '../../../src/core/recall/ftsQuery';
import { lexicalSearch } from '../../../src/core/recall/lexicalArm';
import { indexableTerm, indexTermOf, indexTokens, LexicalIndex, lexicalIndexFor } from '../../../src/core/recall/lexicalIndex';
import { queryTerms } from '../../../src/core/recall/queryTerms';
import { openStore } from '../../../src/core/store/openStore';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlReader } from '../../../src/core/store/storeTypes';
import { makeTempDir } from '../helpers/tempDir';
import { insertMemory, seed } from './recallDb';

let state = 11;
const rnd = (): number => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return state / 2 ** 32; };
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
// Few words, so most are common; stemming pairs ("paint"/"painting"), digits, accents, capitals.
const WORDS = ['database', 'databases', 'billing', 'service', 'services', 'paint', 'painting', 'painted', 'cache', 'queue',
  'Error', 'ERRORS', 'café', 'naïve', 'deploy', 'deploys', 'login', 'x', 'go', '2024', '42', 'v2', 'snake_case', 'über', 'test'];
const SEPARATORS = [' ', ' ', ' ', ', ', '. ', ' - ', ' (', ') ', '; ', '/', ' "'];

function randomText(): string {
  const n = 1 + Math.floor(rnd() * 14);
  let s = '';
  for (let i = 0; i < n; i++) s += pick(WORDS) + pick(SEPARATORS);
  return s.trim() || 'empty';
}

/** FTS5's own answer: rowids and bm25 (negated, so higher is better) in `ORDER BY rank` order. */
function ftsTop(db: SqlReader, terms: readonly string[], k: number): ScoredDoc[] {
  const match = buildMatchExpression(terms, 'OR');
  if (!match) return [];
  return db.all<{ rowid: number; rank: number }>('SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?', [match, k])
    .map((r) => ({ rowid: r.rowid, score: -r.rank }));
}

/** Brute force: every document's BM25 from its own text and FTS5's lengths, sorted, cut at k. */
interface BruteDoc { rid: number; len: number; tokens: string[] }
function bruteDocs(db: SqlReader): BruteDoc[] {
  const len = (sz: Uint8Array): number => { let v = 0; for (const b of sz) { v = v * 128 + (b & 0x7f); if ((b & 0x80) === 0) break; } return v; };
  return db.all<{ rid: number; content: string; sz: Uint8Array }>('SELECT m.rowid AS rid, m.content AS content, d.sz AS sz FROM memories m JOIN memories_fts_docsize d ON d.id = m.rowid')
    .map((d) => ({ rid: d.rid, len: len(d.sz), tokens: indexTokens(d.content) }));
}

function bruteTop(docs: readonly BruteDoc[], terms: readonly string[], k: number): ScoredDoc[] {
  const N = docs.length;
  const avgdl = docs.reduce((a, d) => a + d.len, 0) / N;
  const stems = terms.map(indexTermOf);
  const idf = stems.map((s) => fts5Idf(N, docs.filter((d) => d.tokens.includes(s)).length));
  const out: ScoredDoc[] = [];
  for (const d of docs) {
    const tf = stems.map((s) => d.tokens.filter((t) => t === s).length);
    if (tf.every((x) => x === 0)) continue;
    let score = 0;
    tf.forEach((x, j) => { score += x > 0 ? fts5TermScore(idf[j] as number, x, d.len, avgdl) : 0; });
    out.push({ rowid: d.rid, score });
  }
  return out.sort((a, b) => b.score - a.score || a.rowid - b.rowid).slice(0, k);
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a));

function assertSameTop(actual: readonly ScoredDoc[], expected: readonly ScoredDoc[], what: string): void {
  assert.deepEqual(actual.map((d) => d.rowid), expected.map((d) => d.rowid), `${what}: rows`);
  actual.forEach((d, i) => assert.ok(close(d.score, (expected[i] as ScoredDoc).score), `${what}: score of row ${d.rowid} ${d.score} vs ${(expected[i] as ScoredDoc).score}`));
}

function randomQuery(): string[] {
  const n = 1 + Math.floor(rnd() * 5);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pick(WORDS).toLowerCase());
  return [...new Set(out)].filter(indexableTerm);
}

describe('lexical index: bm25 top k', () => {
  it('equals brute-force BM25 and FTS5 ORDER BY rank over random corpora and queries', async function () {
    this.timeout(120_000); // ~5 s on a quiet machine; this one is shared
    for (let corpus = 0; corpus < 12; corpus++) {
      const store = await openMemoryStore({ clock: new ManualClock() });
      try {
        const n = 1 + Math.floor(rnd() * (corpus < 6 ? 40 : 300));
        await seed(store, (w) => { for (let i = 0; i < n; i++) insertMemory(w, { id: `m${i}`, content: randomText() }); });
        const index = new LexicalIndex();
        store.read((db) => {
          assert.equal(index.sync(db), true);
          const docs = bruteDocs(db);
          for (let q = 0; q < 25; q++) {
            const terms = randomQuery();
            if (terms.length === 0) continue;
            const k = 1 + Math.floor(rnd() * 60);
            const got = bm25TopK(index, terms.map(indexTermOf), k);
            const what = `corpus ${corpus} (${n} docs), query ${JSON.stringify(terms)}, k ${k}`;
            assertSameTop(got, bruteTop(docs, terms, k), `${what} vs brute force`);
            assertSameTop(got, ftsTop(db, terms, k), `${what} vs FTS5`);
          }
        });
      } finally {
        await store.close();
      }
    }
  });

  it('prunes: on a common-term corpus it scores fewer documents than hold the terms, with the same answer', async function () {
    this.timeout(120_000);
    const store = await openMemoryStore({ clock: new ManualClock() });
    try {
      await seed(store, (w) => {
        for (let i = 0; i < 3000; i++) insertMemory(w, { id: `m${i}`, content: `${i % 3 === 0 ? 'service ' : ''}${i % 4 === 0 ? 'billing ' : ''}${i % 97 === 0 ? 'database ' : ''}note` });
      });
      const index = new LexicalIndex();
      store.read((db) => {
        index.sync(db);
        let lengthCalls = 0;
        const counting = Object.create(index, { docLength: { value: (r: number) => { lengthCalls++; return index.docLength(r); } } }) as LexicalIndex;
        const got = bm25TopK(counting, ['servic', 'bill', 'databas'], 20);
        assertSameTop(got, ftsTop(db, ['service', 'billing', 'database'], 20), 'common terms');
        const holding = 1000 + 750 - 250 + 31;
        assert.ok(lengthCalls < holding / 2, `scored ${lengthCalls} of ${holding} documents`);
      });
    } finally {
      await store.close();
    }
  });

  it('leaves terms of other shapes to FTS5 and folds text as unicode61 does', () => {
    assert.equal(indexableTerm('database'), true);
    assert.equal(indexableTerm('2024'), true);
    assert.equal(indexableTerm('v2'), false);
    assert.equal(indexableTerm('snake_case'), false);
    assert.equal(indexableTerm('数据'), false);
    assert.deepEqual(indexTokens('Café NAÏVE painting v2 snake_case 2024'), ['cafe', 'naiv', 'paint', 'snake', 'case', '2024']);
  });
});

describe('lexical index: in step with the store', () => {
  const top = (store: MemoryStore, index: LexicalIndex, terms: string[], k = 50): { got: ScoredDoc[]; fts: ScoredDoc[] } =>
    store.read((db) => { assert.equal(index.sync(db), true); return { got: bm25TopK(index, terms.map(indexTermOf), k), fts: ftsTop(db, terms, k) }; });

  it('follows inserts, forgets and in-place edits, rebuilding only when rows left or changed', async () => {
    const store = await openMemoryStore({ clock: new ManualClock() });
    try {
      await seed(store, (w) => { for (let i = 0; i < 30; i++) insertMemory(w, { id: `m${i}`, content: `billing service note ${i % 3 === 0 ? 'database' : ''}` }); });
      const index = new LexicalIndex();
      index.watch(store);
      let r = top(store, index, ['database', 'billing']);
      assertSameTop(r.got, r.fts, 'initial');
      const builds = index.builds;
      await seed(store, (w) => insertMemory(w, { id: 'new', content: 'database database database' }));
      r = top(store, index, ['database', 'billing']);
      assertSameTop(r.got, r.fts, 'after insert');
      assert.equal(index.builds, builds, 'an insert is added, not rebuilt');
      assert.equal(store.read((db) => db.get<{ rowid: number }>("SELECT rowid FROM memories WHERE id = 'new'"))?.rowid, r.got[0]?.rowid);
      await forgetMemory(store, 'm3', new ManualClock());
      r = top(store, index, ['database', 'billing']);
      assertSameTop(r.got, r.fts, 'after forget');
      await store.write('edit', (w) => w.run("UPDATE memories SET content = 'nothing here' WHERE id = 'm6'"));
      r = top(store, index, ['database']);
      assertSameTop(r.got, r.fts, 'after an in-place edit');
      // Same length, same totals: an edit the totals cannot see, reported by the team write label.
      await store.write('team.pull', (w) => w.run("UPDATE memories SET content = 'billing service note billing' WHERE id = 'm9'"));
      await new Promise((resolve) => setImmediate(resolve));
      r = top(store, index, ['database', 'billing']);
      assertSameTop(r.got, r.fts, 'after a team write of the same length');
      index.dispose();
    } finally {
      await store.close();
    }
  });

  it('sees another process\'s writes through the journal', async function () {
    this.timeout(60_000);
    const temp = makeTempDir();
    const a = await openStore({ dir: temp.dir, clock: new ManualClock(), config: { pollIntervalMs: 10 } });
    const b = await openStore({ dir: temp.dir, clock: new ManualClock(), config: { pollIntervalMs: 10 } });
    try {
      await a.write('remember', (w) => { for (let i = 0; i < 20; i++) insertMemoryRecord(w, { content: `service billing note number ${i}`, createdAt: '2026-01-01T00:00:00Z' }); });
      const index = lexicalIndexFor(b);
      let r = top(b, index, ['billing', 'database']);
      assert.equal(r.got.length, 20);
      assertSameTop(r.got, r.fts, 'first sync in b');
      await a.write('remember', (w) => insertMemoryRecord(w, { content: 'database billing written by a', createdAt: '2026-01-01T00:00:00Z' }));
      r = top(b, index, ['billing', 'database']);
      assertSameTop(r.got, r.fts, 'after a wrote');
      assert.equal(b.read((db) => db.get<{ content: string }>('SELECT content FROM memories WHERE rowid = ?', [r.got[0]?.rowid ?? 0]))?.content, 'database billing written by a');
    } finally {
      await a.close();
      await b.close();
      temp.cleanup();
    }
  });
});

describe('lexical index: background build', () => {
  it('answers nothing until built, builds in slices without blocking, then answers and follows writes', async function () {
    this.timeout(120_000);
    const store = await openMemoryStore({ clock: new ManualClock() });
    try {
      // Enough rows that no single 8 ms slice builds them all (3,000 fit in one once row reads got faster).
      await seed(store, (w) => { for (let i = 0; i < 12_000; i++) insertMemory(w, { id: `m${i}`, content: `billing service note ${i} ${i % 7 === 0 ? 'database' : ''}` }); });
      const index = lexicalIndexFor(store);
      assert.equal(store.read((db) => index.current(db)), false, 'the first query goes to FTS5');
      let turns = 0;
      while (!store.read((db) => index.current(db))) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        assert.ok(++turns < 5000, 'the build finishes');
      }
      assert.ok(turns > 1, `built over ${turns} turns of the event loop`);
      await seed(store, (w) => insertMemory(w, { id: 'late', content: 'database database' }));
      const r = store.read((db) => ({ ok: index.current(db), got: bm25TopK(index, ['databas'], 5), fts: ftsTop(db, ['database'], 5) }));
      assert.equal(r.ok, true);
      assertSameTop(r.got, r.fts, 'after a write, in the query path');
    } finally {
      await store.close();
    }
  });
});

describe('lexical arm with the index', () => {
  it('gives the same lexical channel as FTS5 alone for every query of a random corpus', async function () {
    this.timeout(120_000); // ~3 s on a quiet machine
    const store = await openMemoryStore({ clock: new ManualClock() });
    try {
      await seed(store, (w) => { for (let i = 0; i < 600; i++) insertMemory(w, { id: `m${i}`, content: randomText() }); });
      const index = new LexicalIndex();
      const cfg = { ...DEFAULT_SEARCH_CONFIG, lexical: { ...DEFAULT_SEARCH_CONFIG.lexical, commonTermMinDocs: 50 } };
      let asked = 0;
      const postings = index.postings.bind(index);
      index.postings = (term) => { asked++; return postings(term); };
      store.read((db) => {
        index.sync(db);
        let used = 0;
        for (let q = 0; q < 60; q++) {
          const terms = queryTerms(Array.from({ length: 1 + (q % 5) }, () => pick(WORDS)).join(' '), cfg.lexical.maxTerms);
          const plain = lexicalSearch(db, terms, {}, cfg);
          const indexed = lexicalSearch(db, terms, {}, cfg, undefined, index);
          if (terms.every(indexableTerm)) used++;
          assert.deepEqual([...indexed.entries()], [...plain.entries()], `query ${JSON.stringify(terms)}`);
        }
        assert.ok(used > 20 && asked >= used, `the index answered ${used} queries (${asked} posting lists read)`);
      });
    } finally {
      await store.close();
    }
  });
});

import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { buildMatchExpression, quoteFtsTerm } from '../../../src/core/recall/ftsQuery';
import { queryTerms } from '../../../src/core/recall/queryTerms';
import { insertMemory, seed } from './recallDb';

const ALPHABET = ['"', "'", '*', '^', ':', '(', ')', '{', '}', '[', ']', '-', '+', ' ', 'AND', 'OR', 'NOT', 'NEAR', 'content',
  '\u0000', '\n', '\\', '%', '_', 'port', '配置', '🙂', ',', '.', '/', '<', '>', ';', '=', '\u200b', 'é'];

describe('recall FTS sanitiser fuzz (real FTS5 table)', () => {
  it('never makes MATCH throw for 2,000 hostile strings, quoted raw or through queryTerms', async () => {
    const store = await openMemoryStore({ clock: new ManualClock() });
    await seed(store, (w) => insertMemory(w, { id: 'a', content: 'port "quoted" AND content: NEAR star* 配置文件' }));
    let s = 12345;
    const rnd = (n: number): number => { s = (s * 1103515245 + 12345) % 2 ** 31; return s % n; };
    try {
      for (let i = 0; i < 2000; i++) {
        const text = Array.from({ length: 1 + rnd(12) }, () => ALPHABET[rnd(ALPHABET.length)]).join(rnd(2) ? ' ' : '');
        const raw = quoteFtsTerm(text);
        const exprs = [raw === '""' ? undefined : raw, buildMatchExpression(queryTerms(text, 8), 'OR'), buildMatchExpression(text.split(' '), 'AND')];
        for (const e of exprs) {
          if (e === undefined) continue;
          store.read((db) => db.all('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?', [e]));
        }
      }
      // A quoted operator is a literal phrase: it matches the stored word, not the operator.
      assert.equal(store.read((db) => db.all('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?', [quoteFtsTerm('NEAR')])).length, 1);
      assert.equal(store.read((db) => db.all('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?', [quoteFtsTerm('NOT')])).length, 0);
    } finally {
      await store.close();
    }
  });
});

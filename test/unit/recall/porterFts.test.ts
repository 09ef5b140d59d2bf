import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { lexicalSearch } from '../../../src/core/recall/lexicalArm';
import { porterStem } from '../../../src/core/recall/porterStemmer';
import { queryTerms } from '../../../src/core/recall/queryTerms';
import { countHits } from '../../../src/core/recall/termProbe';
import { MIGRATIONS, runMigrations } from '../../../src/core/store/migrations';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { PORTER_FTS_MIGRATION_VERSION } from '../../../src/core/store/schema/porterFtsSchema';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { insertMemory } from './recallDb';

const T0 = '2026-01-01T00:00:00.000Z';
const cfg = resolveSearchConfig();

function search(store: MemoryStore, query: string): string[] {
  return [...store.read((db) => lexicalSearch(db, queryTerms(query, cfg.lexical.maxTerms), {}, cfg)).keys()].sort();
}

describe('Porter stemmer', () => {
  // Pairs from Porter's paper and the reference vocabulary (tartarus.org/martin/PorterStemmer).
  const table: Array<[string, string]> = [
    ['caresses', 'caress'], ['ponies', 'poni'], ['cats', 'cat'], ['feed', 'feed'], ['agreed', 'agre'],
    ['plastered', 'plaster'], ['motoring', 'motor'], ['sing', 'sing'], ['conflated', 'conflat'], ['troubled', 'troubl'],
    ['sized', 'size'], ['hopping', 'hop'], ['falling', 'fall'], ['hissing', 'hiss'], ['filing', 'file'], ['happy', 'happi'],
    ['relational', 'relat'], ['conditional', 'condit'], ['rational', 'ration'], ['generalization', 'gener'],
    ['triplicate', 'triplic'], ['formative', 'form'], ['electrical', 'electr'], ['hopeful', 'hope'], ['goodness', 'good'],
    ['revival', 'reviv'], ['allowance', 'allow'], ['adjustable', 'adjust'], ['replacement', 'replac'], ['adoption', 'adopt'],
    ['communism', 'commun'], ['effective', 'effect'], ['probate', 'probat'], ['rate', 'rate'], ['controll', 'control'], ['roll', 'roll'],
    ['painting', 'paint'], ['paintings', 'paint'], ['painted', 'paint'],
  ];
  for (const [word, stem] of table) it(`${word} → ${stem}`, () => assert.equal(porterStem(word), stem));

  it('leaves identifiers, digits, short words and non-Latin text as given', () => {
    for (const w of ['http2', 'snake_case_name', 'v2', 'is', 'ok', '数据库', 'café']) assert.equal(porterStem(w), w);
  });

  it('term probing counts a hit for another form of the word', () => {
    assert.equal(countHits(['painting', 'sunsets'], 'Melanie painted a sunset last week'), 2);
    assert.equal(countHits(['http2'], 'The proxy speaks http2 only'), 1);
    assert.equal(countHits(['http'], 'The proxy speaks http2 only'), 0);
  });
});

describe('memories_fts with Porter stemming (migration 23)', () => {
  let store: MemoryStore;
  const clock = new ManualClock();
  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await store.write('seed', (w) => {
      insertMemory(w, { id: 'paint', content: 'Melanie painted a sunrise by the lake.' });
      insertMemory(w, { id: 'runs', content: 'The nightly job runs the migrations.' });
      insertMemory(w, { id: 'ident', content: 'Call getUserName from user_service.py over http2.' });
      insertMemory(w, { id: 'name', content: 'Kubernetes hosts the billing service.' });
      insertMemory(w, { id: 'zh', content: '生产环境的数据库端口是 5433' });
    });
  });
  afterEach(async () => { await store.close(); });

  it('matches other forms of a word', () => {
    assert.deepEqual(search(store, 'paintings'), ['paint']);
    assert.deepEqual(search(store, 'painting'), ['paint']);
    assert.deepEqual(search(store, 'running migration'), ['runs']);
  });

  it('exact names and code identifiers still match exactly', () => {
    assert.deepEqual(search(store, 'getUserName'), ['ident']);
    assert.deepEqual(search(store, 'user_service'), ['ident']);
    assert.deepEqual(search(store, 'http2'), ['ident']);
    assert.deepEqual(search(store, 'http'), []);
    assert.deepEqual(search(store, 'Kubernetes'), ['name']);
  });

  it('CJK terms are still probed as substrings', () => {
    assert.deepEqual(search(store, '端口是多少？'), ['zh']);
  });

  it('the migration rebuilds the index of a store created before it, with the vocabulary view', async () => {
    const older = await openMemoryStore({ clock, migrations: MIGRATIONS.filter((m) => m.version < PORTER_FTS_MIGRATION_VERSION) });
    try {
      await older.write('seed', (w) => insertMemory(w, { id: 'o-paint', content: 'Caroline paints landscapes on weekends.' }));
      assert.deepEqual(search(older, 'painting'), []);
      const first = await older.write('migrate', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }));
      assert.equal(first.applied[0], PORTER_FTS_MIGRATION_VERSION, 'the stemming migration runs first on a store from before it');
      assert.deepEqual(search(older, 'painting'), ['o-paint']);
      assert.equal(older.read((db) => db.get<{ doc: number }>("SELECT doc FROM memories_fts_vocab WHERE term = 'paint'")?.doc), 1);
      await older.write('later', (w) => insertMemory(w, { id: 'o-new', content: 'The painter arrived.' }));
      assert.deepEqual(search(older, 'painter'), ['o-new']);
      assert.equal(older.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memories_fts WHERE memories_fts MATCH 'landscape'")?.n), 1);
      const second = await older.write('migrate', (w) => runMigrations(w, { nowIso: T0, newStoreId: () => 'x' }));
      assert.deepEqual(second.applied, []);
    } finally {
      await older.close();
    }
  });
});

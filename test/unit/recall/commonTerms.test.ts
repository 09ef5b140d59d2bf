import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { lexicalSearch } from '../../../src/core/recall/lexicalArm';
import { candidateTerms } from '../../../src/core/recall/termProbe';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { insertMemory } from './recallDb';

describe('common-term pruning of the lexical candidate query', () => {
  it('drops terms held by more than the fraction of memories, keeping order', () => {
    const docs = new Map([['widget', 60], ['parser', 3], ['cache', 10]]);
    assert.deepEqual(candidateTerms(['widget', 'parser', 'cache'], docs, 100, 0.1), ['parser', 'cache']);
  });

  it('keeps every term when only terms held by no memory would remain (no candidates otherwise)', () => {
    assert.deepEqual(candidateTerms(['widget', 'zzz'], new Map([['widget', 60]]), 100, 0.1), ['widget', 'zzz']);
    assert.deepEqual(candidateTerms(['widget', 'zzz', 'parser'], new Map([['widget', 60], ['parser', 2]]), 100, 0.1), ['zzz', 'parser']);
  });

  it('never drops a term held by at most minDocs memories', () => {
    const docs = new Map([['widget', 60], ['parser', 3]]);
    assert.deepEqual(candidateTerms(['widget', 'parser'], docs, 100, 0.1, 60), ['widget', 'parser']);
    assert.deepEqual(candidateTerms(['widget', 'parser'], docs, 100, 0.1, 59), ['parser']);
  });

  it('keeps every term when all of them are common, so the query keeps its candidates', () => {
    const docs = new Map([['widget', 60], ['gadget', 50]]);
    assert.deepEqual(candidateTerms(['widget', 'gadget'], docs, 100, 0.1), ['widget', 'gadget']);
  });

  it('keeps a single term, an empty store and fraction 1 (off) unchanged', () => {
    const docs = new Map([['widget', 60], ['parser', 3]]);
    assert.deepEqual(candidateTerms(['widget'], docs, 100, 0.1), ['widget']);
    assert.deepEqual(candidateTerms(['widget', 'parser'], docs, 0, 0.1), ['widget', 'parser']);
    assert.deepEqual(candidateTerms(['widget', 'parser'], docs, 100, 1), ['widget', 'parser']);
  });

  describe('in the lexical arm (memories_fts_vocab, migration 22)', () => {
    let store: MemoryStore;
    beforeEach(async () => {
      store = await openMemoryStore({ clock: new ManualClock() });
      await store.write('seed', (w) => {
        for (let i = 0; i < 20; i++) insertMemory(w, { id: `c${i}`, content: `service note number ${i}` });
        insertMemory(w, { id: 'rare', content: 'the service restarts the parser worker' });
        insertMemory(w, { id: 'only-rare', content: 'parser worker tuned' });
      });
    });
    afterEach(async () => { await store.close(); });

    it('reads document counts per term from the vocabulary table', () => {
      // Index terms are Porter stems since migration 23.
      const doc = store.read((db) => db.get<{ doc: number }>('SELECT doc FROM memories_fts_vocab WHERE term = ?', ['servic'])?.doc);
      assert.equal(doc, 21);
    });

    it('a common term still counts as a hit, so the memory holding every term ranks first', () => {
      const cfg = resolveSearchConfig({ lexical: { commonTermFraction: 0.5, commonTermMinDocs: 0 } });
      const hits = store.read((db) => lexicalSearch(db, ['service', 'parser'], {}, cfg));
      assert.deepEqual([...hits.keys()], ['rare']);
      assert.equal(hits.get('rare')?.hits, 2);
    });

    it('the default floor leaves a small store unpruned', () => {
      const hits = store.read((db) => lexicalSearch(db, ['service', 'parser', 'worker'], {}, resolveSearchConfig({ lexical: { commonTermFraction: 0.5 } })));
      assert.ok(hits.has('c0'));
    });

    it('memories holding only the common term are no longer candidates of a long query', () => {
      const on = resolveSearchConfig({ lexical: { commonTermFraction: 0.5, commonTermMinDocs: 0 } });
      const off = resolveSearchConfig({ lexical: { commonTermFraction: 1 } });
      const terms = ['service', 'parser', 'worker'];
      const withPruning = store.read((db) => lexicalSearch(db, terms, {}, on));
      const without = store.read((db) => lexicalSearch(db, terms, {}, off));
      assert.deepEqual([...withPruning.keys()].sort(), ['only-rare', 'rare']);
      assert.ok(without.has('c0'));
      assert.deepEqual([...without.keys()].slice(0, 2), [...withPruning.keys()]);
    });
  });
});

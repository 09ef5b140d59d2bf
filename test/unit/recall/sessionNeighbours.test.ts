import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { expandSessionNeighbours, loadPreviousTurns, loadSessionNeighbours, takesTurns } from '../../../src/core/recall/sessionNeighbours';
import type { NeighbourRow } from '../../../src/core/recall/sessionNeighbours';
import { emptyChannels } from '../../../src/core/recall/recallTypes';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';
import { cand } from './candidateFixture';

const on = resolveSearchConfig({ neighbours: { enabled: true, weight: 0.5, head: 2, span: 1 } }).neighbours;
const row = (id: string): NeighbourRow => ({ id, content: `turn ${id}`, type: 'fact', createdAt: '2026-01-01T00:00:00.000Z', sourceId: id, importance: 0.5 });

describe('session neighbourhood expansion', () => {
  it('is on by default; switched off it changes nothing', () => {
    assert.equal(resolveSearchConfig().neighbours.enabled, true);
    const cfg = resolveSearchConfig({ neighbours: { enabled: false } }).neighbours;
    const out = expandSessionNeighbours([cand('a', 0.9)], new Map([['a', [row('b')]]]), cfg, emptyChannels);
    assert.deepEqual(out.map((c) => c.id), ['a']);
  });

  it('adds a head candidate\'s neighbour at weight × its score, with a note, in score order', () => {
    const out = expandSessionNeighbours([cand('a', 0.8), cand('x', 0.5), cand('y', 0.3)], new Map([['a', [row('b')]]]), on, emptyChannels);
    assert.deepEqual(out.map((c) => c.id), ['a', 'x', 'b', 'y']);
    const b = out[2];
    assert.ok(b);
    assert.ok(Math.abs(b.score - 0.4) < 1e-9);
    assert.deepEqual(b.explain.sources, ['neighbour']);
    assert.match(b.explain.notes.join(' '), /same session/);
  });

  it('lifts a lower-ranked neighbour and never lowers a higher one', () => {
    const low = expandSessionNeighbours([cand('a', 0.8), cand('x', 0.5), cand('b', 0.1)], new Map([['a', [row('b')]]]), on, emptyChannels);
    assert.deepEqual(low.map((c) => [c.id, Number(c.score.toFixed(3))]), [['a', 0.8], ['x', 0.5], ['b', 0.4]]);
    assert.equal(low[2]?.explain.boosts[0]?.stage, 'neighbours');
    const high = expandSessionNeighbours([cand('a', 0.8), cand('b', 0.7)], new Map([['a', [row('b')]]]), on, emptyChannels);
    assert.deepEqual(high.map((c) => [c.id, c.score]), [['a', 0.8], ['b', 0.7]]);
  });

  it('only the head passes score on, and a lifted neighbour passes nothing further', () => {
    const neighbours = new Map([['a', [row('b')]], ['b', [row('c')]], ['z', [row('q')]]]);
    const out = expandSessionNeighbours([cand('a', 0.8), cand('b', 0.1), cand('z', 0.05)], neighbours, on, emptyChannels);
    // b (rank 2) is lifted to 0.4 by a, but offers c half of its own 0.1; z (rank 3) offers q nothing.
    assert.deepEqual(out.map((c) => c.id), ['a', 'b', 'z', 'c']);
    assert.ok(Math.abs((out[3]?.score ?? 0) - 0.05) < 1e-9);
  });

  it('knows two authors taking turns from notes', () => {
    const cases: [readonly (string | null)[], boolean][] = [
      [['Caroline', 'Melanie', 'Caroline'], true],
      [['user', 'assistant'], true],
      [['user', 'assistant', 'user', 'assistant', 'user'], true],
      [['codex', 'codex', 'claude-code'], false], // one follows itself
      [['a', 'b', 'c'], false], // three authors
      [['user', null, 'user'], false], // an unknown author
      [['user'], false], // one turn is no exchange
      [['user', 'user'], false],
    ];
    for (const [authors, want] of cases) assert.equal(takesTurns(authors), want, authors.join(' → '));
  });

  describe('loading neighbours from the store', () => {
    let store: MemoryStore;
    const put = (w: SqlWriter, id: string, session: string | null, deleted = 0): void => {
      w.run('INSERT INTO memories (id, content, type, session_key, is_deleted, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [id, `turn ${id}`, 'fact', session, deleted, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
    };
    beforeEach(async () => {
      store = await openMemoryStore({ clock: new ManualClock() });
      await store.write('seed', (w) => {
        put(w, 's1-1', 's1'); put(w, 's2-1', 's2'); put(w, 's1-2', 's1'); put(w, 's1-3', 's1', 1); put(w, 's1-4', 's1'); put(w, 'lone', null);
      });
    });
    afterEach(async () => { await store.close(); });

    it('reads the adjacent live memories of the same session in insertion order, nearest first', () => {
      const n = store.read((db) => loadSessionNeighbours(db, ['s1-2', 's1-1', 'lone', 'missing'], 1, {}));
      // s1-3 is deleted, so s1-2's next live neighbour is s1-4; s2-1 belongs to another session.
      assert.deepEqual(n.get('s1-2')?.map((r) => r.id), ['s1-4', 's1-1']);
      assert.deepEqual(n.get('s1-1')?.map((r) => r.id), ['s1-2']);
      assert.equal(n.has('lone'), false);
      assert.equal(n.has('missing'), false);
      const wide = store.read((db) => loadSessionNeighbours(db, ['s1-1'], 2, {}));
      assert.deepEqual(wide.get('s1-1')?.map((r) => r.id), ['s1-2', 's1-4']);
    });

    it('with turnTakingOnly, reads neighbours only around a memory whose session takes turns there', async () => {
      const write = (w: SqlWriter, id: string, session: string, who: string): void => {
        w.run('INSERT INTO memories (id, content, type, session_key, who, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [id, `turn ${id}`, 'fact', session, who, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
      };
      await store.write('authors', (w) => {
        // A chat (user and assistant take turns), then a session of notes in which one agent writes twice in a row.
        for (const [i, who] of ['user', 'assistant', 'user', 'assistant'].entries()) write(w, `chat-${i}`, 'chat', who);
        for (const [i, who] of ['claude-code', 'codex', 'codex', 'claude-code'].entries()) write(w, `notes-${i}`, 'notes', who);
      });
      const gated = store.read((db) => loadSessionNeighbours(db, ['chat-1', 'notes-0', 'notes-3', 's1-2'], 2, {}, true));
      assert.deepEqual(gated.get('chat-1')?.map((r) => r.id), ['chat-2', 'chat-0', 'chat-3']);
      assert.equal(gated.has('notes-0') || gated.has('notes-3'), false, 'codex follows itself within two turns of both');
      assert.equal(gated.has('s1-2'), false, 'turns without an author');
      const ungated = store.read((db) => loadSessionNeighbours(db, ['notes-0', 's1-2'], 2, {}));
      assert.deepEqual(ungated.get('notes-0')?.map((r) => r.id), ['notes-1', 'notes-2']);
      assert.ok(ungated.has('s1-2'));
    });

    it('reads a whole window\'s previous turns in one statement, with the same rules', () => {
      const read = store.read((db) => loadPreviousTurns(db, ['s1-4', 's1-1', 's2-1', 'lone', 'missing'], {}));
      const seq = (id: string): number => read.get(id)?.seq as number;
      assert.ok(seq('s1-1') < seq('s2-1') && seq('s2-1') < seq('s1-4'), 'each memory\'s place in the order memories were written');
      const p = new Map([...read].map(([id, { seq: _seq, ...rest }]) => [id, rest]));
      assert.deepEqual(p.get('s1-4'), { session: 's1', previous: { id: 's1-2', content: 'turn s1-2' } }, 's1-3 is deleted: the live turn before it');
      assert.deepEqual(p.get('s1-1'), { session: 's1' }, 'the first turn of its session');
      assert.deepEqual(p.get('s2-1'), { session: 's2' }, 's1-1 is before it, but in another session');
      assert.equal(p.has('lone') || p.has('missing'), false);
      const later = store.read((db) => loadPreviousTurns(db, ['s1-4'], { since: '2027-01-01T00:00:00.000Z' }));
      assert.deepEqual(later.get('s1-4'), { session: 's1', seq: seq('s1-4') }, 'the recall filter applies to the previous turn');
    });
  });
});

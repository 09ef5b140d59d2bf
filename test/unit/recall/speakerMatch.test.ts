import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { recallDetailed } from '../../../src/core/recall/recallService';
import { explainText } from '../../../src/core/recall/explainText';
import { applySpeakerMatch, namedSpeakers, recallAuthors, speakerWindow } from '../../../src/core/recall/speakerMatch';
import type { SqlReader } from '../../../src/core/store/storeTypes';
import { rankRecall } from '../../../src/core/recall/recallPipeline';
import { RECALL_STAGES } from '../../../src/core/recall/recallStages';
import type { RecallStage } from '../../../src/core/recall/recallStages';
import type { Candidate, Explain } from '../../../src/core/recall/recallTypes';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { insertMemory, seed } from './recallDb';

const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));

function cand(id: string, score: number): Candidate {
  const channels = { lexical: score, semantic: 0, hint: 0, traversal: 0 };
  return { id, content: id, type: 'fact', createdAt: '2026-01-01T00:00:00.000Z', sourceId: null, importance: 0.5, score, channels, explain: { channels, fused: score, sources: ['lexical'], boosts: [], penalties: [], notes: [], score } };
}

describe('speaker-aware matching (speakerMatch.ts)', () => {
  it('finds the speakers a query names: whole names, possessives, any case; roles never count', () => {
    assert.deepEqual([...namedSpeakers("What do Priya's kids like?", ['Priya', 'Tomas'])], ['Priya']);
    assert.deepEqual([...namedSpeakers('what did tomas research', ['Priya', 'Tomas'])], ['Tomas']);
    assert.deepEqual([...namedSpeakers('What did Pri say?', ['Priya', 'Tomas'])], [], 'a part of a name is not the name');
    assert.deepEqual([...namedSpeakers('what did the user ask about the agent?', ['user', 'agent'])], [], 'roles are not people');
    assert.deepEqual([...namedSpeakers('What did Ana Lopez decide?', ['Ana Lopez', 'Ana'])].sort(), ['Ana', 'Ana Lopez']);
  });

  it('lowers the other speaker\'s memories below the named speaker\'s, and only then', () => {
    const authors = new Map([['a', 'Tomas'], ['b', 'Priya'], ['c', 'Priya']]);
    const cfg = { enabled: true, penalty: 0.15 };
    const out = applySpeakerMatch([cand('a', 1), cand('b', 0.9), cand('c', 0.5), cand('d', 0.95)], 'What does Priya do to unwind?', authors, cfg);
    assert.deepEqual(out.map((c) => c.id), ['d', 'b', 'a', 'c'], 'a memory without an author is left alone');
    const lowered = out.find((c) => c.id === 'a');
    assert.ok(lowered?.explain.penalties.some((x) => x.stage === 'speaker' && x.factor === 0.85 && x.note === 'written by Tomas; the question is about Priya'));
    assert.ok(Math.abs((lowered?.score ?? 0) - 0.85) < 1e-12, 'scores stay on the 0–1 scale');
    assert.equal(out.find((c) => c.id === 'b')?.explain.penalties.length, 0, 'the named speaker\'s memory is untouched');
    const both = applySpeakerMatch([cand('a', 1), cand('b', 0.9)], 'What do Priya and Tomas share?', authors, cfg);
    assert.deepEqual(both.map((c) => c.score), [1, 0.9], 'naming every speaker lifts nobody');
    const one = applySpeakerMatch([cand('b', 0.9), cand('c', 0.5)], 'What does Priya like?', new Map([['b', 'Priya'], ['c', 'Priya']]), cfg);
    assert.deepEqual(one.map((c) => c.score), [0.9, 0.5], 'a single author distinguishes nothing');
    assert.deepEqual(applySpeakerMatch([cand('a', 1), cand('b', 0.9)], 'What does Priya do?', authors, { enabled: false, penalty: 0.15 }).map((c) => c.id), ['a', 'b']);
  });

  it('keeps the first memories of the named speakers and of the rest, each up to its count, in order', () => {
    const authors = new Map([['t1', 'Tomas'], ['p1', 'Priya'], ['t2', 'Tomas'], ['p2', 'Priya'], ['p3', 'Priya'], ['t3', 'Tomas']]);
    const list = ['t1', 'p1', 'n1', 't2', 'p2', 'p3', 't3'].map((id, i) => cand(id, 1 - i / 10));
    assert.deepEqual(speakerWindow(list, authors, new Set(['Priya']), 2, 2).map((c) => c.id), ['t1', 'p1', 'n1', 'p2'], 'a memory without an author counts with the rest');
    assert.deepEqual(speakerWindow(list, authors, new Set(['Priya']), 3, 0).map((c) => c.id), ['p1', 'p2', 'p3']);
    assert.deepEqual(speakerWindow(list, authors, new Set(['Priya', 'Tomas']), 4, 1).map((c) => c.id), ['t1', 'p1', 'n1', 't2', 'p2'], 'naming both speakers keeps the plain order');
    assert.deepEqual(speakerWindow(list, authors, new Set(['Priya']), 10, 10).map((c) => c.id), list.map((c) => c.id), 'counts above the list keep all of it');
  });

  it('reads each candidate\'s author once in a recall, however many stages ask', () => {
    const asked: unknown[][] = [];
    const who: Record<string, string> = { a: 'Priya', b: 'Tomas' };
    const db = { all: (_sql: string, params: unknown[] = []) => { asked.push(params); return params.map((id) => ({ id, who: who[id as string] ?? null })); } } as unknown as SqlReader;
    const authorsOf = recallAuthors();
    assert.deepEqual([...authorsOf(db, ['a', 'c'])], [['a', 'Priya']], 'a memory without an author is left out');
    assert.deepEqual([...authorsOf(db, ['a', 'b', 'c'])], [['a', 'Priya'], ['b', 'Tomas']]);
    assert.deepEqual([...authorsOf(db, ['b', 'a'])], [['b', 'Tomas'], ['a', 'Priya']]);
    assert.deepEqual(asked, [['a', 'c'], ['b']], 'only the ids not read yet, and nothing when all are known');
    asked.length = 0;
    const seeded = recallAuthors([['a', 'Priya'], ['c', null]]);
    assert.deepEqual([...seeded(db, ['a', 'b', 'c'])], [['a', 'Priya'], ['b', 'Tomas']]);
    assert.deepEqual(asked, [['b']], 'authors the candidates\' rows carried (a memory without one too) are not read again');
  });

  describe('the speaker window in recall', () => {
    let store: MemoryStore;
    before(async () => {
      store = await openMemoryStore({ clock });
      await seed(store, (w) => {
        // Tomas's 45 short turns outrank every one of Priya's 10 longer ones on the keyword arm.
        for (let i = 0; i < 45; i++) insertMemory(w, { id: `t${i}`, content: `Tomas: Priya, woodworking woodworking tip ${i}.` });
        for (let i = 0; i < 10; i++) insertMemory(w, { id: `p${i}`, content: `Priya: after work I went to the town hall for a woodworking evening with friends and neighbours, number ${i}.` });
        w.run("UPDATE memories SET who = 'Tomas' WHERE id LIKE 't%'");
        w.run("UPDATE memories SET who = 'Priya' WHERE id LIKE 'p%'");
      });
    });
    after(async () => { await store.close(); });

    /** The window the later stages see: a stage added right after it records it. */
    async function windowOf(query: string, enabled: boolean): Promise<string[]> {
      let seen: string[] = [];
      const tap: RecallStage = { id: 'tap', enabled: () => true, apply: (cands) => { seen = cands.map((c) => c.id); return cands; } };
      const stages = RECALL_STAGES.flatMap((s) => (s.id === 'window' ? [s, tap] : [s]));
      const cfg = resolveSearchConfig({ vector: { enabled: false }, learnedOrder: { enabled: false }, speakerWindow: { enabled } });
      await rankRecall(store, { query }, { clock, track: false }, cfg, undefined, stages);
      return seen;
    }

    it('lets the named speaker\'s deeper memories into the window, with fewer of the other speaker\'s', async () => {
      const plain = await windowOf('What woodworking did Priya do?', false);
      const named = await windowOf('What woodworking did Priya do?', true);
      assert.equal(plain.length, 40);
      assert.ok(plain.filter((id) => id.startsWith('p')).length < 10, `the plain window misses some of Priya's turns: ${plain.join(' ')}`);
      assert.equal(named.filter((id) => id.startsWith('p')).length, 10, 'every turn of Priya\'s is in the speaker window');
      assert.equal(named.filter((id) => id.startsWith('t')).length, 20, 'the other speaker keeps half a window');
      assert.deepEqual(await windowOf('Any woodworking tips?', true), await windowOf('Any woodworking tips?', false), 'a query naming nobody keeps the plain window');
    });

    it('reads its shares from the config, clamped', () => {
      assert.deepEqual(resolveSearchConfig({}).speakerWindow, { enabled: true, named: 1.25, others: 0.5 });
      assert.deepEqual(resolveSearchConfig({ speakerWindow: { named: 0, others: -1 } }).speakerWindow, { enabled: true, named: 0.25, others: 0 });
    });
  });

  describe('in recall', () => {
    let store: MemoryStore;
    beforeEach(async () => {
      store = await openMemoryStore({ clock });
      await seed(store, (w) => {
        insertMemory(w, { id: 'c1', content: 'Tomas: Priya, your woodworking course sounds great, I want to try woodworking too.' });
        insertMemory(w, { id: 'm1', content: 'Priya: I signed up for a woodworking course, it helps me unwind.' });
        w.run("UPDATE memories SET who = 'Tomas' WHERE id = 'c1'");
        w.run("UPDATE memories SET who = 'Priya' WHERE id = 'm1'");
      });
    });
    afterEach(async () => { await store.close(); });

    it('puts the named speaker\'s own turn first, and runs as a stage that can be switched off', async () => {
      const ask = (enabled: boolean) => recallDetailed(store, { query: 'What woodworking class did Priya take?' }, { clock, config: resolveSearchConfig({ vector: { enabled: false }, speakers: { enabled } }), track: false });
      const on = await ask(true), off = await ask(false);
      assert.equal(on.items[0]?.id, 'm1');
      assert.ok(on.stages.includes('speakers') && !off.stages.includes('speakers'));
      assert.equal(off.items[0]?.id, 'c1', 'without the stage the other speaker\'s turn, holding more query words, ranks first');
      const why = explainText(on.items.find((r) => r.id === 'c1')?.explain as Explain, { best: on.items[0]?.score ?? 1 });
      assert.ok(why.some((l) => /^Other speaker: written by Tomas; the question is about Priya \(−15(\.0)?%\)\.$/.test(l)), why.join('\n'));
    });
  });
});

import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { recallDetailed } from '../../../src/core/recall/recallService';
import { explainText } from '../../../src/core/recall/explainText';
import { applySpeakerMatch, namedSpeakers } from '../../../src/core/recall/speakerMatch';
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

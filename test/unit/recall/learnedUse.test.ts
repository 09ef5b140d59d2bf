import { strict as assert } from 'node:assert';
import { applyLearnedUse, loadPastUse } from '../../../src/core/recall/learnedUse';
import { explainText } from '../../../src/core/recall/explainText';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import type { Candidate, Explain } from '../../../src/core/recall/recallTypes';
import { addMemory, addSessionMemory, openTestStore } from '../feedback/graphFixture';

function cand(id: string, score: number): Candidate {
  return { id, score, explain: { boosts: [], penalties: [], notes: [], sources: ['lexical'], channels: { lexical: score, semantic: 0, hint: 0, traversal: 0 } } } as unknown as Candidate;
}

describe('recall: learned use (the feedback loop\'s evidence in recall)', function () {
  this.timeout(20_000);
  it('lifts memories that paid off when shown before, lowers shown-and-unused ones, ignores the current session', async () => {
    const { store, clock } = await openTestStore();
    try {
      const now = clock.now();
      const ids = await store.write('seed', (db) => {
        const used = addMemory(db, now, { content: 'used one' });
        const unused = addMemory(db, now, { content: 'unused one' });
        const fresh = addMemory(db, now, { content: 'never shown' });
        addSessionMemory(db, now, 's1', used, { relevance: 1 });
        addSessionMemory(db, now, 's2', used, { ftsHits: 2 });
        addSessionMemory(db, now, 's1', unused, { relevance: 0 });
        addSessionMemory(db, now, 's2', unused);
        // A session start's unused injection is no evidence against a memory (source 'effective').
        addSessionMemory(db, now, 's3', unused);
        db.run("UPDATE session_memories SET source = 'hybrid' WHERE session_key IN ('s1', 's2')");
        // The current session's own rows are not history.
        addSessionMemory(db, now, 'current', fresh, { relevance: 1 });
        return { used, unused, fresh };
      });
      const past = store.read((db) => loadPastUse(db, [ids.used, ids.unused, ids.fresh], 'default', 'current'));
      assert.deepEqual(past.get(ids.used), { shown: 2, paid: 2 });
      assert.deepEqual(past.get(ids.unused), { shown: 2, paid: 0 });
      assert.equal(past.get(ids.fresh), undefined);
      const cfg = resolveSearchConfig({ learnedUse: { enabled: true, boost: 0.2 } }).learnedUse;
      const out = applyLearnedUse([cand(ids.unused, 1), cand(ids.fresh, 0.95), cand(ids.used, 0.9)], past, cfg);
      assert.deepEqual(out.map((c) => c.id), [ids.used, ids.fresh, ids.unused]);
      assert.ok(Math.abs((out[0] as Candidate).score - 1.08) < 1e-9);
      assert.ok(Math.abs((out[2] as Candidate).score - 0.8) < 1e-9);
      const top = out[0] as Candidate, last = out[2] as Candidate;
      const asExplain = (c: Candidate): Explain => ({ channels: { lexical: 0.5, semantic: 0, hint: 0, traversal: 0 }, fused: 0.5, sources: ['lexical'], boosts: c.explain.boosts, penalties: c.explain.penalties, notes: [], score: c.score });
      const why = [...explainText(asExplain(top), { best: 1.08 }), ...explainText(asExplain(last), { best: 1.08 })].join('\n');
      assert.match(why, /Used before: used in 2 of the 2 earlier answers that showed it \(\+20%\)/);
      assert.match(why, /Shown before, rarely used: used in 0 of the 2 earlier answers that showed it \(−20%\)/);
      const off = applyLearnedUse([cand(ids.unused, 1), cand(ids.used, 0.9)], past, resolveSearchConfig({}).learnedUse);
      assert.deepEqual(off.map((c) => [c.id, c.score]), [[ids.unused, 1], [ids.used, 0.9]], 'off by default: nothing moves');
    } finally { await store.close(); }
  });
});

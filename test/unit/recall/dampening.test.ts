import { strict as assert } from 'node:assert';
import { applyDampening, mayBeDatedNote, mentionsDate, percentileThreshold, resolutionFactor } from '../../../src/core/recall/dampening';
import { applyCurrentness, currentnessFactor, currentnessOf, isHistoricalQuery } from '../../../src/core/recall/currentness';
import type { AttributeState } from '../../../src/core/recall/currentness';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_SEARCH_CONFIG, resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { rankRecall } from '../../../src/core/recall/recallPipeline';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { cand } from './candidateFixture';
import { insertMemory, seed } from './recallDb';

const d = DEFAULT_SEARCH_CONFIG.dampening;
const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);
const long = (s: string): string => s + ' — padded so the content is well over fifty characters long.';

// Gravity is off by default (docs/recall-design.md); these tests switch it on to test the stage.
describe('recall dampening: gravity', () => {
  it('halves a semantic-only match above 0.3 sharing no query word', () => {
    const c = cand('v', 0.6, { content: long('Kubernetes ingress controller'), channels: { semantic: 0.8 } });
    const hit = cand('l', 0.5, { content: 'the postgres port', channels: { lexical: 0.5 } });
    applyDampening([c, hit], ['postgres', 'port'], undefined, { ...d, gravityEnabled: true, resolutionEnabled: false });
    close(c.score, 0.3);
    assert.equal(c.explain.penalties[0]?.stage, 'gravity');
  });

  it('does not fire when no candidate shares a word with the query (the answer may share none)', () => {
    const best = cand('v', 0.6, { content: long('Install Node 20, then npm install'), channels: { semantic: 0.8 } });
    const other = cand('w', 0.25, { content: 'coffee machine', channels: { semantic: 0.3 } });
    const out = applyDampening([best, other], ['prepare', 'laptop'], undefined, { ...d, gravityEnabled: true, resolutionEnabled: false });
    assert.deepEqual([out[0]?.id, best.score], ['v', 0.6]);
  });

  it('spares lexical hits, overlapping content, low scores, and the switched-off stage', () => {
    const lex = cand('l', 0.6, { content: 'unrelated words', channels: { lexical: 0.5, semantic: 0.8 } });
    const overlap = cand('o', 0.6, { content: 'the postgres server', channels: { semantic: 0.8 } });
    const low = cand('w', 0.3, { content: 'unrelated words', channels: { semantic: 0.4 } });
    applyDampening([lex, overlap, low], ['postgres'], undefined, { ...d, gravityEnabled: true, resolutionEnabled: false });
    assert.deepEqual([lex.score, overlap.score, low.score], [0.6, 0.6, 0.3]);
    const off = cand('v', 0.6, { content: 'unrelated', channels: { semantic: 0.8 } });
    applyDampening([off], ['postgres'], undefined, { ...d, gravityEnabled: false, resolutionEnabled: false });
    assert.equal(off.score, 0.6);
  });
});

describe('recall dampening: hub', () => {
  it('takes the P90 as sorted[floor(n·0.9)]', () => {
    assert.equal(percentileThreshold([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9), 10);
    assert.equal(percentileThreshold([5, 1, 3], 0.9), 5);
  });

  it('multiplies by 0.7 only when every linked entity is a hub', () => {
    const degreeByEntity = new Map([['e1', 1], ['e2', 2], ['e3', 3], ['e4', 4], ['e5', 5], ['e6', 6], ['e7', 7], ['e8', 8], ['e9', 9], ['hub', 100]]);
    const entitiesByMemory = new Map([['allHub', ['hub']], ['mixed', ['hub', 'e1']], ['none', [] as string[]]]);
    const [a, b, c] = [cand('allHub', 0.5), cand('mixed', 0.5), cand('none', 0.5)];
    applyDampening([a!, b!, c!], [], { entitiesByMemory, degreeByEntity }, { ...d, hubEnabled: true, resolutionEnabled: false });
    close(a!.score, 0.35);
    assert.equal(b!.score, 0.5);
    assert.equal(c!.score, 0.5);
  });

  it('needs hubMinMentions: in a small store the P90 of 1 mention makes no hub', () => {
    const degreeByEntity = new Map([['billing', 5], ['k8s', 1], ['pg', 1]]);
    const entitiesByMemory = new Map([['m1', ['billing']], ['m2', ['billing', 'pg']]]);
    const [a, b] = [cand('m1', 0.5), cand('m2', 0.5)];
    applyDampening([a!, b!], [], { entitiesByMemory, degreeByEntity }, { ...d, hubEnabled: true, resolutionEnabled: false });
    assert.deepEqual([a!.score, b!.score], [0.5, 0.5]);
    applyDampening([a!], [], { entitiesByMemory, degreeByEntity }, { ...d, hubEnabled: true, hubMinMentions: 0, resolutionEnabled: false });
    close(a!.score, 0.35);
  });
});

describe('recall dampening: resolution', () => {
  it('boosts constraints and decisions ×1.2, dated content ×1.1, short content not at all', () => {
    close(resolutionFactor(cand('a', 1, { type: 'decision', content: long('We chose Postgres') }), d), 1.2);
    close(resolutionFactor(cand('b', 1, { type: 'constraint', content: long('Never push to main') }), d), 1.2);
    close(resolutionFactor(cand('c', 1, { content: long('Released on 2026-03-14') }), d), 1.1);
    close(resolutionFactor(cand('e', 1, { content: long('Shipped in March') }), d), 1.1);
    assert.equal(resolutionFactor(cand('f', 1, { type: 'decision', content: 'We chose Postgres' }), d), 1);
    assert.equal(resolutionFactor(cand('g', 1, { content: long('plain fact') }), d), 1);
  });

  it('counts the verb "may" and names like Jan as no date (a month is dated only as a month)', () => {
    const table: Array<[string, boolean]> = [
      ['Released on 2026-03-14', true],
      ['We moved the release to August', true],
      ['the freeze starts on 8 May', true],
      ['the freeze starts May 8th', true],
      ['planned for May 2027', true],
      ['shipped in May', true],
      ['In March we rewrote the parser', true],
      ['until mid-March', true],
      ['Deadline: Sept 30', true],
      ['on 5 jan the keys rotate', true],
      ['this may break the build on Windows', false],
      ['May I suggest pinning the version?', false],
      ['we may have to march through the migration', false],
      ['March on: the next step is the schema', false],
      ['Jan reviewed the pull request', false],
      ['the sep character is a comma', false],
      ['nothing dated here', false],
    ];
    for (const [text, dated] of table) assert.equal(mentionsDate(text), dated, text);
    assert.equal(resolutionFactor(cand('m', 1, { content: long('This may fail when the cache is cold') }), d), 1);
  });

  it('gives a turn of a dialogue between two people no half boost for a month it names; decisions keep theirs', () => {
    const turn = cand('t', 1, { content: long('Mia: Last August I told you about the charity run') });
    const decided = cand('k', 1, { type: 'decision', content: long('Mia: we decided to keep the run in August') });
    assert.equal(resolutionFactor(turn, d, true), 1);
    close(resolutionFactor(turn, d, false), 1.1);
    close(resolutionFactor(decided, d, true), 1.2);
    const note = cand('n', 0.95, { content: long('The charity run moved to August') });
    const asked: string[][] = [];
    const out = applyDampening([cand('t', 1, { content: turn.content }), note, cand('p', 0.5, { content: long('plain fact') })], [], undefined, d, (ids) => { asked.push([...ids]); return new Set(['t']); });
    assert.deepEqual(asked, [['t', 'n']], 'asked once, about the dated candidates only');
    assert.deepEqual(out.map((c) => [c.id, Number(c.score.toFixed(3))]), [['n', 1.045], ['t', 1], ['p', 0.5]], 'the dated note rises above the turn, which keeps its score');
  });

  it('asks about the places of dated candidates only (mayBeDatedNote)', () => {
    assert.equal(mayBeDatedNote(cand('a', 1, { content: long('Shipped in March') }), d), true);
    assert.equal(mayBeDatedNote(cand('b', 1, { type: 'decision', content: long('Shipped in March') }), d), false, 'a decision gets its boost wherever it was said');
    assert.equal(mayBeDatedNote(cand('c', 1, { content: 'Shipped in March' }), d), false, 'too short for any boost');
    assert.equal(mayBeDatedNote(cand('e', 1, { content: long('plain fact') }), d), false);
  });

  it('re-sorts after dampening', () => {
    const a = cand('a', 0.5, { content: long('plain fact') });
    const b = cand('b', 0.45, { type: 'decision', content: long('We chose Postgres') });
    assert.deepEqual(applyDampening([a, b], [], undefined, d).map((c) => c.id), ['b', 'a']); // 0.54 > 0.5
  });
});

describe('recall dampening: resolution in recall, dialogue turns and notes', () => {
  it('lifts a dated note but not a turn of a dialogue that names the same month', async () => {
    const store = await openMemoryStore();
    try {
      await seed(store, (w) => {
        const turns: [string, string, string][] = [
          ['d1', 'Mia', 'Mia: How was the charity run you organised with the neighbours this year?'],
          ['d2', 'Noah', 'Noah: Last August I told you about the charity run, it went really well for us all.'],
          ['d3', 'Mia', 'Mia: That sounds great, I would love to join the next charity run with you.'],
        ];
        for (const [id, who, content] of turns) {
          insertMemory(w, { id, content });
          w.run('UPDATE memories SET who = ?, session_key = ? WHERE id = ?', [who, 'talk', id]);
        }
        insertMemory(w, { id: 'n1', content: 'The charity run was moved to August after the permit was delayed by the council.' });
      });
      const cfg = resolveSearchConfig({ vector: { enabled: false }, learnedOrder: { enabled: false } });
      const out = await rankRecall(store, { query: 'charity run August' }, { clock: new ManualClock(Date.parse('2026-02-01T00:00:00Z')), track: false }, cfg, undefined);
      const resolution = (id: string): number[] => (out.results.find((c) => c.id === id)?.explain.boosts ?? []).filter((b) => b.stage === 'resolution').map((b) => b.factor ?? 0);
      assert.deepEqual(resolution('n1'), [1.1], 'the dated note');
      assert.deepEqual(resolution('d2'), [], 'the turn naming August in a conversation between two people');
      assert.ok(out.stages.includes('dampening'));
    } finally {
      await store.close();
    }
  });
});

describe('recall structured currentness', () => {
  const c = DEFAULT_SEARCH_CONFIG.currentness;
  const sup: AttributeState = { status: 'superseded', content: 'API uses PostgreSQL', replacement: 'API uses MongoDB', replacementMemoryId: 'm2' };
  const act: AttributeState = { status: 'active', content: 'API uses MongoDB' };

  it('uses 0.65 / 0.85 / 1.03 multipliers', () => {
    assert.equal(currentnessFactor([sup], c), 0.65);
    assert.equal(currentnessFactor([sup, act], c), 0.85);
    assert.equal(currentnessFactor([act], c), 1.03);
    assert.equal(currentnessFactor([], c), 1);
  });

  it('down-weights a superseded memory and points to its replacement', () => {
    const old = cand('m1', 0.8, { content: 'The API uses PostgreSQL' });
    const cur = cand('m2', 0.6, { content: 'We migrated the API to MongoDB' });
    const out = applyCurrentness([old, cur], new Map([['m1', [sup]], ['m2', [act]]]), 'what database does the API use', c);
    close(old.score, 0.52);
    // 0.6 × 1.03 = 0.618 is below the stale memory's 0.8 before its penalty: lifted to 0.8 + 1e-4.
    close(cur.score, 0.8001);
    assert.deepEqual(out.map((x) => x.id), ['m2', 'm1']);
    assert.match(old.explain.notes[0]!, /superseded by: API uses MongoDB \(memory m2\)/);
    assert.deepEqual(old.currentness, { status: 'superseded', replacement: 'API uses MongoDB', replacementId: 'm2' });
    assert.equal(cur.currentness, undefined);
    assert.ok(cur.explain.boosts.some((b) => b.stage === 'currentness' && b.memoryId === 'm1' && /replaces a superseded memory/.test(b.note ?? '')));
  });

  it('treats a memory replaced as a whole as stale even when it holds active claims, and never boosts it', () => {
    const whole: AttributeState = { status: 'superseded', content: 'We keep the list in a JSON file', replacement: 'Move the list to SQLite', replacementMemoryId: 'm2', wholeMemory: true };
    assert.equal(currentnessFactor([whole, act], c), 0.65);
    assert.deepEqual(currentnessOf([whole, act]), { status: 'superseded', replacement: 'Move the list to SQLite', replacementId: 'm2' });
    assert.deepEqual(currentnessOf([sup, act]), { status: 'partly-superseded', replacement: 'API uses MongoDB', replacementId: 'm2' });
    assert.equal(currentnessOf([act]), undefined);
    const old = cand('m1', 0.9);
    applyCurrentness([old], new Map([['m1', [whole, act]]]), 'where is the list kept', c);
    close(old.score, 0.585);
    assert.equal(old.explain.boosts.length, 0);
    assert.match(old.explain.notes[0]!, /^\[currentness\] superseded by: Move the list to SQLite \(memory m2\)$/);
  });

  it('boosts memories whose claims all stand only when a superseded claim is among the candidates', () => {
    // No changed fact in play: having extracted attributes is no reason to rank higher.
    const a = cand('a', 0.5), b = cand('b', 0.51);
    const out = applyCurrentness([b, a], new Map([['a', [act]]]), 'what database does the API use', c);
    assert.equal(a.score, 0.5);
    assert.equal(a.explain.boosts.length, 0);
    assert.deepEqual(out.map((x) => x.id), ['b', 'a']);
    // A stale claim among them: the current one is lifted above an equal competitor.
    const stale = cand('s', 0.2), a2 = cand('a', 0.5), b2 = cand('b', 0.51);
    const out2 = applyCurrentness([b2, a2, stale], new Map([['a', [act]], ['s', [sup]]]), 'what database does the API use', c);
    close(a2.score, 0.515);
    assert.deepEqual(out2.map((x) => x.id), ['a', 'b', 's']);
  });

  it('does not lift a replacement that already ranks above the stale memory, nor on a historical question', () => {
    const old = cand('m1', 0.5);
    const cur = cand('m2', 0.7);
    applyCurrentness([old, cur], new Map([['m1', [sup]], ['m2', [act]]]), 'what database does the API use', c);
    close(cur.score, 0.721);
    const old2 = cand('m1', 0.9);
    const cur2 = cand('m2', 0.3);
    const out = applyCurrentness([old2, cur2], new Map([['m1', [sup]], ['m2', [act]]]), 'which database did the API use before', c);
    assert.deepEqual(out.map((x) => x.id), ['m1', 'm2']);
    close(cur2.score, 0.309);
  });

  it('still lets historical questions find superseded facts', () => {
    assert.ok(isHistoricalQuery('which database did the API use previously'));
    const old = cand('m1', 0.8);
    applyCurrentness([old], new Map([['m1', [sup]]]), 'what database did we use before the migration', c);
    assert.equal(old.score, 0.8);
    assert.equal(old.explain.notes.length, 2);
  });
});

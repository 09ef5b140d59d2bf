import { strict as assert } from 'node:assert';
import { chooseCombination, pairedDifference, subsets } from '../../../bench/stageCombinations';
import type { CombinationScores } from '../../../bench/stageCombinations';
import type { QuestionScore } from '../../../bench/devset';

/** `hits` questions answered (R@10 1) out of `n` in one part. */
const part = (hits: number, n = 4): QuestionScore[] => Array.from({ length: n }, (_, i) => ({ category: '1', recallAt5: 0, recallAt10: i < hits ? 1 : 0, rr: 0 }));
const combo = (...hits: number[]): CombinationScores => Object.fromEntries(hits.map((h, i) => [`c${i}`, part(h)]));

describe('stage combinations (bench/stageCombinations.ts)', () => {
  it('lists every subset, the empty one first', () => {
    assert.deepEqual(subsets(['a', 'b']), [[], ['a'], ['b'], ['a', 'b']]);
    assert.equal(subsets([1, 2, 3, 4]).length, 16);
  });

  it('chooses on the other parts and scores the held-out part only', () => {
    // "flip" is better on c0 and c1 but much worse on c2: held out c2, the others choose it and it costs there.
    const combinations = new Map([['flip', combo(3, 3, 1)], ['defaults', combo(2, 2, 4)]]);
    const c = chooseCombination(combinations, 'defaults');
    assert.equal(c.folds.c0?.chosen, 'defaults'); // c1 + c2: defaults 6 vs flip 4
    assert.equal(c.folds.c1?.chosen, 'defaults');
    assert.equal(c.folds.c2?.chosen, 'flip'); // c0 + c1: flip 6 vs defaults 4
    assert.equal(c.folds.c2?.heldOut.recallAt10, 0.25);
    assert.equal(c.crossValidated.recallAt10, (2 + 2 + 1) / 12);
    assert.equal(c.defaults.recallAt10, 8 / 12);
    assert.deepEqual(c.ranking.map((r) => r.name), ['defaults', 'flip']);
  });

  it('gives a paired difference with its 95 % interval, and none for a change of no question', () => {
    const a = [...part(2), ...part(2)], b = [...part(3), ...part(2)];
    const d = pairedDifference(a, b); // one question of eight gained: mean 1/8, sd √(1/8)
    assert.equal(d.mean, 1 / 8);
    assert.ok(Math.abs(d.high - d.mean - 1.96 * Math.sqrt(1 / 8 / 8)) < 1e-12);
    assert.ok(d.low < 0, 'one question of eight is not told apart from noise');
    assert.deepEqual(pairedDifference(a, a), { mean: 0, low: 0, high: 0 });
    assert.throws(() => pairedDifference(a, part(1)), /paired difference of 8 and 4/);
  });

  it('keeps the defaults on a tie (a change must be better to be chosen)', () => {
    const c = chooseCombination(new Map([['same', combo(2, 2, 2)], ['defaults', combo(2, 2, 2)]]), 'defaults');
    for (const f of Object.values(c.folds)) assert.equal(f.chosen, 'defaults');
  });

  it('says so when the defaults are not among the combinations', () => {
    assert.throws(() => chooseCombination(new Map([['x', combo(1)]]), 'defaults'), /no combination named defaults/);
  });
});

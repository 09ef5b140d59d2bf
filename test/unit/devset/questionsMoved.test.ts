import { strict as assert } from 'node:assert';
import { questionsMoved } from '../../../bench/questionsMoved';
import type { QuestionScore } from '../../../bench/devset';

const scores = (...r10: number[]): QuestionScore[] => r10.map((recallAt10) => ({ category: '1', recallAt5: 0, recallAt10, rr: 0 }));

describe('questions moved (bench/questionsMoved.ts)', () => {
  it('counts the questions a switch raises and lowers, paired by position', () => {
    assert.deepEqual(questionsMoved(scores(1, 0.5, 0, 1), scores(0.5, 0.5, 1, 0)), { better: 2, worse: 1 });
  });

  it('moves nothing when the scores are equal, and refuses unpaired lists', () => {
    assert.deepEqual(questionsMoved(scores(1, 0), scores(1, 0)), { better: 0, worse: 0 });
    assert.throws(() => questionsMoved(scores(1), scores(1, 0)), /1 and 2 scores/);
  });
});

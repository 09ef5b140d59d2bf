import { strict as assert } from 'node:assert';
import { lengthRuns } from '../../../src/core/models/useLiteOnnx';

describe('USE-lite runs by token length', () => {
  it('groups rows of similar length into runs of at most N, covering every row once', () => {
    const encoded = [[1, 2, 3, 4, 5], [1], [1, 2, 3], [], [1, 2], [1, 2, 3, 4]];
    const runs = lengthRuns(encoded, 4);
    assert.deepEqual(runs, [[3, 1, 4, 2], [5, 0]]);
    assert.deepEqual(runs.flat().sort(), [0, 1, 2, 3, 4, 5]);
  });

  it('keeps input order among rows of equal length and handles no rows', () => {
    assert.deepEqual(lengthRuns([[1], [2], [3]], 16), [[0, 1, 2]]);
    assert.deepEqual(lengthRuns([], 16), []);
  });
});

import { strict as assert } from 'node:assert';
import { MemoryError, isMemoryError, userMessage } from '../../src/core/errors';

describe('errors', () => {
  it('keeps the message of a coded error', () => {
    const e = new MemoryError('E_NOT_FOUND', 'No memory with id abc.');
    assert.equal(userMessage(e), 'No memory with id abc.');
    assert.ok(isMemoryError(e, 'E_NOT_FOUND'));
    assert.ok(!isMemoryError(e, 'E_USAGE'));
  });

  it('reduces a foreign error to its first line', () => {
    const e = new Error('near "MATCH": syntax error\n    at Database.exec');
    assert.equal(userMessage(e), 'Unexpected error: near "MATCH": syntax error');
  });
});

import { strict as assert } from 'node:assert';
import { assertDeterministicSql } from '../../../src/core/store/nondeterministicSql';
import { isMemoryError } from '../../../src/core/errors';

// assertDeterministicSql remembers the texts it has passed (nondeterministicSql.ts): the cache must
// never let a refused text through, however often it is asked or how many texts came before.
describe('store non-deterministic SQL check', () => {
  it('refuses a bad text every time it is asked, passes good ones from its cache, and keeps checking after the cache is emptied', () => {
    const bad = "INSERT INTO meta (key, value) VALUES ('x', datetime('now'))";
    for (let i = 0; i < 3; i++) assert.throws(() => assertDeterministicSql(bad), (e) => isMemoryError(e, 'E_INTERNAL'));
    const good = 'INSERT INTO meta (key, value) VALUES (?, ?)';
    assertDeterministicSql(good);
    assertDeterministicSql(good);
    // More distinct texts than the cache holds (4,096), then the bad one and a new bad shape again.
    for (let i = 0; i < 5000; i++) assertDeterministicSql(`UPDATE memories SET importance = ? WHERE id IN (${Array.from({ length: 1 + (i % 50) }, () => '?').join(', ')}) AND ${i} = ${i}`);
    assert.throws(() => assertDeterministicSql(bad), (e) => isMemoryError(e, 'E_INTERNAL'));
    assert.throws(() => assertDeterministicSql('UPDATE memories SET importance = random()'), (e) => isMemoryError(e, 'E_INTERNAL'));
    assertDeterministicSql(good);
  });
});

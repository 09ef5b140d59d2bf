import { strict as assert } from 'node:assert';
import { categoryHints, categoryWords } from '../../../src/core/hints/categoryHints';

describe('category hints (no language model)', () => {
  it('turns each named technology into a question about its category, once per category', () => {
    assert.deepEqual(categoryHints('We chose pnpm workspaces over yarn', 'decision'), ['which package manager do we use']);
    assert.deepEqual(categoryHints('The billing service stores invoices in PostgreSQL and caches them in Redis.', 'fact'), ['which database do we use', 'which cache do we use']);
    assert.deepEqual(categoryHints('Tests run with Vitest; e2e with Playwright.', 'preference'), ['which test framework do we use', 'which e2e framework do we use']);
    assert.equal(categoryWords('ui_framework'), 'ui framework');
  });

  it('skips memory types that report rather than state, lowercase ambiguous words, and partial words', () => {
    assert.deepEqual(categoryHints('Ran pnpm install, 3 packages added.', 'event'), []);
    assert.deepEqual(categoryHints('Each node in the tree has a jest of a label.', 'fact'), []);
    assert.deepEqual(categoryHints('The Node runtime is pinned to 20.', 'fact'), ['which runtime do we use']);
    assert.deepEqual(categoryHints('postgresqlish names and my-redis-clone are not terms', 'fact'), []);
  });
});

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { MemoryError } from '../../../src/core/errors';
import { UseLiteTokenizer, loadUseLiteTokenizer, normalizeForUseLite, truncateIds } from '../../../src/core/models/useLiteTokenizer';
import type { VocabEntry } from '../../../src/core/models/useLiteTokenizer';
import { ensureUseLiteModel } from './modelFixture';

const RESERVED: VocabEntry[] = [['\uFFFD', 0], ['<s>', 0], ['</s>', 0], ['r1', 0], ['r2', 0], ['r3', 0]];

function tiny(pieces: VocabEntry[]): UseLiteTokenizer {
  return new UseLiteTokenizer([...RESERVED, ...pieces]);
}

describe('USE-lite tokenizer', () => {
  it('normalises with NFKC, a leading word marker and spaces as markers, but keeps tabs and newlines', () => {
    assert.equal(normalizeForUseLite('ﬁ a'), '\u2581fi\u2581a');
    assert.equal(normalizeForUseLite('a\tb\nc'), '\u2581a\tb\nc');
    assert.equal(normalizeForUseLite(''), '');
  });

  it('returns no ids for the empty string', () => {
    assert.deepEqual(tiny([['\u2581a', -1]]).encode(''), []);
  });

  it('picks the segmentation with the highest summed score', () => {
    const t = tiny([['\u2581', -1], ['a', -1], ['b', -1], ['\u2581ab', -5], ['\u2581a', -1.5]]);
    // ▁a + b = -2.5 beats ▁ab = -5 and ▁ + a + b = -3
    assert.deepEqual(t.encode('ab'), [10, 8]);
  });

  it('breaks ties toward the later candidate, as the TF.js loader does', () => {
    const t = tiny([['\u2581', -1], ['a', -1], ['\u2581a', -2]]);
    // ▁ + a = -2 (start 0 then start 1 ... both end at 2): ▁a (start 0) is visited first, ▁+a (start 1) later and wins
    assert.deepEqual(t.encode('a'), [6, 7]);
  });

  it('lets a later duplicate piece replace an earlier one', () => {
    const t = tiny([['\u2581', -1], ['x', -3], ['\u2581x', -1], ['\u2581x', -1.5]]);
    assert.deepEqual(t.encode('x'), [9]);
  });

  it('lets a candidate from an unreachable position (score still 0) win, as TF.js does', () => {
    // No piece ends at position 1, so best[1] stays 0 and the unknown edge 1→2 (0 + 0) beats ▁x (-1).
    const t = tiny([['\u2581x', -1]]);
    assert.deepEqual(t.encode('x'), [0]);
  });

  it('maps characters without a piece to id 0 and merges consecutive unknowns', () => {
    const t = tiny([['\u2581', -1], ['a', -1]]);
    assert.deepEqual(t.encode('a\t\t\tb'), [6, 7, 0]);
    assert.deepEqual(t.encode('a\tab'), [6, 7, 0, 7, 0]);
  });

  it('treats null scores as 0 (the ":" pieces of the real vocabulary)', () => {
    const t = tiny([['\u2581', -1], [':', null], ['x', -1]]);
    assert.deepEqual(t.encode(':x'), [6, 7, 8]);
  });

  it('truncates to the first N ids', () => {
    assert.deepEqual(truncateIds([1, 2, 3], 2), [1, 2]);
    assert.deepEqual(truncateIds([1], 2), [1]);
  });

  it('loads the generated tokenizer.json and encodes real text', () => {
    const t = loadUseLiteTokenizer(join(ensureUseLiteModel(), 'tokenizer.json'));
    assert.equal(t.vocabSize, 8000);
    const ids = t.encode('the database migration');
    assert.ok(ids.length >= 3 && ids.every((id) => id >= 0 && id < 8000));
  });

  it('reports a missing or malformed tokenizer.json with a coded error', () => {
    assert.throws(() => loadUseLiteTokenizer('/nonexistent/tokenizer.json'), (e: unknown) => e instanceof MemoryError && e.code === 'E_MODEL_MISSING');
    assert.throws(() => loadUseLiteTokenizer(join(__dirname, 'modelFixture.ts')), (e: unknown) => e instanceof MemoryError && e.code === 'E_MODEL_MISSING');
  });
});

/**
 * Search settings: each changes what recall returns (ids or scores) on the probe queries of the
 * recall fixture. `base` switches on what a key depends on (e.g. the graph boost weight needs the
 * graph boost), so the comparison isolates the key itself.
 */
import { strict as assert } from 'node:assert';
import { settingContract } from './contractRegistry';
import { openRecallFixture } from './recallFixture';
import type { RecallFixture } from './recallFixture';

interface SearchCase { readonly key: string; readonly value: unknown; readonly base?: Readonly<Record<string, unknown>> }

const CASES: readonly SearchCase[] = [
  { key: 'search.alpha', value: 0.9 },
  { key: 'search.minScore', value: 0.6 },
  { key: 'search.topK', value: 2 },
  { key: 'search.limit', value: 2 },
  { key: 'search.lexicalEnabled', value: false },
  { key: 'search.termProbing', value: false },
  { key: 'search.vectorEnabled', value: false },
  { key: 'search.hintsEnabled', value: false },
  { key: 'search.graphBoostEnabled', value: true },
  { key: 'search.graphBoostWeight', value: 1, base: { 'search.graphBoostEnabled': true } },
  { key: 'search.traversalEnabled', value: true },
  { key: 'search.facetsEnabled', value: true },
  { key: 'search.temporalPriorEnabled', value: true },
  { key: 'search.temporalPriorMaxBoost', value: 1, base: { 'search.temporalPriorEnabled': true } },
  { key: 'search.temporalPriorHalfLifeDays', value: 1, base: { 'search.temporalPriorEnabled': true } },
  { key: 'search.recencyEnabled', value: true },
  { key: 'search.recencyHalfLifeDays', value: 1, base: { 'search.recencyEnabled': true } },
  { key: 'search.currentnessEnabled', value: false },
  { key: 'search.gravityDampeningEnabled', value: true },
  { key: 'search.hubDampeningEnabled', value: true },
  { key: 'search.resolutionBoostEnabled', value: false },
  { key: 'search.rerankEnabled', value: true },
];

describe('settings contract: search', () => {
  let fx: RecallFixture;
  before(async () => { fx = await openRecallFixture(); });
  after(async () => { await fx.close(); });

  for (const c of CASES) {
    settingContract(c.key, `recall results change when it is ${JSON.stringify(c.value)}`, async () => {
      const base = c.base ?? {};
      const before = await fx.fingerprint(base);
      const after = await fx.fingerprint({ ...base, [c.key]: c.value });
      assert.notEqual(after, before, `${c.key} = ${JSON.stringify(c.value)} left every probe's results and scores unchanged`);
    });
  }

  settingContract('search.overFetch', 'a filtered recall fills its page from a wider pool', async () => {
    // The filter hides the first half of every ranking, as "already shown in this chat" does.
    const seen = new Set<string>();
    const filter = (c: { id: string }): boolean => !seen.has(c.id);
    const plain = await fx.fingerprint({}, { limit: 2 });
    for (const line of plain.split('\n')) for (const item of line.split(' ')) if (item) seen.add(item.split(':')[0] as string);
    const narrow = await fx.fingerprint({}, { limit: 2, filter });
    const wide = await fx.fingerprint({ 'search.overFetch': 5 }, { limit: 2, filter });
    assert.notEqual(wide, narrow);
    assert.ok(wide.replace(/\s/g, '').length > narrow.replace(/\s/g, '').length, 'the wider pool returns results the narrow one could not');
  });
});

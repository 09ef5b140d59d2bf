import { strict as assert } from 'node:assert';
import { DEFAULT_SEARCH_CONFIG } from '../../../src/core/config/searchConfig';
import { applyDateWindow, queryDateSpan } from '../../../src/core/recall/dateWindow';
import { cand } from './candidateFixture';

const cfg = DEFAULT_SEARCH_CONFIG.dateWindow;
const iso = (y: number, m: number, d: number): string => new Date(Date.UTC(y, m - 1, d)).toISOString();

describe('recall date window', () => {
  it('reads the day, month or year a query names', () => {
    const span = (q: string): [string, string] | undefined => {
      const s = queryDateSpan(q);
      return s ? [new Date(s.startMs).toISOString().slice(0, 10), new Date(s.endMs).toISOString().slice(0, 10)] : undefined;
    };
    assert.deepEqual(span('What painting did she show on October 13, 2023?'), ['2023-10-13', '2023-10-14']);
    assert.deepEqual(span('What did the shop find on 1 February, 2023?'), ['2023-02-01', '2023-02-02']);
    assert.deepEqual(span('What did they paint in July 2023?'), ['2023-07-01', '2023-08-01']);
    assert.deepEqual(span('Which release shipped in Sept. 2024?'), ['2024-09-01', '2024-10-01']);
    assert.deepEqual(span('what changed on 2025-03-04'), ['2025-03-04', '2025-03-05']);
    assert.deepEqual(span('How many trips did he take in 2022?'), ['2022-01-01', '2023-01-01']);
    assert.deepEqual(span('What happened in December of 2023?'), ['2023-12-01', '2024-01-01']);
  });

  it('ignores numbers that are not dates and dates without a year', () => {
    assert.equal(queryDateSpan('Which port is 2023 on the staging server?'), undefined);
    assert.equal(queryDateSpan('What did we decide in May?'), undefined);
    assert.equal(queryDateSpan('Upgrade to Python 3.12'), undefined);
    assert.equal(queryDateSpan('the build of March 45, 2023'), undefined);
  });

  it('lifts candidates created within the widened window and reorders', () => {
    const before = cand('before', 0.5, { createdAt: iso(2023, 6, 20) });
    const inside = cand('inside', 0.45, { createdAt: iso(2023, 7, 12) });
    const after = cand('after', 0.44, { createdAt: iso(2023, 8, 10) });
    const far = cand('far', 0.48, { createdAt: iso(2023, 9, 30) });
    const out = applyDateWindow([before, far, inside, after], 'What did they paint in July 2023?', false, cfg);
    // July widened by 7 days before and 14 after: June 24 .. August 15.
    assert.deepEqual(out.map((c) => c.id), ['inside', 'after', 'before', 'far']);
    assert.ok(Math.abs((out[0]?.score ?? 0) - 0.45 * (1 + cfg.boost)) < 1e-9);
    assert.match(out[0]?.explain.boosts[0]?.note ?? '', /July 2023/);
  });

  it('leaves queries without a date, recalls with time bounds, and the switched-off stage alone', () => {
    const make = (): ReturnType<typeof cand>[] => [cand('a', 0.5, { createdAt: iso(2022, 1, 1) }), cand('b', 0.4, { createdAt: iso(2023, 7, 2) })];
    for (const [query, bounds, config] of [['what did they paint?', false, cfg], ['what did they paint in July 2023?', true, cfg], ['what did they paint in July 2023?', false, { ...cfg, enabled: false }]] as const) {
      const out = applyDateWindow(make(), query, bounds, config);
      assert.deepEqual(out.map((c) => [c.id, c.score]), [['a', 0.5], ['b', 0.4]]);
    }
  });
});

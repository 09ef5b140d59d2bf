import { strict as assert } from 'node:assert';
import { DEFAULT_SEARCH_CONFIG, resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { shapeScore } from '../../../src/core/recall/evidenceShaping';
import { shapeByFacetCoverage } from '../../../src/core/recall/facetCoverage';
import { applyRecencyTieBreak, applyTemporalPrior, hasFreshnessCue, recencyBonus } from '../../../src/core/recall/temporalSignals';
import { selectResults, retrievalWidth } from '../../../src/core/recall/overFetch';
import { cand } from './candidateFixture';

const cfg = DEFAULT_SEARCH_CONFIG;
const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);
const NOW = Date.parse('2026-06-01T00:00:00Z');
const daysAgo = (d: number): string => new Date(NOW - d * 86_400_000).toISOString();

describe('recall config', () => {
  it('clamps out-of-range values and keeps defaults', () => {
    const c = resolveSearchConfig({ alpha: 3, limit: 500, overFetch: 0, recency: { maxBonus: 5 }, dampening: { gravityPenalty: -1 } });
    assert.equal(c.alpha, 1);
    assert.equal(c.limit, 50);
    assert.equal(c.overFetch, 1);
    assert.equal(c.recency.maxBonus, 0.99);
    assert.equal(c.dampening.gravityPenalty, 0);
    assert.equal(c.dampening.hubPenalty, 0.7);
    assert.equal(resolveSearchConfig({ alpha: Number.NaN }).alpha, cfg.alpha);
  });
});

describe('recall evidence shaping', () => {
  const base = { ...cfg, alpha: 0.7 };
  it('fuses alpha·semantic + (1−alpha)·lexical', () => {
    close(shapeScore({ lexical: 1, semantic: 0.5, hint: 0, traversal: 0 }, base).score, 0.7 * 0.5 + 0.3 * 1);
  });

  it('lets a hint lift its memory by max, never stacking', () => {
    // base = 0.7·0.6 + 0.3·0.5 = 0.57; hint 0.8 wins; hint 0.5 changes nothing.
    close(shapeScore({ lexical: 0.5, semantic: 0.6, hint: 0.8, traversal: 0 }, base).score, 0.8);
    close(shapeScore({ lexical: 0.5, semantic: 0.6, hint: 0.5, traversal: 0 }, base).score, 0.57);
  });

  it('caps a hint-only match at 0.75', () => {
    const s = shapeScore({ lexical: 0, semantic: 0.2, hint: 1, traversal: 0 }, base);
    close(s.score, 0.75);
    assert.match(s.notes.join(), /hint-only/);
  });

  it('caps traversal-only evidence below anchored evidence', () => {
    const withTraversal = { ...base, traversal: { ...base.traversal, enabled: true } };
    const unanchored = shapeScore({ lexical: 0, semantic: 0.2, hint: 0, traversal: 0.9 }, withTraversal).score;
    const anchored = shapeScore({ lexical: 0.5, semantic: 0.3, hint: 0, traversal: 0.9 }, withTraversal).score;
    close(unanchored, 0.35);
    close(anchored, 0.7 * 0.3 + 0.3 * 0.5); // anchored evidence keeps its own score (0.36)
    assert.ok(unanchored < anchored);
    close(shapeScore({ lexical: 0, semantic: 0.1, hint: 0, traversal: 0.2 }, withTraversal).score, 0.2); // below the cap: lifted by max
  });

  it('ignores the hint channel when hints are switched off', () => {
    close(shapeScore({ lexical: 0, semantic: 0.5, hint: 1, traversal: 0 }, { ...base, hints: { ...cfg.hints, enabled: false } }).score, 0.35);
  });
});

describe('recall facet coverage', () => {
  it('prefers a candidate covering a new facet over a near-duplicate', () => {
    const a = cand('a', 0.80, { content: 'postgres database for the api' });
    const b = cand('b', 0.78, { content: 'postgres database tuning for the api' });
    const c = cand('c', 0.74, { content: 'redis cache in front' });
    // Facets postgres, redis. Pick a (0.80 + 0.08). Then b: 0.78 − 0.02 = 0.76; c: 0.74 + 0.08 = 0.82 → c.
    const out = shapeByFacetCoverage([a, b, c], ['postgres', 'redis'], 10, { ...cfg.facets, enabled: true });
    assert.deepEqual(out.map((x) => x.id), ['a', 'c', 'b']);
    close(out[1]!.score, 0.82);
  });

  it('does nothing for a single-facet query or when switched off', () => {
    const list = [cand('a', 0.5), cand('b', 0.6)];
    assert.deepEqual(shapeByFacetCoverage(list, ['x'], 10, { ...cfg.facets, enabled: true }).map((x) => x.id), ['a', 'b']);
    assert.deepEqual(shapeByFacetCoverage(list, ['x', 'y'], 10, { ...cfg.facets, enabled: false }).map((x) => x.id), ['a', 'b']);
  });
});

describe('recall temporal freshness prior', () => {
  it('fires only for explicit freshness words, not for bare "now"', () => {
    for (const q of ['current database', 'latest release', 'recent changes', 'what changed today', 'this week', 'This Month']) assert.ok(hasFreshnessCue(q), q);
    for (const q of ['what do we use now', 'database', 'currency format']) assert.ok(!hasFreshnessCue(q), q);
  });

  it('boosts by 1 + 0.2·0.5^(age/14), bounded', () => {
    const fresh = cand('new', 0.5, { createdAt: daysAgo(0) });
    const old = cand('old', 0.55, { createdAt: daysAgo(14) });
    const out = applyTemporalPrior([old, fresh], 'current db', NOW, false, { ...cfg.temporalPrior, enabled: true, maxBoost: 0.2 });
    close(fresh.score, 0.5 * 1.2);
    close(old.score, 0.55 * 1.1);
    assert.deepEqual(out.map((c) => c.id), ['old', 'new']); // 0.605 vs 0.6: bounded, no overturn of a 10% gap
  });

  it('counts age from the newest candidate, so the latest of an old series still wins', () => {
    const newest = cand('v10', 0.5, { createdAt: daysAgo(200) });
    const older = cand('v9', 0.55, { createdAt: daysAgo(300) });
    const out = applyTemporalPrior([older, newest], 'what was the latest release', NOW, false, { ...cfg.temporalPrior, enabled: true, maxBoost: 0.2 });
    close(newest.score, 0.5 * 1.2);
    close(older.score, 0.55 * (1 + 0.2 * Math.pow(0.5, 100 / 14)));
    assert.deepEqual(out.map((c) => c.id), ['v10', 'v9']);
  });

  it('leaves callers with since/until bounds and timeless queries unchanged', () => {
    const c = cand('x', 0.5, { createdAt: daysAgo(0) });
    applyTemporalPrior([c], 'current db', NOW, true, cfg.temporalPrior);
    applyTemporalPrior([c], 'db', NOW, false, cfg.temporalPrior);
    assert.equal(c.score, 0.5);
  });
});

describe('recall recency tie-breaker', () => {
  it('gives at most 0.15 of a rank step, halving every 30 days', () => {
    close(recencyBonus(daysAgo(0), NOW, cfg.recency), 0.15 * 0.1);
    close(recencyBonus(daysAgo(30), NOW, cfg.recency), 0.15 * 0.1 * 0.5);
  });

  it('reorders a near-tie toward the newer memory', () => {
    const old = cand('old', 0.501, { createdAt: daysAgo(365) });
    const fresh = cand('new', 0.5, { createdAt: daysAgo(1) });
    assert.deepEqual(applyRecencyTieBreak([old, fresh], NOW, { ...cfg.recency, enabled: true }).map((c) => c.id), ['new', 'old']);
  });

  it('cannot overturn a clear gap of one rank step, even at its most generous', () => {
    const generous = resolveSearchConfig({ recency: { maxBonus: 1 } }).recency;
    const old = cand('old', 0.6, { createdAt: daysAgo(3650) });
    const fresh = cand('new', 0.6 - generous.rankStep, { createdAt: daysAgo(0) });
    assert.deepEqual(applyRecencyTieBreak([old, fresh], NOW, generous).map((c) => c.id), ['old', 'new']);
  });
});

describe('recall over-fetch', () => {
  it('retrieves limit × overFetch and applies the filter before slicing', () => {
    assert.equal(retrievalWidth(3, 5), 15);
    const ranked = Array.from({ length: 15 }, (_, i) => cand(`m${i}`, 1 - i / 100));
    const visible = new Set(['m0', 'm1', 'm2']);
    const filter = (c: { id: string }): boolean => !visible.has(c.id);
    assert.deepEqual(selectResults(ranked, 3, 1, filter).map((c) => c.id), []);
    assert.deepEqual(selectResults(ranked, 3, 5, filter).map((c) => c.id), ['m3', 'm4', 'm5']);
  });

  it('defaults to exactly the plain behaviour (overFetch 1)', () => {
    const ranked = Array.from({ length: 5 }, (_, i) => cand(`m${i}`, 1 - i / 10));
    assert.deepEqual(selectResults(ranked, 2, 1).map((c) => c.id), ['m0', 'm1']);
  });
});

import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { recallDetailed } from '../../../src/core/recall/recallService';
import { RECALL_STAGES } from '../../../src/core/recall/recallStages';
import type { RecallStage } from '../../../src/core/recall/recallStages';
import { rankRecall } from '../../../src/core/recall/recallPipeline';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { insertMemory, seed } from './recallDb';

const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));

describe('recall stages as data', () => {
  let store: MemoryStore;
  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await seed(store, (w) => {
      insertMemory(w, { id: 'a', content: 'The deploy port of the staging server is 8443.' });
      insertMemory(w, { id: 'b', content: 'We decided the deploy port stays 8443 for staging.', type: 'decision' });
      insertMemory(w, { id: 'c', content: 'The staging server runs on a small machine.' });
    });
  });
  afterEach(async () => { await store.close(); });

  it('lists the stages in their running order, each with a switch', () => {
    assert.deepEqual(RECALL_STAGES.map((s) => s.id), ['learnedUse', 'sessionNeighbours', 'graphBoost', 'temporalPrior', 'dateWindow', 'rerank', 'window', 'speakers', 'learnedOrder', 'dampening', 'currentness', 'recency', 'facets', 'pins']);
    assert.deepEqual(RECALL_STAGES.filter((s) => s.enabled(resolveSearchConfig({}))).map((s) => s.id), ['sessionNeighbours', 'dateWindow', 'window', 'learnedOrder', 'dampening', 'currentness', 'pins'], 'the defaults (docs/recall-design.md, "Seventh round")');
    const off = resolveSearchConfig({ speakers: { enabled: false }, learnedOrder: { enabled: false }, neighbours: { enabled: false }, graphBoost: { enabled: false }, recency: { enabled: false }, rerank: { enabled: true }, temporalPrior: { enabled: true } });
    assert.deepEqual(RECALL_STAGES.filter((s) => s.enabled(off)).map((s) => s.id), ['temporalPrior', 'dateWindow', 'rerank', 'window', 'dampening', 'currentness', 'pins']);
  });

  it('runs only the enabled stages, and the explanation names each stage that changed a score', async () => {
    const config = resolveSearchConfig({ vector: { enabled: false }, facets: { enabled: true } });
    const out = await recallDetailed(store, { query: 'deploy port staging' }, { clock, config, track: false });
    assert.deepEqual(out.stages, ['sessionNeighbours', 'dateWindow', 'window', 'learnedOrder', 'dampening', 'currentness', 'facets', 'pins']);
    const b = out.items.find((r) => r.id === 'b');
    assert.ok(b?.explain?.boosts.some((x) => x.stage === 'resolution'), 'the decision carries the resolution boost');
    assert.ok(out.items.some((r) => r.explain?.boosts.some((x) => x.stage === 'facets')));
    const noResolution = await recallDetailed(store, { query: 'deploy port staging' }, { clock, config: resolveSearchConfig({ vector: { enabled: false }, dampening: { resolutionEnabled: false } }), track: false });
    assert.ok(!noResolution.items.some((r) => r.explain?.boosts.some((x) => x.stage === 'resolution')));
  });

  it('takes its stage list as data: a stage added to the list runs in place', async () => {
    const cfg = resolveSearchConfig({ vector: { enabled: false } });
    const last: RecallStage = { id: 'reverse', enabled: () => true, apply: (cands) => [...cands].reverse() };
    const plain = await rankRecall(store, { query: 'deploy port staging' }, { clock, track: false }, cfg, undefined);
    const reversed = await rankRecall(store, { query: 'deploy port staging' }, { clock, track: false }, cfg, undefined, [...RECALL_STAGES, last]);
    assert.deepEqual(reversed.results.map((c) => c.id), plain.results.map((c) => c.id).reverse());
    assert.equal(reversed.stages.at(-1), 'reverse');
  });
});

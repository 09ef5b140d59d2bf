/**
 * The settings that shape recall beyond the search stages the recall fixture probes: the configured
 * reranker (models.rerankTopN, models.rerankTimeoutMs, models.crossEncoderModel, built by
 * createRecallReranker from the settings as the engine builds it), pins as focal entities
 * (search.pinsFocal) and session neighbours (search.sessionNeighboursEnabled).
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { readMemorySettings, recallSearchConfig } from '../../../src/core/config/memorySettings';
import type { Reranker } from '../../../src/core/models/rerank';
import type { RerankerSet } from '../../../src/core/models/rerankerSet';
import { pinEntity } from '../../../src/core/pinning/pinning';
import { createRecallReranker } from '../../../src/core/recall/createRecallReranker';
import { recallDetailed } from '../../../src/core/recall/recallService';
import type { RecallDeps } from '../../../src/core/recall/recallRequest';
import type { RecallOutcome } from '../../../src/core/recall/recallService';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { tinyBertFixture } from '../models/tinyBertFixture';
import { fakeEmbedder } from '../recall/fakeEmbedder';
import { RERANK_QUERY, reranked, seedRerankStore } from '../recall/rerankStore';
import { settingContract } from './contractRegistry';
import { openRecallFixture } from './recallFixture';

const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
const dirs = { bundledModelsDir: '/nonexistent', cacheDir: '/nonexistent' };
const emb = fakeEmbedder();
describe('settings contract: rerankers, pins and session neighbours', function () {
  this.timeout(60_000);
  let store: MemoryStore;
  const sets: RerankerSet[] = [];
  /** The reranker set and search config the settings `values` give, as the engine builds them. */
  const configured = (values: Readonly<Record<string, unknown>>): Pick<RecallDeps, 'config' | 'rerankers'> & { rerankers: RerankerSet } => {
    // The rerank stage is off by default (docs/recall-design.md, "Sixth round"); the model settings act when it is on.
    const s = readMemorySettings((k) => ({ 'search.rerankEnabled': true, ...values })[k]);
    const rerankers = createRecallReranker(s.models, { dirs });
    sets.push(rerankers);
    return { config: recallSearchConfig(s), rerankers };
  };
  const run = (deps: Partial<RecallDeps>): Promise<RecallOutcome> => recallDetailed(store, { query: RERANK_QUERY, limit: 9 }, { clock, embedder: emb, track: false, ...deps });

  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await seedRerankStore(store, emb);
  });
  afterEach(async () => {
    for (const s of sets.splice(0)) await s.dispose();
    await store.close();
  });

  settingContract('models.rerankTopN', 'bounds how many head results the reranker rescores', async () => {
    const all = reranked(await run(configured({})));
    const head = reranked(await run(configured({ 'models.rerankTopN': 2 })));
    assert.ok(all.length > 2, `the default top-N rescored ${all.length}`);
    assert.ok(head.length > 0 && head.length <= 2, `top-N 2 rescored ${head.length}`);
  });

  settingContract('models.rerankTimeoutMs', 'is how long recall waits for the reranker before keeping the fused order', async () => {
    const slowFor = (deps: ReturnType<typeof configured>): Partial<RecallDeps> => {
      const slow: Reranker = { id: 'slow', rerank: (_q, h) => new Promise((resolve) => setTimeout(() => resolve([...h].reverse()), 300)) };
      return { config: deps.config, rerankers: { forQuery: () => slow, options: () => deps.rerankers.options() } };
    };
    const short = await run(slowFor(configured({ 'models.rerankTimeoutMs': 50 })));
    assert.match(short.notes.join('\n'), /reranker slow timed out after 50 ms; original order kept/);
    const long = await run(slowFor(configured({ 'models.rerankTimeoutMs': 5_000 })));
    assert.deepEqual(long.notes, []);
    assert.notDeepEqual(long.items.map((r) => r.id), short.items.map((r) => r.id), 'with time to finish, the reranker reordered the head');
  });

  settingContract('models.crossEncoderModel', 'names the pair-scoring model the crossEncoder provider loads', async () => {
    const missing = await run(configured({ 'models.rerankProvider': 'crossEncoder' }));
    assert.match(missing.notes.join('\n'), /reranker crossEncoder failed \(No cross-encoder model is configured\.\)/);
    const real = configured({ 'models.rerankProvider': 'crossEncoder', 'models.crossEncoderModel': await tinyBertFixture() });
    await real.rerankers.warmUp();
    const out = await run(real);
    assert.ok(out.items.some((r) => [...(r.explain?.boosts ?? []), ...(r.explain?.penalties ?? [])].some((a) => a.stage === 'rerank:crossEncoder')), 'the named model rescored the head');
  });

  settingContract('search.sessionNeighboursEnabled', 'brings in the turns captured next to a top result in its session', async () => {
    await store.write('session', (w) => {
      // A chat: the user and the assistant take turns (the stage acts only in such sessions).
      for (const [i, content] of ['Can you remind me what we settled on?', 'The deploy port of the staging server is 8443.', 'Thanks, noted for the release checklist.'].entries()) {
        w.run('INSERT INTO memories (id, content, type, session_key, who, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [`s${i}`, content, 'fact', 'chat-1', i % 2 ? 'assistant' : 'user', `2026-01-02T00:00:0${i}.000Z`, `2026-01-02T00:00:0${i}.000Z`]);
      }
    });
    const ask = (values: Readonly<Record<string, unknown>>) => recallDetailed(store, { query: 'staging deploy port 8443', limit: 20 },
      { clock, track: false, config: recallSearchConfig(readMemorySettings((k) => values[k])) }).then((o) => o.items.map((r) => r.id));
    const on = await ask({});
    const off = await ask({ 'search.sessionNeighboursEnabled': false });
    assert.ok(on.includes('s2') && !off.includes('s2'), `the next turn joins only with neighbours on (on: ${on.join(' ')}; off: ${off.join(' ')})`);
  });

  settingContract('search.speakersEnabled', 'a question naming a speaker puts that speaker\'s own words above the other speaker\'s', async () => {
    await store.write('speakers', (w) => {
      const rows = [['p1', 'Tomas', 'Tomas: Priya, your woodworking course sounds great, I want to try woodworking too.'], ['p2', 'Priya', 'Priya: I signed up for a woodworking course, it helps me unwind.']];
      for (const [id, who, content] of rows) w.run('INSERT INTO memories (id, content, type, who, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [id, content, 'fact', who, '2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z']);
    });
    const ask = (values: Readonly<Record<string, unknown>>) => recallDetailed(store, { query: 'What woodworking class did Priya take?', limit: 20 },
      { clock, track: false, config: recallSearchConfig(readMemorySettings((k) => values[k])) }).then((o) => o.items.map((r) => r.id).filter((id) => id === 'p1' || id === 'p2'));
    assert.deepEqual(await ask({}), ['p1', 'p2'], 'off by default (the learned order weighs who wrote what): the other speaker\'s turn, holding more of the words, ranks first');
    assert.deepEqual(await ask({ 'search.speakersEnabled': true }), ['p2', 'p1']);
  });

  settingContract('search.learnedOrderEnabled', 'in a dialogue, the answer of the person asked about ranks above the question that holds every word', async () => {
    // Two people taking turns in one session (learnedOrder.ts reorders only a dialogue's results).
    const turns = [
      ['d1', 'Mia', 'Mia: Noah, what did you catch at the lake? Did you catch anything at the lake at all?'],
      ['d2', 'Noah', 'Noah: My brother and I got three trout by the water, every morning before breakfast.'],
      ['d3', 'Mia', 'Mia: That sounds lovely, I have never tried kayaking.'],
      ['d4', 'Noah', 'Noah: You should come with us next summer, it is really calm there.'],
      ['d5', 'Mia', 'Mia: Maybe, I will think about it.'],
    ];
    await store.write('dialogue', (w) => {
      turns.forEach(([id, who, content], i) => w.run('INSERT INTO memories (id, content, type, who, session_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [id, content, 'fact', who, 'trip', `2026-01-03T00:00:0${i}.000Z`, `2026-01-03T00:00:0${i}.000Z`]));
    });
    const ask = (values: Readonly<Record<string, unknown>>) => recallDetailed(store, { query: 'What did Noah catch at the lake?', limit: 5 },
      { clock, track: false, config: recallSearchConfig(readMemorySettings((k) => values[k])) });
    const off = await ask({ 'search.learnedOrderEnabled': false });
    assert.equal(off.items[0]?.id, 'd1', 'without the stage the question, holding every word of the question, ranks first');
    const on = await ask({});
    assert.equal(on.items[0]?.id, 'd2', `the answer comes first (${on.items.map((r) => r.id).join(' ')})`);
    assert.ok(on.stages.includes('learnedOrder') && !off.stages.includes('learnedOrder'));
    const moved = on.items[0]?.explain?.boosts.find((b) => b.stage === 'learnedOrder');
    assert.match(moved?.note ?? '', /^moved up from \d+(st|nd|rd|th) to 1st: /, 'the explanation says where it moved and why');
  });

  // A pin lifts only memories relevant to the question (recall/pinPriority.ts): ask about the pinned entity.
  const ABOUT_GRAFANA = { query: 'where do the dashboards live?' };
  settingContract('search.pinsFocal', 'a pinned entity changes what a question about it returns; off, the pin changes nothing', async () => {
    const fx = await openRecallFixture();
    try {
      const unpinnedOn = await fx.fingerprint({}, ABOUT_GRAFANA);
      const unpinnedOff = await fx.fingerprint({ 'search.pinsFocal': false }, ABOUT_GRAFANA);
      assert.equal(unpinnedOn, unpinnedOff, 'without a pin the setting has nothing to act on');
      await fx.store.write('pin', (w) => { pinEntity(w, 'default', 'Grafana', new Date(fx.clock.now()).toISOString()); });
      assert.notEqual(await fx.fingerprint({}, ABOUT_GRAFANA), unpinnedOn, 'the pin reached recall');
      assert.equal(await fx.fingerprint({ 'search.pinsFocal': false }, ABOUT_GRAFANA), unpinnedOff, 'with the setting off the pin changes nothing');
    } finally {
      await fx.close();
    }
  });
});

/**
 * search.queryAdapterEnabled: the question's vector is adapted (recall/queryAdapter.ts) before the
 * vector arm when the store's model is the one the shipped adapter was learned for, and only then.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { readMemorySettings, recallSearchConfig } from '../../../src/core/config/memorySettings';
import { adaptQuery, bundledQueryAdapter } from '../../../src/core/recall/queryAdapter';
import { recallDetailed } from '../../../src/core/recall/recallService';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { fakeEmbedder } from '../recall/fakeEmbedder';
import { insertMemory, insertVector, seed } from '../recall/recallDb';
import { settingContract } from './contractRegistry';

const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
const QUERY = 'which books has Tim read lately';
const TEXTS = ['Tim: I finished The Hobbit last week, a great read.', 'Tim: The staging server listens on port 8443.', 'Tim: We moved the reading list to SQLite.'];
const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * (b[i] as number), 0);

describe('settings contract: the query adapter', () => {
  let store: MemoryStore;
  afterEach(async () => { await store.close(); });

  /** Each memory's semantic channel for QUERY, with the setting at `on`, in a store embedded by `emb`. */
  const semantic = async (emb: ReturnType<typeof fakeEmbedder>, on: boolean | undefined): Promise<Map<string, number>> => {
    const config = recallSearchConfig(readMemorySettings((k) => (k === 'search.queryAdapterEnabled' ? on : undefined)));
    const out = await recallDetailed(store, { query: QUERY, limit: 10 }, { clock, embedder: emb, track: false, config });
    return new Map(out.items.map((r) => [r.id, r.explain?.channels.semantic ?? 0]));
  };

  settingContract('search.queryAdapterEnabled', 'searches by meaning with the adapted question vector (on by default), for the model the adapter was learned for only', async () => {
    // A 512-wide embedder named as the bundled model: the shipped adapter fits it.
    const use = fakeEmbedder(512, 'use-lite');
    store = await openMemoryStore({ clock });
    await seed(store, (w) => TEXTS.forEach((content, i) => { insertMemory(w, { id: `t${i}`, content }); insertVector(w, `t${i}`, use.vector(content), use.id); }));
    const byDefault = await semantic(use, undefined), on = await semantic(use, true), off = await semantic(use, false);
    assert.deepEqual([...byDefault], [...on], 'on by default');
    // The semantic channel is the cosine of the question's vector with the memory's.
    const cosines = (q: Float32Array): number[] => TEXTS.map((t) => Math.max(0, cosine(q, use.vector(t))));
    const adapted = cosines(adaptQuery(use.vector(QUERY), bundledQueryAdapter())), raw = cosines(use.vector(QUERY));
    TEXTS.forEach((_, i) => {
      assert.ok(Math.abs((on.get(`t${i}`) ?? 0) - (adapted[i] as number)) < 1e-4, `t${i} on: ${on.get(`t${i}`)} vs adapted ${adapted[i]}`);
      assert.ok(Math.abs((off.get(`t${i}`) ?? 0) - (raw[i] as number)) < 1e-4, `t${i} off: ${off.get(`t${i}`)} vs raw ${raw[i]}`);
    });
    assert.ok(TEXTS.some((_, i) => Math.abs((on.get(`t${i}`) ?? 0) - (off.get(`t${i}`) ?? 0)) > 1e-3), 'the setting changed the semantic channel');
    await store.close();

    // Another model (its own id and width): no adapter fits, the setting changes nothing.
    const other = fakeEmbedder(64, 'fake-bow');
    store = await openMemoryStore({ clock });
    await seed(store, (w) => TEXTS.forEach((content, i) => { insertMemory(w, { id: `t${i}`, content }); insertVector(w, `t${i}`, other.vector(content), other.id); }));
    assert.deepEqual([...(await semantic(other, true))], [...(await semantic(other, false))]);
  });
});

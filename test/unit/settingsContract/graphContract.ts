/**
 * Knowledge-graph settings, through the engine's write path (the extract job with the heuristic
 * extractor on the settings' graph configuration) and its maintenance (the
 * duplicate and conflict scan, with a deterministic embedder) of the engine the settings assemble.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import type { Embedder } from '../../../src/core/models/embedder';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import type { LlmClient } from '../../../src/core/hostContext';
import { engineOnStore } from '../helpers/testEngine';
import { fakeEmbedder } from '../recall/fakeEmbedder';
import { settingContract } from './contractRegistry';

const NOW = Date.parse('2026-06-01T00:00:00Z');

/** A store with `texts` remembered, embedded and extracted on the configuration `values` give. */
async function withStore<T>(values: Record<string, unknown>, texts: readonly string[], fn: (store: MemoryStore, clock: ManualClock, embedder: Embedder) => Promise<T>): Promise<T> {
  const clock = new ManualClock(NOW);
  const store = await openMemoryStore({ clock });
  const embedder: Embedder = { ...fakeEmbedder(), dispose: async () => undefined };
  try {
    const engine = engineOnStore(store, clock, values, { embedder });
    for (const [i, content] of texts.entries()) await engine.remember({ content, createdAt: new Date(NOW - (texts.length - i) * 60_000).toISOString() });
    await engine.settle();
    return await fn(store, clock, embedder);
  } finally {
    await store.close();
  }
}

/** The engine's duplicate and conflict scan; `llm` (when given) is the contradiction judge. */
async function duplicateScan(values: Record<string, unknown>, texts: readonly string[], llm?: LlmClient): Promise<Record<string, unknown>> {
  return withStore(values, texts, async (store, clock, embedder) => {
    const engine = engineOnStore(store, clock, values, { embedder, ...(llm ? { llm } : {}) });
    const report = await engine.maintenance.run(['find-duplicates-conflicts']);
    return { ...(report.tasks[0]?.summary ?? {}) };
  });
}

/** A language model that finds every pair it is shown contradictory. */
const contradictsAlways: LlmClient = { label: 'fake judge', complete: async () => '{"contradicts": true, "confidence": 0.95, "reasoning": "fake"}' };

const NEAR_DUPLICATES = [
  'The staging deploy uses port 8443 behind the load balancer.',
  'Staging deploys listen on port 8443 behind a load balancer the platform team runs.',
];
const MANY = Array.from({ length: 14 }, (_, i) => `Release ${i} shipped the ${['search', 'billing', 'login', 'export'][i % 4]} changes on day ${i}.`);

describe('settings contract: knowledge graph', () => {
  settingContract('graph.aspectWeight', 'is the weight a newly extracted aspect starts with', async () => {
    const weights = (values: Record<string, unknown>): Promise<number[]> => withStore(values, ['The billing service uses PostgreSQL for invoices.', 'Priya owns the ranking roadmap.'],
      async (store) => store.read((db) => db.all<{ w: number }>('SELECT DISTINCT weight AS w FROM entity_aspects').map((r) => r.w)));
    const before = await weights({});
    assert.ok(before.length > 0, 'extraction created aspects');
    assert.deepEqual(before, [0.5]);
    assert.deepEqual(await weights({ 'graph.aspectWeight': 0.9 }), [0.9]);
  });

  settingContract('graph.duplicateThreshold', 'lower, near-duplicate memories are proposed for merging', async () => {
    const strict = await duplicateScan({}, NEAR_DUPLICATES);
    const loose = await duplicateScan({ 'graph.duplicateThreshold': 0.5 }, NEAR_DUPLICATES);
    assert.equal(strict.mergeProposals, 0);
    assert.equal(loose.mergeProposals, 1);
  });

  settingContract('graph.conflictThreshold', 'lower, less similar memory pairs are checked for a contradiction and proposed', async () => {
    assert.equal((await duplicateScan({ 'graph.conflictThreshold': 1 }, NEAR_DUPLICATES, contradictsAlways)).conflictProposals, 0);
    assert.equal((await duplicateScan({ 'graph.conflictThreshold': 0.5 }, NEAR_DUPLICATES, contradictsAlways)).conflictProposals, 1);
  });

  settingContract('graph.maintenanceWindow', 'bounds how many recent memories the duplicate scan reads', async () => {
    assert.equal((await duplicateScan({}, MANY)).scanned, 14);
    assert.equal((await duplicateScan({ 'graph.maintenanceWindow': 10 }, MANY)).scanned, 10);
  });

  /** Aspect weights after the maintenance decay task runs `days` after extraction. */
  const decayed = (values: Record<string, unknown>, days = 30): Promise<number[]> =>
    withStore(values, ['The billing service uses PostgreSQL for invoices.', 'Priya owns the ranking roadmap.'], async (store, clock, embedder) => {
      clock.advance(days * 86_400_000);
      await engineOnStore(store, clock, values, { embedder }).maintenance.run(['decay-aspects']);
      return store.read((db) => db.all<{ w: number }>('SELECT weight AS w FROM entity_aspects ORDER BY id').map((r) => Number(r.w.toFixed(6))));
    });

  settingContract('feedback.decayEnabled', 'off, stale aspect weights stay as they are', async () => {
    const on = await decayed({});
    assert.ok(on.every((w) => w < 0.5), `decayed: ${on.join(', ')}`);
    assert.ok((await decayed({ 'feedback.decayEnabled': false })).every((w) => w === 0.5));
  });

  settingContract('feedback.decayRate', 'sets how far a stale aspect weight falls', async () => {
    assert.notDeepEqual(await decayed({ 'feedback.decayRate': 0.2 }), await decayed({}));
  });

  settingContract('feedback.staleDays', 'an aspect untouched for fewer days than it does not decay', async () => {
    assert.ok((await decayed({ 'feedback.staleDays': 60 })).every((w) => w === 0.5));
  });

  settingContract('feedback.minAspectWeight', 'is the floor a decaying weight stops at', async () => {
    const floor = await decayed({ 'feedback.decayRate': 1, 'feedback.minAspectWeight': 0.3 });
    assert.ok(floor.every((w) => w === 0.3), `weights ${floor.join(', ')}`);
    assert.notDeepEqual(await decayed({ 'feedback.decayRate': 1 }), floor);
  });

  settingContract('feedback.decayIntervalSessions', 'every that many ended sessions, stale aspect weights decay', async () => {
    const afterOneSession = (values: Record<string, unknown>): Promise<number[]> =>
      withStore(values, ['The billing service uses PostgreSQL for invoices.', 'Priya owns the ranking roadmap.'], async (store, clock, embedder) => {
        clock.advance(30 * 86_400_000);
        const { loop } = engineOnStore(store, clock, values, { embedder });
        await loop.sessions.start({ sessionKey: 'one' });
        await loop.sessions.end('one');
        return store.read((db) => db.all<{ w: number }>('SELECT weight AS w FROM entity_aspects ORDER BY id').map((r) => Number(r.w.toFixed(6))));
      });
    assert.ok((await afterOneSession({})).every((w) => w === 0.5), 'the default 10: one session decays nothing');
    assert.ok((await afterOneSession({ 'feedback.decayIntervalSessions': 1 })).every((w) => w < 0.5));
  });
});

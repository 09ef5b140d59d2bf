import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { recall } from '../../../src/core/recall/recallService';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { readMemorySettings } from '../../../src/core/config/memorySettings';

const searchSettings = (get: (key: string) => unknown) => readMemorySettings(get).search;
import { insertEntity, insertMemory, link, seed } from './recallDb';

const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
// Lexical recall with the default stages; traversal and graph boost stay at their defaults (off).
const config = resolveSearchConfig({ vector: { enabled: false } });

describe('pins lift relevant memories only; graph stages honour the agent', () => {
  let store: MemoryStore;
  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await seed(store, (w) => {
      insertMemory(w, { id: 'port', content: 'The deploy port of the staging server is 8443.' });
      insertMemory(w, { id: 'port2', content: 'Deploy the server with the port from the config.' });
      insertMemory(w, { id: 'billing', content: 'Alice owns the billing service and its invoices.' });
      insertEntity(w, 'e-billing', 'Billing service', { mentions: 1 });
      link(w, 'billing', 'e-billing');
    });
  });
  afterEach(async () => { await store.close(); });

  const pin = (id: string, agent = 'default') => seed(store, (w) => { w.run("UPDATE entities SET pinned = 1, pinned_at = '2026-05-01T00:00:00.000Z', agent_id = ? WHERE id = ?", [agent, id]); });
  const ids = async (cfg = config, agentId?: string) => (await recall(store, { query: 'deploy port', ...(agentId ? { agentId } : {}) }, { clock, config: cfg, track: false })).map((r) => r.id);

  const linkDeploy = () => seed(store, (w) => { insertEntity(w, 'e-deploy', 'Deploy config', { mentions: 1 }); link(w, 'port2', 'e-deploy'); });
  const pinnedLift = (r: { explain?: { boosts: { stage: string }[] } } | undefined) => r?.explain?.boosts.some((b) => b.stage === 'pins') ?? false;

  it('pinning an entity the query is not about adds none of its memories and moves nothing', async () => {
    const before = await ids();
    assert.deepEqual([...before].sort(), ['port', 'port2']);
    await pin('e-billing');
    assert.deepEqual(await ids(), before);
  });

  it('a relevant memory of a pinned entity is lifted (stage "pins"); agentMemory.search.pinsFocal off: a pin changes nothing', async () => {
    await linkDeploy();
    const before = await ids();
    assert.equal(before[0], 'port', 'unpinned, the other match comes first');
    await pin('e-deploy');
    const after = await recall(store, { query: 'deploy port' }, { clock, config, track: false });
    assert.equal(after[0]?.id, 'port2');
    assert.ok(pinnedLift(after[0]));
    const off = searchSettings((k) => (k === 'search.pinsFocal' ? false : k === 'search.vectorEnabled' ? false : undefined));
    assert.equal(off.pins.enabled, false);
    assert.equal(searchSettings(() => undefined).pins.enabled, true);
    assert.deepEqual(await ids(off), before);
  });

  it('another agent\'s pin does not count; the pinning agent\'s recall follows it', async () => {
    await linkDeploy();
    const before = await ids();
    await pin('e-deploy', 'other');
    assert.deepEqual(await ids(), before);
    const theirs = await recall(store, { query: 'deploy port', agentId: 'other' }, { clock, config, track: false });
    assert.ok(pinnedLift(theirs.find((r) => r.id === 'port2')));
  });

  it('graph boost and query focal entities use only the recalling agent\'s entities', async () => {
    await seed(store, (w) => {
      insertEntity(w, 'e-staging', 'staging server', { mentions: 1 });
      link(w, 'port', 'e-staging');
      w.run("UPDATE entities SET agent_id = 'other' WHERE id = 'e-staging'");
    });
    const boost = resolveSearchConfig({ vector: { enabled: false }, graphBoost: { enabled: true, specificity: false } });
    const boosted = (agentId?: string) => recall(store, { query: 'deploy port staging server', ...(agentId ? { agentId } : {}) }, { clock, config: boost, track: false });
    const mine = (await boosted()).find((r) => r.id === 'port');
    assert.ok(!mine?.explain?.boosts.some((b) => b.stage === 'graphBoost'), 'another agent\'s entity gives no boost');
    const theirs = (await boosted('other')).find((r) => r.id === 'port');
    assert.ok(theirs?.explain?.boosts.some((b) => b.stage === 'graphBoost'));
    const trav = resolveSearchConfig({ vector: { enabled: false }, traversal: { enabled: true, minSpecificity: 0 } });
    await seed(store, (w) => { w.run("UPDATE entities SET agent_id = 'other' WHERE id = 'e-billing'"); });
    const q = (agentId?: string) => recall(store, { query: 'billing service', ...(agentId ? { agentId } : {}) }, { clock, config: trav, track: false });
    assert.ok(!(await q()).some((r) => r.explain?.notes.includes('also reached by graph traversal')), 'not focal for the default agent');
    assert.ok((await q('other')).some((r) => r.explain?.notes.includes('also reached by graph traversal')));
  });

  it('rejects a blank agent id clearly', async () => {
    await assert.rejects(recall(store, { query: 'deploy port', agentId: ' ' }, { clock, config }), /agentId must be a non-empty string/);
  });
});

import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_CONTRADICTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { DEFAULT_GRAPH_CONFIG } from '../../../src/core/config/graphConfig';
import { acceptMerge } from '../../../src/core/consolidation/acceptMerge';
import { seededRng } from '../../../src/core/consolidation/cluster';
import { clusterCount, findDuplicatesAndConflicts } from '../../../src/core/consolidation/duplicatesAndConflicts';
import type { ScanDeps } from '../../../src/core/consolidation/duplicatesAndConflicts';
import { applyGraphOps } from '../../../src/core/graph/graphApply';
import { storeEmbedding } from '../../../src/core/jobs/embedHandler';
import { silentLogger } from '../../../src/core/logger';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

describe('find duplicates and conflicts (maintenance)', () => {
  let store: MemoryStore;
  let clock: ManualClock;
  beforeEach(async () => { clock = new ManualClock(); store = await openMemoryStore({ clock }); });
  const deps = (): ScanDeps => ({ store, modelId: 'm', dims: 3, llm: undefined, graph: DEFAULT_GRAPH_CONFIG, contradiction: DEFAULT_CONTRADICTION_CONFIG, logger: silentLogger, rng: seededRng(1) });
  async function mem(content: string, vector: number[], type = 'fact'): Promise<string> {
    clock.advance(1000);
    const r = await remember(store, { content, type }, defaultRememberDeps(clock));
    await store.write('t', (db) => storeEmbedding(db, r.id, 'm', new Float32Array(vector), '2026-01-01T00:00:00.000Z'));
    return r.id;
  }
  const count = (sql: string) => store.read((db) => db.get<{ n: number }>(sql)?.n ?? 0);

  it('proposes near-identical memories of the same type as a merge, keeping the older one', async () => {
    const a = await mem('We deploy on Fridays.', [1, 0, 0]);
    const b = await mem('Deploys happen on Fridays.', [0.999, 0.01, 0]);
    await mem('I like Friday deploys.', [0.999, 0.01, 0], 'preference');
    await mem('The logo is blue.', [0, 1, 0]);
    const r = await findDuplicatesAndConflicts(deps());
    assert.equal(r.scanned, 4);
    assert.deepEqual(r.merges.map((m) => [m.keepId, m.dropId]), [[a, b]]);
  });

  it('proposes a contradicting similar pair as a conflict, oldest first', async () => {
    const a = await mem('Telemetry is enabled in production builds.', [1, 0, 0]);
    const b = await mem('Telemetry is disabled in production builds.', [1, 0.5, 0]);
    const r = await findDuplicatesAndConflicts(deps());
    assert.deepEqual(r.merges, []);
    assert.deepEqual(r.conflicts.map((c) => [c.kind, c.olderId, c.newerId, c.reason]), [['memory', a, b, 'antonym']]);
  });

  it('asks the LLM about same-slot attributes the write-time check let through', async () => {
    await applyGraphOps(store, { actor: 't', reason: 't', clock }, [
      { op: 'upsert_entity', name: 'API', type: 'system' },
      { op: 'write_attribute', entity: 'API', aspect: 'storage', kind: 'attribute', content: 'The API keeps its data in PostgreSQL.', groupKey: 'db' },
      { op: 'write_attribute', entity: 'API', aspect: 'other', kind: 'attribute', content: 'The API keeps its data in Redis.', groupKey: 'db' },
    ]);
    clock.advance(1000);
    await applyGraphOps(store, { actor: 't', reason: 't', clock }, [
      { op: 'write_attribute', entity: 'API', aspect: 'storage', kind: 'attribute', content: 'The API keeps its data in MongoDB now.', groupKey: 'db' },
    ]);
    assert.equal(count("SELECT COUNT(*) AS n FROM entity_attributes WHERE status = 'active'"), 3, 'no syntactic contradiction at write time');
    const prompts: string[] = [];
    const llm = { label: 'fake', complete: async (p: string) => { prompts.push(p); return '{"contradicts": true, "confidence": 0.9, "reasoning": "different databases"}'; } };
    const r = await findDuplicatesAndConflicts({ ...deps(), llm });
    assert.equal(prompts.length, 1, 'only the same-slot pair is checked');
    assert.deepEqual(r.conflicts.map((c) => [c.kind, c.reason, c.detail]), [['attribute', 'semantic', 'different databases']]);
  });

  it('writes nothing while scanning', async () => {
    await mem('We deploy on Fridays.', [1, 0, 0]);
    await mem('Deploys happen on Fridays.', [1, 0, 0]);
    const ops = count('SELECT COUNT(*) AS n FROM graph_ops');
    const live = count('SELECT COUNT(*) AS n FROM memories WHERE is_deleted = 0');
    await findDuplicatesAndConflicts(deps());
    assert.equal(count('SELECT COUNT(*) AS n FROM graph_ops'), ops);
    assert.equal(count('SELECT COUNT(*) AS n FROM memories WHERE is_deleted = 0'), live);
  });

  it('groups the scanned memories into clusters', async () => {
    for (let i = 0; i < 8; i++) await mem(`topic a ${i}`, [1, i * 0.01, 0]);
    for (let i = 0; i < 8; i++) await mem(`topic b ${i}`, [0, 1, i * 0.01]);
    const r = await findDuplicatesAndConflicts({ ...deps(), graph: { ...DEFAULT_GRAPH_CONFIG, duplicateThreshold: 1 } });
    assert.equal(clusterCount(16), 2);
    assert.equal(r.clusters.length, 2);
    assert.deepEqual(r.clusters.map((c) => c.length).sort(), [8, 8]);
  });

  it('accepting a merge moves entity links to the kept memory and soft-deletes the other', async () => {
    const a = await mem('We deploy on Fridays.', [1, 0, 0]);
    const b = await mem('Deploys happen on Fridays.', [1, 0, 0]);
    await applyGraphOps(store, { actor: 't', reason: 't', clock }, [{ op: 'upsert_entity', name: 'Deploys', type: 'concept', memoryId: b }]);
    const [proposal] = (await findDuplicatesAndConflicts(deps())).merges;
    assert.ok(proposal);
    assert.deepEqual(await acceptMerge(store, proposal, clock), { relinked: 1 });
    assert.equal(store.read((db) => db.get<{ d: number }>('SELECT is_deleted AS d FROM memories WHERE id = ?', [b]))?.d, 1);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_entity_mentions WHERE memory_id = ?', [a]))?.n, 1);
  });
});

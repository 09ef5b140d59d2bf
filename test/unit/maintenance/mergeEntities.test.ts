import { strict as assert } from 'node:assert';
import { DEFAULT_CONTRADICTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { resolveFeedbackConfig } from '../../../src/core/config/feedbackConfig';
import { resolveGraphConfig } from '../../../src/core/config/graphConfig';
import { resolveHintsConfig } from '../../../src/core/config/hintsConfig';
import { resolveJobsConfig } from '../../../src/core/config/jobsConfig';
import { resolveMaintenanceConfig } from '../../../src/core/config/maintenanceConfig';
import type { ExtractionPayload } from '../../../src/core/extraction/contract';
import { FeedbackTelemetry } from '../../../src/core/feedback/feedbackTelemetry';
import { applyExtractionPayload } from '../../../src/core/graph/applyExtraction';
import { applyGraphOps } from '../../../src/core/graph/graphApply';
import { listGraphOps } from '../../../src/core/graph/graphAudit';
import { isMemoryError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/logger';
import { mergeEntitiesTask } from '../../../src/core/maintenance/maintenanceTasks';
import type { MaintenanceDeps } from '../../../src/core/maintenance/maintenanceTasks';
import { pinEntity } from '../../../src/core/pinning/pinning';
import { graphFixture } from '../graph/graphFixture';
import type { GraphFixture } from '../graph/graphFixture';

const tool = (name: string) => ({ name, type: 'tool' as const, description: '' });
const fact = (entity: string, content: string) => ({ entity, type: 'fact' as const, content, aspect: 'general', group_key: null, claim_key: null, importance: 0.5, confidence: 0.7 });

function deps(over: Partial<MaintenanceDeps> = {}): MaintenanceDeps {
  let n = 0;
  return {
    feedback: resolveFeedbackConfig(), hints: resolveHintsConfig(), jobs: resolveJobsConfig(), graph: resolveGraphConfig(), contradiction: DEFAULT_CONTRADICTION_CONFIG,
    maintenance: resolveMaintenanceConfig(), graphEnabled: true, telemetry: new FeedbackTelemetry(), newId: () => `m-${++n}`, ...over,
  };
}

interface Row { id: string; name: string; entity_type: string; mentions: number; pinned: number }

describe('merge-entities maintenance task', () => {
  let f: GraphFixture;
  beforeEach(async () => { f = await graphFixture(); });
  const apply = (sources: string[], payload: ExtractionPayload) => f.store.write('graph', (db) => applyExtractionPayload(db, f.ctx('extractor:llm'), sources, payload, 'llm'));
  const entities = () => f.store.read((db) => db.all<Row>('SELECT id, name, entity_type, mentions, pinned FROM entities ORDER BY name'));
  const run = async (cursor: string | null = null, d = deps()) => mergeEntitiesTask(d).step({ store: f.store, clock: f.clock, logger: silentLogger }, cursor);

  it('merges aliases and punctuation variants, keeping mentions, relations, attributes and the pin, audited', async () => {
    const [m1, m2, m3, m4] = [await f.memory('We use JS.'), await f.memory('JavaScript is fine.'), await f.memory('Node.js runs it.'), await f.memory('nodejs again, on Postgres')];
    await apply([m1], { entities: [tool('JS'), tool('Postgres')], relations: [{ from: 'JS', to: 'Postgres', type: 'uses', instruction: '' }], facts: [fact('JS', 'JS is used for the UI')] });
    await apply([m2], { entities: [tool('JavaScript'), tool('Postgres')], relations: [{ from: 'JavaScript', to: 'Postgres', type: 'uses', instruction: '' }, { from: 'JavaScript', to: 'Postgres', type: 'requires', instruction: '' }], facts: [fact('JavaScript', 'JavaScript runs in the browser')] });
    await apply([m3], { entities: [tool('Node.js')] });
    await apply([m4], { entities: [tool('nodejs'), tool('psql')] });
    const js = entities().find((e) => e.name === 'JS') as Row;
    await f.store.write('pin', (db) => pinEntity(db, 'default', js.id, '2026-01-01T00:00:00.000Z'));

    const r = await run();
    assert.equal(r.summary.entitiesMerged, 3, 'JS/JavaScript, Node.js/nodejs, Postgres/psql');
    const after = entities();
    assert.deepEqual(after.map((e) => e.name), ['JavaScript', 'Node.js', 'PostgreSQL']);
    const merged = after.find((e) => e.name === 'JavaScript') as Row;
    assert.equal(merged.id, js.id, 'the pinned entity is kept');
    assert.equal(merged.pinned, 1);
    assert.equal(merged.mentions, 2);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM memory_entity_mentions WHERE entity_id = ?', [js.id]), 2);
    assert.equal(f.count("SELECT COUNT(*) AS n FROM entity_attributes WHERE entity_id = ? AND status = 'active'", [js.id]), 2);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM entity_aspects WHERE entity_id = ?', [js.id]), 1, 'the two general aspects became one');
    const rels = f.store.read((db) => db.all<{ relation_type: string; mentions: number }>('SELECT relation_type, mentions FROM relations WHERE source_entity_id = ? ORDER BY relation_type', [js.id]));
    assert.deepEqual(rels, [{ relation_type: 'requires', mentions: 1 }, { relation_type: 'uses', mentions: 2 }]);
    const pg = after.find((e) => e.name === 'PostgreSQL') as Row;
    assert.equal(f.count('SELECT COUNT(*) AS n FROM memory_entity_mentions WHERE entity_id = ?', [pg.id]), 3);
    const ops = f.store.read((db) => listGraphOps(db)).filter((o) => o.op === 'entity_merge');
    assert.equal(ops.length, 3);
    assert.ok(ops.every((o) => o.actor === 'maintenance' && o.reason === 'merge duplicate entities'));
    assert.equal(f.count("SELECT COUNT(*) AS n FROM entities_fts WHERE entities_fts MATCH 'javascript'"), 1, 'the name index follows the rename');

    const again = await run();
    assert.equal(again.summary.entitiesMerged, 0, 'idempotent');
  });

  it('uses the user alias table and drops a relation that would join an entity to itself', async () => {
    const m1 = await f.memory('the db is fast');
    await apply([m1], { entities: [tool('the db'), tool('PostgreSQL')], relations: [{ from: 'the db', to: 'PostgreSQL', type: 'related_to', instruction: '' }] });
    assert.equal((await run()).summary.entitiesMerged, 0, 'no built-in alias for "the db"');
    const r = await run(null, deps({ aliases: { 'the db': 'PostgreSQL' } }));
    assert.equal(r.summary.entitiesMerged, 1);
    assert.deepEqual(entities().map((e) => e.name), ['PostgreSQL']);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM relations'), 0);
  });

  it('does nothing with the graph disabled, and the graph op refuses a self merge and unknown ids', async () => {
    assert.equal((await run(null, deps({ graphEnabled: false }))).summary.skipped, 'the graph is disabled');
    const actor = { actor: 'test', reason: 'unit test', clock: f.clock };
    await assert.rejects(applyGraphOps(f.store, actor, [{ op: 'merge_entities', keepId: 'a', mergeId: 'a' }]), (e) => isMemoryError(e) && /itself/.test(e.message));
    await assert.rejects(applyGraphOps(f.store, actor, [{ op: 'merge_entities', keepId: 'a', mergeId: 'b' }]), (e) => isMemoryError(e) && e.code === 'E_NOT_FOUND');
  });
});

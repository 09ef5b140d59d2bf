import { strict as assert } from 'node:assert';
import type { ExtractionPayload } from '../../../src/core/extraction/contract';
import { applyExtractionPayload } from '../../../src/core/graph/applyExtraction';
import { graphFixture } from './graphFixture';
import type { GraphFixture } from './graphFixture';

const concept = (name: string, description = '') => ({ name, type: 'concept' as const, description });

describe('applying an extraction payload', () => {
  let f: GraphFixture;
  beforeEach(async () => { f = await graphFixture(); });
  const apply = (sources: string[], payload: ExtractionPayload) =>
    f.store.write('graph', (db) => applyExtractionPayload(db, f.ctx('extractor:llm'), sources, payload, 'llm'));

  it('stores concepts linked to their source memories', async () => {
    const m1 = await f.memory('We use Vitest for unit tests.');
    const s = await apply([m1], { entities: [concept('Vitest', 'test runner')] });
    assert.equal(s.entitiesCreated, 1);
    const link = f.store.read((db) => db.get<{ memory_id: string; mention_text: string; confidence: number }>(
      'SELECT m.memory_id, m.mention_text, m.confidence FROM memory_entity_mentions m JOIN entities e ON e.id = m.entity_id WHERE e.canonical_name = ?', ['vitest']));
    assert.deepEqual(link, { memory_id: m1, mention_text: 'Vitest', confidence: 0.7 });
  });

  it('confirms a recurring concept: keeps its content, increments, provenance grows 2 → 4', async () => {
    const [a, b, c, d] = [await f.memory('turn a'), await f.memory('turn b'), await f.memory('turn c'), await f.memory('turn d')];
    await apply([a, b], { entities: [concept('Release checklist', 'steps before publishing')] });
    const before = f.store.read((db) => db.get<{ id: string; description: string; mentions: number }>("SELECT id, description, mentions FROM entities WHERE canonical_name = 'release checklist'"));
    assert.equal(f.count('SELECT COUNT(*) AS n FROM memory_entity_mentions WHERE entity_id = ?', [before?.id ?? '']), 2);
    const s = await apply([c, d], { entities: [concept('release  CHECKLIST', 'a different description')] });
    assert.equal(s.entitiesConfirmed, 1);
    assert.equal(s.entitiesCreated, 0);
    const after = f.store.read((db) => db.get<{ id: string; description: string; mentions: number }>("SELECT id, description, mentions FROM entities WHERE canonical_name = 'release checklist'"));
    assert.equal(after?.id, before?.id);
    assert.equal(after?.description, 'steps before publishing');
    assert.equal(after?.mentions, (before?.mentions ?? 0) + 2);
    const provenance = f.store.read((db) => db.all<{ memory_id: string }>('SELECT memory_id FROM memory_entity_mentions WHERE entity_id = ? ORDER BY memory_id', [after?.id ?? '']));
    assert.deepEqual(provenance.map((p) => p.memory_id), [a, b, c, d].sort());
  });

  it('drops a relation whose endpoint was not declared in the payload', async () => {
    const m = await f.memory('x');
    const s = await apply([m], { entities: [concept('API')], relations: [{ from: 'API', to: 'Ghost', type: 'uses', instruction: '' }] });
    assert.equal(s.relationsCreated, 0);
    assert.deepEqual(s.skipped.map((k) => k.reason), ['endpoint not declared in this payload']);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM relations'), 0);
    assert.equal(f.count("SELECT COUNT(*) AS n FROM entities WHERE canonical_name = 'ghost'"), 0);
  });

  it('does not duplicate a re-observed relation and updates its instruction', async () => {
    const [m1, m2] = [await f.memory('one'), await f.memory('two')];
    const payload = (instruction: string): ExtractionPayload => ({ entities: [concept('API'), concept('Postgres')], relations: [{ from: 'API', to: 'Postgres', type: 'uses', instruction }] });
    await apply([m1], payload('stores rows there'));
    const s = await apply([m2], payload('stores rows and sessions there'));
    assert.equal(s.relationsConfirmed, 1);
    const rows = f.store.read((db) => db.all<{ mentions: number; metadata: string }>('SELECT mentions, metadata FROM relations'));
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.mentions, 2);
    assert.equal(JSON.parse(rows[0]?.metadata ?? '{}').instruction, 'stores rows and sessions there');
  });

  it('ignores a self relation', async () => {
    const m = await f.memory('x');
    const s = await apply([m], { entities: [concept('API'), concept('api ')], relations: [{ from: 'API', to: 'api', type: 'related_to', instruction: '' }] });
    assert.equal(f.count('SELECT COUNT(*) AS n FROM relations'), 0);
    assert.deepEqual(s.skipped.map((k) => k.reason), ['self relation']);
  });

  it('treats a turn that declares nothing as a no-op', async () => {
    const m = await f.memory('ok, continue');
    const ops = f.count('SELECT COUNT(*) AS n FROM graph_ops');
    const s = await apply([m], {});
    assert.deepEqual([s.entitiesCreated, s.relationsCreated, s.attributesCreated, s.skipped.length], [0, 0, 0, 0]);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM entities'), 0);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM graph_ops'), ops);
  });

  it('re-checks kinds before insert and skips out-of-enum ones', async () => {
    const m = await f.memory('x');
    const payload = {
      entities: [concept('API'), { name: 'Weird', type: 'CONCEPT', description: '' }, concept('DB')],
      relations: [{ from: 'API', to: 'DB', type: 'SOLVED_BY', instruction: '' }, { from: 'API', to: 'DB', type: 'uses', instruction: '' }],
      facts: [{ entity: 'API', type: 'opinion', content: 'c', aspect: 'a', group_key: null, claim_key: null, importance: 0.5, confidence: 0.5 }],
    } as unknown as ExtractionPayload;
    const s = await apply([m], payload);
    assert.equal(s.entitiesCreated, 2);
    assert.equal(s.relationsCreated, 1);
    assert.equal(s.attributesCreated, 0);
    assert.deepEqual(s.skipped.map((k) => k.item), ['entities/1', 'relations/0', 'facts/0']);
    assert.equal(f.count("SELECT COUNT(*) AS n FROM entities WHERE canonical_name = 'weird'"), 0);
  });

  it('is idempotent when the same memory is processed again (mentions)', async () => {
    const m = await f.memory('x');
    const p: ExtractionPayload = { entities: [concept('API')] };
    await apply([m], p);
    await apply([m], p);
    assert.equal(f.count('SELECT COUNT(*) AS n FROM memory_entity_mentions'), 1);
    assert.equal(f.count("SELECT mentions AS n FROM entities WHERE canonical_name = 'api'"), 1);
  });

  it('writes facts as attributes under aspects, constraints as constraints', async () => {
    const m = await f.memory('The CLI must never print stack traces.');
    await apply([m], {
      entities: [concept('CLI')],
      facts: [{ entity: 'CLI', type: 'constraint', content: 'The CLI must never print stack traces.', aspect: 'Constraints', group_key: null, claim_key: null, importance: 0.9, confidence: 0.8 }],
    });
    const row = f.store.read((db) => db.get<{ kind: string; memory_id: string; aspect: string }>(
      'SELECT a.kind, a.memory_id, s.name AS aspect FROM entity_attributes a JOIN entity_aspects s ON s.id = a.aspect_id'));
    assert.deepEqual(row, { kind: 'constraint', memory_id: m, aspect: 'Constraints' });
  });
});

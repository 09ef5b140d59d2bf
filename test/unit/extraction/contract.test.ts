import { strict as assert } from 'node:assert';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { isEmptyPayload, validateExtractionPayload } from '../../../src/core/extraction/contract';

const v = (raw: unknown) => validateExtractionPayload(raw, DEFAULT_EXTRACTION_CONFIG);
const api = { name: 'API', type: 'system', description: 'backend' };
const pg = { name: 'PostgreSQL', type: 'tool', description: 'database' };

describe('extraction contract', () => {
  it('accepts a full payload with entities, relations and facts', () => {
    const r = v({
      entities: [api, pg],
      relations: [{ from: 'API', to: 'postgresql', type: 'uses', instruction: 'stores data there' }],
      facts: [{ entity: 'API', type: 'fact', content: 'The API uses PostgreSQL.', aspect: 'dependencies', group_key: 'uses', claim_key: 'database', importance: 0.6, confidence: 0.9 }],
    });
    assert.equal(r.ok, true, JSON.stringify(r.issues));
    assert.equal(r.payload.entities?.length, 2);
    assert.equal(r.payload.relations?.length, 1);
    assert.equal(r.payload.facts?.[0]?.claim_key, 'database');
  });

  it('accepts an empty object: every block is optional', () => {
    const r = v({});
    assert.equal(r.ok, true);
    assert.ok(isEmptyPayload(r.payload));
  });

  it('rejects an out-of-enum entity type (enum is enforced, unlike TypeBox Value.Check)', () => {
    const r = v({ entities: [{ name: 'X', type: 'CONCEPT', description: '' }] });
    assert.equal(r.ok, false);
    assert.deepEqual(r.issues.map((i) => i.path), ['entities/0/type']);
    assert.equal(r.payload.entities, undefined);
  });

  it('rejects an out-of-enum relation type and fact type', () => {
    const r = v({ entities: [api, pg], relations: [{ from: 'API', to: 'PostgreSQL', type: 'SOLVED_BY', instruction: '' }],
      facts: [{ entity: 'API', type: 'opinion', content: 'x', aspect: 'a' }] });
    assert.deepEqual(r.issues.map((i) => i.path).sort(), ['facts/0/type', 'relations/0/type']);
    assert.equal(r.payload.relations, undefined);
    assert.equal(r.payload.facts, undefined);
  });

  it('rejects relations whose endpoints are not declared in the same payload', () => {
    const r = v({ entities: [api], relations: [{ from: 'API', to: 'Redis', type: 'uses', instruction: '' }] });
    assert.deepEqual(r.issues.map((i) => i.path), ['relations/0/to']);
    assert.equal(r.payload.relations, undefined);
  });

  it('rejects extra properties at every level', () => {
    const r = v({ summary: 'x', entities: [{ ...api, score: 1 }], relations: [], facts: [] });
    assert.deepEqual(r.issues.map((i) => i.path), ['/summary', 'entities/0/score']);
  });

  it('rejects non-object payloads and non-array blocks without throwing', () => {
    assert.equal(v(null).ok, false);
    assert.equal(v([1]).ok, false);
    assert.equal(v({ entities: 'API' }).issues[0]?.path, 'entities');
  });

  it('checks number ranges and defaults missing importance and confidence', () => {
    const bad = v({ entities: [api], facts: [{ entity: 'API', type: 'fact', content: 'c', aspect: 'a', confidence: 2 }] });
    assert.equal(bad.issues[0]?.path, 'facts/0/confidence');
    const ok = v({ entities: [api], facts: [{ entity: 'API', type: 'fact', content: 'c', aspect: 'a' }] });
    assert.equal(ok.payload.facts?.[0]?.importance, 0.5);
    assert.equal(ok.payload.facts?.[0]?.confidence, 0.7);
    assert.equal(ok.payload.facts?.[0]?.claim_key, null);
  });

  it('drops a duplicate entity declaration and caps block sizes', () => {
    const many = Array.from({ length: DEFAULT_EXTRACTION_CONFIG.maxEntities + 3 }, (_, i) => ({ name: `E${i}`, type: 'concept', description: '' }));
    const r = v({ entities: [...many, { name: 'e0', type: 'tool', description: '' }] });
    assert.equal(r.payload.entities?.length, DEFAULT_EXTRACTION_CONFIG.maxEntities);
  });
});

import { strict as assert } from 'node:assert';
import { DEFAULT_EXTRACTION_CONFIG, resolveAliases, resolveExtractionConfig } from '../../../src/core/config/extractionConfig';
import { canonicalizePayload, createAliasResolver, foldName } from '../../../src/core/extraction/entityAliases';
import { heuristicExtract } from '../../../src/core/extraction/heuristicExtractor';

describe('entity aliases', () => {
  it('folds case, spaces, dots, hyphens, underscores and call parentheses', () => {
    assert.equal(foldName('Node.js'), foldName('nodejs'));
    assert.equal(foldName('node-js'), 'nodejs');
    assert.equal(foldName('parseArgs()'), 'parseargs');
  });

  it('resolves the built-in aliases to one canonical name', () => {
    const r = createAliasResolver();
    for (const n of ['JS', 'js', 'JavaScript', 'javascript']) assert.equal(r.canonical(n), 'JavaScript', n);
    for (const n of ['Postgres', 'postgresql', 'PostgreSQL', 'psql']) assert.equal(r.canonical(n), 'PostgreSQL', n);
    for (const n of ['k8s', 'K8s', 'Kubernetes']) assert.equal(r.canonical(n), 'Kubernetes', n);
    assert.equal(r.canonical('  Some   Library '), 'Some Library', 'unknown names are kept, whitespace collapsed');
  });

  it('lets the user table add aliases and override built-in ones', () => {
    const r = createAliasResolver({ 'the db': 'PostgreSQL', js: 'JScript' });
    assert.equal(r.canonical('The DB'), 'PostgreSQL');
    assert.equal(r.canonical('JS'), 'JScript');
    assert.equal(r.known('the-db'), true);
  });

  it('keeps only valid alias pairs from a setting value', () => {
    assert.deepEqual(resolveAliases({ pg: 'PostgreSQL', bad: 3, '': 'x', empty: ' ' }), { pg: 'PostgreSQL' });
    assert.deepEqual(resolveAliases(['pg']), {});
    assert.deepEqual(resolveExtractionConfig({ aliases: { pg: 'PostgreSQL' } }).aliases, { pg: 'PostgreSQL' });
  });

  it('merges aliased entities of one payload and rewrites relations and facts', () => {
    const p = canonicalizePayload({
      entities: [{ name: 'JS', type: 'tool', description: '' }, { name: 'JavaScript', type: 'tool', description: '' }, { name: 'Postgres', type: 'tool', description: '' }],
      relations: [{ from: 'JS', to: 'JavaScript', type: 'uses', instruction: '' }, { from: 'JS', to: 'Postgres', type: 'uses', instruction: '' }],
      facts: [{ entity: 'JS', type: 'fact', content: 'x', aspect: 'general', group_key: null, claim_key: null, importance: 0.5, confidence: 0.5 }],
    }, createAliasResolver());
    assert.deepEqual(p.entities?.map((e) => e.name), ['JavaScript', 'PostgreSQL']);
    assert.deepEqual(p.relations?.map((r) => [r.from, r.to]), [['JavaScript', 'PostgreSQL']]);
    assert.equal(p.facts?.[0]?.entity, 'JavaScript');
  });

  it('is applied by the default extractor, with the user table from the extraction config', () => {
    const names = (cfg = DEFAULT_EXTRACTION_CONFIG) => (heuristicExtract('We moved the API from JS to TypeScript on k8s.', cfg).entities ?? []).map((e) => e.name);
    assert.ok(names().includes('JavaScript') && names().includes('Kubernetes'), names().join(', '));
    const custom = resolveExtractionConfig({ aliases: { k8s: 'our cluster' } });
    assert.ok(names(custom).includes('our cluster'));
  });
});

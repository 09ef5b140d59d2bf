import { strict as assert } from 'node:assert';
import { DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { validateExtractionPayload } from '../../../src/core/extraction/contract';
import { findMentions } from '../../../src/core/extraction/entityMentions';
import { heuristicExtract } from '../../../src/core/extraction/heuristicExtractor';

const x = (t: string) => heuristicExtract(t, DEFAULT_EXTRACTION_CONFIG);
const names = (t: string) => findMentions(t).map((m) => `${m.name}:${m.type}`);

describe('heuristic extractor', () => {
  it('finds code identifiers, file paths, package names and URLs', () => {
    assert.deepEqual(names('Call `openMemoryStore` then parseArgs() or content_hash in MemoryStore'),
      ['openMemoryStore:symbol', 'parseArgs:symbol', 'content_hash:symbol', 'MemoryStore:symbol']);
    assert.deepEqual(names('Edit src/core/memory/remember.ts and package.json, see https://example.com/docs.'),
      ['src/core/memory/remember.ts:file', 'package.json:file', 'https://example.com/docs:url']);
    assert.deepEqual(names('Run npm install --save-dev @types/node then pnpm add lodash'), ['npm:tool', '@types/node:package', 'pnpm:tool', 'lodash:package']);
  });

  it('finds technology names, skipping sentence openers and everyday nouns', () => {
    // Two-word capitalised names of people and companies are not found outside a conversation
    // cue (docs/extraction.md): on the StackOverflow dev split that rule cost more precision than it gave.
    assert.deepEqual(names('Deploy the app with Docker on AWS for Alice Smith at Acme Corp'), ['Docker:tool', 'AWS:tool']);
    assert.deepEqual(names('Install Android Studio on Ubuntu, then the server starts.'), ['Android Studio:tool', 'Ubuntu:system']);
  });

  it('recognises ambiguous technology words only when capitalised', () => {
    assert.deepEqual(names('the rest of the node list'), []);
    assert.deepEqual(names('we expose REST from Node'), ['REST:tool', 'Node:tool']);
  });

  it('turns "X uses Y" into a relation and a dependency fact with a claim key', () => {
    const p = x('The API uses PostgreSQL.');
    assert.deepEqual(p.relations, [{ from: 'API', to: 'PostgreSQL', type: 'uses', instruction: 'The API uses PostgreSQL.' }]);
    assert.deepEqual(p.facts?.map((f) => [f.entity, f.aspect, f.group_key, f.claim_key]), [['API', 'dependencies', 'uses', 'database']]);
  });

  it('gives "we migrated the API to MongoDB" the same claim slot as "the API uses PostgreSQL"', () => {
    const before = x('The API uses PostgreSQL.').facts?.[0];
    const after = x('We migrated the API to MongoDB.').facts?.[0];
    assert.ok(before && after);
    assert.deepEqual([after.entity, after.aspect, after.group_key, after.claim_key], [before.entity, before.aspect, before.group_key, before.claim_key]);
    assert.equal(after.type, 'decision');
  });

  it('takes a lowercase noun phrase as the subject when no entity names it', () => {
    const a = x('Our backend uses PostgreSQL.').facts?.[0];
    const b = x('We migrated our backend to MongoDB.').facts?.[0];
    assert.deepEqual([a?.entity, a?.claim_key], ['backend', 'database']);
    assert.deepEqual([b?.entity, b?.claim_key], ['backend', 'database']);
    assert.equal(x('We migrated the billing service from MySQL to PostgreSQL.').facts?.[0]?.entity, 'billing service');
  });

  it('does not invent a subject from a pronoun or from a sentence with nothing to relate', () => {
    assert.equal(x('It uses Redis.').relations, undefined);
    assert.deepEqual(x('The tests use a fake clock.'), {});
  });

  it('records "depends on" as a depends_on relation', () => {
    assert.equal(x('The Indexer depends on Redis.').relations?.[0]?.type, 'depends_on');
  });

  it('extracts decisions', () => {
    const p = x('We decided to use Redis for session caching.');
    assert.equal(p.facts?.[0]?.type, 'decision');
    assert.equal(p.facts?.[0]?.entity, 'Redis');
  });

  it('extracts constraints as constraint facts without claim keys', () => {
    const f = x('The CLI must never print stack traces.').facts?.[0];
    assert.deepEqual([f?.type, f?.aspect, f?.claim_key], ['constraint', 'constraints', null]);
  });

  it('extracts "prefer X over Y" as a preference with an order-free claim key', () => {
    const a = x('We prefer tabs over spaces.');
    const b = x('We prefer spaces over tabs.');
    assert.equal(a.relations?.[0]?.type, 'preferred_over');
    assert.equal(a.facts?.[0]?.claim_key, 'spaces_vs_tabs');
    assert.equal(b.facts?.[0]?.claim_key, a.facts?.[0]?.claim_key);
  });

  it('returns an empty payload for chit-chat', () => {
    assert.deepEqual(x('ok, thanks, continue'), {});
  });

  it('always satisfies the contract and is deterministic', () => {
    const text = 'The API uses PostgreSQL and Redis. We migrated the API from PostgreSQL to MongoDB. We prefer pnpm over npm. The CLI must never crash. See src/cli/run.ts and https://x.dev.';
    const p = x(text);
    const r = validateExtractionPayload(p, DEFAULT_EXTRACTION_CONFIG);
    assert.equal(r.ok, true, JSON.stringify(r.issues));
    assert.deepEqual(x(text), p);
  });

  it('treats any scheme:// link as one URL and never turns the redaction placeholder into a name', () => {
    const p = x('Deploy with password=[REDACTED] to postgres://app:[REDACTED]@db.example.com/main');
    assert.deepEqual(p.entities?.map((e) => `${e.name}:${e.type}`), ['postgres://app:@db.example.com/main:url']);
  });

  it('never declares a self relation', () => {
    const p = x('The API uses the API.');
    assert.equal(p.relations, undefined);
  });

  it('records a sentence no pattern claims as a general fact of its first typed entity', () => {
    const p = x('The server in shelf/server.py logs every request to stderr.');
    assert.deepEqual(p.facts?.map((f) => [f.entity, f.type, f.aspect]), [['shelf/server.py', 'fact', 'facts']]);
    assert.match(p.facts?.[0]?.claim_key ?? '', /^observation_[0-9a-f]{16}$/, 'its own claim slot: unrelated observations never supersede each other');
    assert.equal(validateExtractionPayload(p, DEFAULT_EXTRACTION_CONFIG).ok, true);
  });

  it('adds no general fact where a pattern already produced one, nor for a question', () => {
    assert.deepEqual(x('The API uses PostgreSQL.').facts?.map((f) => f.aspect), ['dependencies']);
    assert.equal(x('Does shelf/server.py bind to 127.0.0.1?').facts, undefined);
  });

  it('leaves general facts out when the config turns them off', () => {
    const p = heuristicExtract('The server in shelf/server.py logs every request to stderr.', { ...DEFAULT_EXTRACTION_CONFIG, generalFacts: false });
    assert.equal(p.facts, undefined);
  });
});

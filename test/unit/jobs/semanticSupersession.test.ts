import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_CONTRADICTION_CONFIG, DEFAULT_EXTRACTION_CONFIG, resolveContradictionConfig } from '../../../src/core/config/extractionConfig';
import { DEFAULT_GRAPH_CONFIG } from '../../../src/core/config/graphConfig';
import { resolveJobsConfig } from '../../../src/core/config/jobsConfig';
import type { ExtractionPayload } from '../../../src/core/extraction/contract';
import type { Extractor } from '../../../src/core/extraction/llmExtractor';
import { createExtractHandler } from '../../../src/core/jobs/extractHandler';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import type { LlmClient } from '../../../src/core/hostContext';
import { silentLogger } from '../../../src/core/logger';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

const fact = (content: string): ExtractionPayload => ({
  entities: [{ name: 'API', type: 'system', description: '' }],
  facts: [{ entity: 'API', type: 'fact', content, aspect: 'storage', group_key: 'db', claim_key: null, importance: 0.5, confidence: 0.8 }],
});

describe('semantic contradiction at extraction time', () => {
  let store: MemoryStore;
  let clock: ManualClock;
  beforeEach(async () => { clock = new ManualClock(); store = await openMemoryStore({ clock }); });

  // A scripted extractor: each memory's payload is a single claim-less fact with its own text.
  const extractor: Extractor = { label: 'scripted', extract: async (text) => ({ payload: fact(text), source: 'llm', issues: [] }) };
  const run = async (llm: LlmClient | undefined, contradiction = DEFAULT_CONTRADICTION_CONFIG) => {
    const handler = createExtractHandler(extractor, { graph: DEFAULT_GRAPH_CONFIG, contradiction, ...(llm ? { llm } : {}) });
    return new JobWorker({ store, handlers: [handler], config: resolveJobsConfig({}), clock, logger: silentLogger }).drain();
  };
  const status = (content: string) => store.read((db) => db.get<{ status: string; superseded_by: string | null }>('SELECT status, superseded_by FROM entity_attributes WHERE content = ?', [content]));
  const deps = () => ({ ...defaultRememberDeps(clock), enqueue: { embed: false, extract: true, hints: false } });

  it('supersedes the older sibling when the LLM says the new fact contradicts it', async () => {
    const prompts: string[] = [];
    const llm: LlmClient = { label: 'judge', complete: async (p) => { prompts.push(p); return '{"contradicts": true, "confidence": 0.92, "reasoning": "different databases"}'; } };
    await remember(store, { content: 'The API keeps its data in PostgreSQL.' }, deps());
    await run(llm);
    clock.advance(60_000);
    await remember(store, { content: 'The API keeps its data in MongoDB now.' }, deps());
    await run(llm);
    assert.equal(prompts.length, 1);
    assert.equal(status('The API keeps its data in PostgreSQL.')?.status, 'superseded');
    assert.equal(status('The API keeps its data in MongoDB now.')?.status, 'active');
    const op = store.read((db) => db.get<{ actor: string; details: string }>("SELECT actor, details FROM graph_ops WHERE op = 'attribute_supersede'"));
    assert.equal(op?.actor, 'extractor:llm');
    assert.match(op?.details ?? '', /semantic contradiction: different databases/);
  });

  it('keeps both when the LLM says they are complementary or the semantic check is switched off', async () => {
    const no: LlmClient = { label: 'judge', complete: async () => '{"contradicts": false, "confidence": 0.9, "reasoning": "both true"}' };
    await remember(store, { content: 'The API keeps its data in PostgreSQL.' }, deps());
    await run(no);
    clock.advance(60_000);
    await remember(store, { content: 'The API keeps its data in PostgreSQL replicas too.' }, deps());
    await run(no);
    clock.advance(60_000);
    let called = 0;
    const yes: LlmClient = { label: 'judge', complete: async () => { called++; return '{"contradicts": true, "confidence": 0.99}'; } };
    await remember(store, { content: 'The API keeps its data in MongoDB now.' }, deps());
    await run(yes, resolveContradictionConfig({ semanticEnabled: false }));
    assert.equal(called, 0);
    assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM entity_attributes WHERE status = 'active'"))?.n, 3);
  });

  it('without an LLM only the write-time syntactic check applies', async () => {
    await remember(store, { content: 'The API keeps its data in PostgreSQL.' }, deps());
    await run(undefined);
    clock.advance(60_000);
    await remember(store, { content: 'The API does not keep its data in PostgreSQL.' }, deps());
    await run(undefined);
    assert.equal(status('The API keeps its data in PostgreSQL.')?.status, 'superseded');
    assert.ok(DEFAULT_EXTRACTION_CONFIG.contradiction.semanticEnabled);
  });
});

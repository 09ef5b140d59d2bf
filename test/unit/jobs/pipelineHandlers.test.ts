import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_CONTRADICTION_CONFIG, DEFAULT_EXTRACTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { DEFAULT_GRAPH_CONFIG } from '../../../src/core/config/graphConfig';
import { resolveJobsConfig } from '../../../src/core/config/jobsConfig';
import { createHeuristicExtractor, createLlmExtractor } from '../../../src/core/extraction/llmExtractor';
import type { Extractor } from '../../../src/core/extraction/llmExtractor';
import { createEmbedHandler } from '../../../src/core/jobs/embedHandler';
import { createExtractHandler } from '../../../src/core/jobs/extractHandler';
import { countJobs } from '../../../src/core/jobs/jobQueue';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import type { JobHandler } from '../../../src/core/jobs/jobWorker';
import { createRecordingLogger } from '../../../src/core/logger';
import { softDeleteMemory } from '../../../src/core/memory/forget';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { fakeEmbedder } from '../memory/fakeEmbedder';

describe('pipeline job handlers (embed, extract)', () => {
  let store: MemoryStore;
  let clock: ManualClock;
  beforeEach(async () => { clock = new ManualClock(); store = await openMemoryStore({ clock }); });
  const cfgs = { graph: DEFAULT_GRAPH_CONFIG, contradiction: DEFAULT_CONTRADICTION_CONFIG };
  const worker = (handlers: JobHandler[]) => new JobWorker({ store, handlers, config: resolveJobsConfig({}), clock, logger: createRecordingLogger() });
  const deps = () => defaultRememberDeps(clock);

  it('embeds a remembered memory into the embeddings table with the model id', async () => {
    const emb = fakeEmbedder(8);
    const r = await remember(store, { content: 'The API uses PostgreSQL.' }, deps());
    await worker([createEmbedHandler(emb)]).drain();
    const row = store.read((db) => db.get<{ model_id: string; dimensions: number; vector: Uint8Array; source_id: string }>('SELECT model_id, dimensions, vector, source_id FROM embeddings'));
    assert.deepEqual([row?.model_id, row?.dimensions, row?.vector.byteLength, row?.source_id], ['fake-embedder', 8, 8 + 4, r.id]); // int8: scale + 8 bytes
    assert.equal(store.read((db) => db.get<{ m: string }>('SELECT embedding_model AS m FROM memories')?.m), 'fake-embedder');
  });

  it('fails the embed job on a vector of the wrong width instead of storing it', async () => {
    const emb = { ...fakeEmbedder(8), dims: 16 };
    await remember(store, { content: 'x y z' }, deps());
    const stats = await worker([createEmbedHandler(emb)]).drain();
    assert.equal(stats.retried, 1);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM embeddings'))?.n, 0);
  });

  it('extracts with the heuristic extractor and builds the graph, marking the memory complete', async () => {
    const r = await remember(store, { content: 'The API uses PostgreSQL.' }, deps());
    const stats = await worker([createExtractHandler(createHeuristicExtractor(DEFAULT_EXTRACTION_CONFIG), cfgs)]).drain();
    assert.equal(stats.completed, 1);
    const m = store.read((db) => db.get<{ extraction_status: string; extraction_model: string }>('SELECT extraction_status, extraction_model FROM memories WHERE id = ?', [r.id]));
    assert.deepEqual(m, { extraction_status: 'complete', extraction_model: 'heuristic' });
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM relations'))?.n, 1);
    const actor = store.read((db) => db.get<{ actor: string }>("SELECT actor FROM graph_ops WHERE op = 'relation_create'"))?.actor;
    assert.equal(actor, 'extractor:heuristic');
  });

  it('an LLM answering garbage still yields the heuristic graph and never fails the job', async () => {
    const llm = { label: 'junk', complete: async () => '<think>…</think> sorry, no JSON today' };
    await remember(store, { content: 'The API uses PostgreSQL.' }, deps());
    const stats = await worker([createExtractHandler(createLlmExtractor(llm, DEFAULT_EXTRACTION_CONFIG, createRecordingLogger()), cfgs)]).drain();
    assert.deepEqual(stats, { completed: 1, retried: 0, dead: 0 });
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM relations'))?.n, 1);
  });

  it('skips memories deleted before their jobs ran', async () => {
    const emb = fakeEmbedder();
    const r = await remember(store, { content: 'gone soon' }, deps());
    await store.write('t', (db) => db.run("UPDATE memory_jobs SET status = 'pending'"));
    await softDeleteMemory(store, r.id, clock);
    await remember(store, { content: 'kept' }, deps());
    await worker([createEmbedHandler(emb), createExtractHandler(createHeuristicExtractor(DEFAULT_EXTRACTION_CONFIG), cfgs)]).drain();
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM embeddings'))?.n, 1);
  });

  it('marks extraction failed when the extract job dies', async () => {
    const broken: Extractor = { label: 'broken', extract: async () => { throw new Error('crash'); } };
    const r = await remember(store, { content: 'x y z' }, { ...deps(), jobs: resolveJobsConfig({ maxAttempts: 1 }) });
    const w = new JobWorker({ store, handlers: [createExtractHandler(broken, cfgs)], config: resolveJobsConfig({ maxAttempts: 1 }), clock, logger: createRecordingLogger() });
    assert.equal((await w.drain()).dead, 1);
    assert.equal(store.read((db) => db.get<{ s: string }>('SELECT extraction_status AS s FROM memories WHERE id = ?', [r.id]))?.s, 'failed');
  });

  it('re-running extraction on an extracted memory is a no-op', async () => {
    await remember(store, { content: 'The API uses PostgreSQL.' }, deps());
    const h = createExtractHandler(createHeuristicExtractor(DEFAULT_EXTRACTION_CONFIG), cfgs);
    await worker([h]).drain();
    const ops = store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM graph_ops'))?.n;
    await store.write('t', (db) => db.run("INSERT INTO memory_jobs (id, memory_id, job_type, status, attempts, max_attempts, created_at, updated_at) SELECT 'again', id, 'extract', 'pending', 0, 3, created_at, created_at FROM memories"));
    await worker([h]).drain();
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM graph_ops'))?.n, ops);
    assert.equal(store.read((db) => countJobs(db)).completed, 2);
  });
});

import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../../src/core/clock';
import { noProgress } from '../../../src/core/hostContext';
import { createRecordingLogger } from '../../../src/core/logger';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { forget, recallMemories, rememberText, setEntityPinned, storeIsEmpty } from '../../../src/extension/actions/memoryActions';
import { MemoryEngine } from '../../../src/core/engine/memoryEngine';

/** The engine on a temp store, without an embedding model (keyword recall), driven through the extension's actions. */
describe('memory engine (store, job worker, feedback loop)', () => {
  let dir: string;
  let rt: MemoryEngine;
  const logger = createRecordingLogger();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'am-runtime-'));
    const settings = readMemorySettings((k) => (k === 'models.embeddingModel' ? join(dir, 'no-such-model') : undefined));
    rt = await MemoryEngine.open({ paths: { storeDir: join(dir, 'store'), bundledModelsDir: join(dir, 'models'), cacheDir: join(dir, 'cache') }, logger, clock: systemClock, llm: undefined, progress: noProgress }, settings);
  });

  afterEach(async () => {
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a missing embedding model in the status and still recalls by keyword', async () => {
    assert.equal(storeIsEmpty(rt), true);
    const s = rt.status();
    assert.equal(s.model.state, 'missing');
    assert.equal(s.memories, 0);
    const r = await rememberText(rt, 'The shelf service stores reading lists in SQLite.');
    assert.equal(r.duplicate, false);
    const results = await recallMemories(rt, 'sqlite reading lists');
    assert.equal(results[0]?.id, r.id);
    assert.ok(results[0]?.explain, 'results carry the explain breakdown');
  });

  it('extracts entities in the background so they can be pinned, and forgets a memory', async () => {
    const r = await rememberText(rt, 'We decided to use Redis to cache each reading list page.');
    await rt.settle();
    assert.ok(rt.store.read((db) => db.get('SELECT id FROM entities WHERE canonical_name = ?', ['redis'])), 'settle() returns once extraction is done');
    assert.equal((await setEntityPinned(rt, 'redis', true)).changed, true);
    assert.equal((await setEntityPinned(rt, 'Redis', true)).changed, false, 'pinning is idempotent');
    await forget(rt, r.id);
    assert.equal(rt.status().memories, 0);
  });

  it('rejects empty text with a coded error and writes nothing', async () => {
    await assert.rejects(rememberText(rt, '   '), (e: unknown) => (e as { code?: string }).code === 'E_INVALID_INPUT');
    assert.equal(rt.status().memories, 0);
  });

  it('with the graph turned off, new memories get no extraction job and recall skips the graph stages', async () => {
    const off = readMemorySettings((k) => (k === 'models.embeddingModel' ? join(dir, 'no-such-model') : k === 'graph.enabled' ? false : undefined));
    await rt.reconfigure(off, undefined);
    const r = await rememberText(rt, 'We decided to use Kafka for events.');
    const jobs = rt.store.read((db) => db.all<{ job_type: string }>('SELECT job_type FROM memory_jobs WHERE memory_id = ?', [r.id]).map((j) => j.job_type));
    assert.deepEqual(jobs, []);
    const deps = rt.recallDeps();
    assert.equal(deps.config?.graphBoost.enabled, false);
    assert.equal(deps.config?.traversal.enabled, false);
  });

  it('rebuilds the pipeline on new settings without reopening the store', async () => {
    const store = rt.store;
    await rememberText(rt, 'We deploy with Docker.');
    const next = readMemorySettings((k) => (k === 'models.embeddingModel' ? join(dir, 'still-missing') : k === 'search.limit' ? 3 : undefined));
    await rt.reconfigure(next, undefined);
    assert.equal(rt.store, store);
    assert.equal(rt.currentSettings.search.limit, 3);
    assert.equal((await recallMemories(rt, 'docker')).length, 1);
  });
});

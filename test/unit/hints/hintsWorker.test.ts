import { strict as assert } from 'node:assert';
import type { ManualClock} from '../../../src/core/clock';
import { resolveHintsConfig } from '../../../src/core/config/hintsConfig';
import { silentLogger } from '../../../src/core/logger';
import { enqueueHintsJob } from '../../../src/core/hints/hintsJobs';
import { resolveJobsConfig } from '../../../src/core/config/jobsConfig';

const JOBS = resolveJobsConfig();
const HINTS_MAX_ATTEMPTS = JOBS.maxAttempts;
import { createHintsJobHandler, HintsWorker } from '../../../src/core/hints/hintsWorker';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import type { LlmClient } from '../../../src/core/hostContext';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { addMemory, openTestStore } from '../feedback/graphFixture';
import { seqId } from '../sessions/sessionFixture';

function worker(store: MemoryStore, clock: ManualClock, llm: LlmClient | undefined, enabled = true) {
  return new HintsWorker({ store, clock, llm, logger: silentLogger, config: resolveHintsConfig({ enabled, max: 3 }), jobs: JOBS, owner: 'test', newId: seqId });
}

async function withJob() {
  const { store, clock } = await openTestStore();
  const m = await store.write('t', (db) => { const id = addMemory(db, clock.now(), { content: 'The extension is bundled with esbuild' }); enqueueHintsJob(db, id, 'default', clock.now(), seqId, JOBS); return id; });
  return { store, clock, m };
}

describe('hints worker', () => {
  it('writes parsed hints into memory_hints and its FTS index, and completes the job', async () => {
    const { store, clock, m } = await withJob();
    const llm = { label: 'fake', complete: async () => 'What bundles the extension?\nWhich bundler is used for the build?\nWhy esbuild and not webpack?\nWhere is the bundle config kept?' };
    const w = worker(store, clock, llm);
    assert.equal(await w.runOnce(), 1);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_hints WHERE memory_id = ?', [m]))?.n, 3, 'capped at max');
    assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memory_hints_fts WHERE memory_hints_fts MATCH 'bundler'"))?.n, 1);
    assert.equal(store.read((db) => db.get<{ status: string }>('SELECT status FROM memory_jobs'))?.status, 'completed');
    assert.equal(w.status().hintsWritten, 3);
    await store.close();
  });

  it('loses the hints with their memory (cascade) and keeps FTS in step', async () => {
    const { store, clock, m } = await withJob();
    await worker(store, clock, { label: 'fake', complete: async () => 'Which bundler builds the extension?' }).runOnce();
    await store.write('forget', (db) => { db.run('DELETE FROM memory_jobs WHERE memory_id = ?', [m]); db.run('DELETE FROM memories WHERE id = ?', [m]); });
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_hints'))?.n, 0);
    assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memory_hints_fts WHERE memory_hints_fts MATCH 'bundler'"))?.n, 0);
    await store.close();
  });

  it('completes the job with zero hints on empty output', async () => {
    const { store, clock } = await withJob();
    await worker(store, clock, { label: 'fake', complete: async () => '' }).runOnce();
    assert.equal(store.read((db) => db.get<{ status: string }>('SELECT status FROM memory_jobs'))?.status, 'completed');
    await store.close();
  });

  it('requeues a failing job with backoff and kills it after max attempts', async () => {
    const { store, clock } = await withJob();
    const w = worker(store, clock, { label: 'fail', complete: async () => { throw new Error('provider down'); } });
    for (let i = 0; i < HINTS_MAX_ATTEMPTS; i++) {
      await w.runOnce();
      clock.advance(10 * 60_000);
    }
    const job = store.read((db) => db.get<{ status: string; attempts: number; error: string }>('SELECT status, attempts, error FROM memory_jobs'));
    assert.deepEqual([job?.status, job?.attempts], ['dead', HINTS_MAX_ATTEMPTS]);
    assert.match(job?.error ?? '', /provider down/);
    await store.close();
  });

  it('stays idle without an LLM and says why; respects the enabled flag', async () => {
    const { store, clock } = await withJob();
    const idle = worker(store, clock, undefined);
    assert.equal(idle.status().state, 'idle');
    assert.match(idle.status().reason, /No language model/);
    assert.equal(await idle.runOnce(), 0);
    const off = worker(store, clock, { label: 'x', complete: async () => 'What is this about?' }, false);
    assert.equal(off.status().state, 'disabled');
    assert.equal(await off.runOnce(), 0);
    assert.equal(store.read((db) => db.get<{ status: string }>('SELECT status FROM memory_jobs'))?.status, 'pending');
    await store.close();
  });

  it('does not enqueue a second open job for the same memory', async () => {
    const { store, clock, m } = await withJob();
    assert.equal(await store.write('t', (db) => enqueueHintsJob(db, m, 'default', clock.now(), seqId, JOBS)), false);
    await store.close();
  });
});

describe('hints job handler for the shared worker', () => {
  it('writes hints through JobWorker.drain', async () => {
    const { store, clock, m } = await withJob();
    const handler = createHintsJobHandler({ llm: { label: 'fake', complete: async () => 'Which tool bundles the extension?' }, config: resolveHintsConfig({ enabled: true }), newId: seqId });
    const w = new JobWorker({ store, handlers: [handler], config: JOBS, clock, logger: silentLogger });
    const stats = await w.drain();
    assert.equal(stats.completed, 1);
    assert.deepEqual(store.read((db) => db.all<{ hint: string }>('SELECT hint FROM memory_hints WHERE memory_id = ?', [m]).map((r) => r.hint)), ['Which tool bundles the extension?']);
    await store.close();
  });
});

import { strict as assert } from 'node:assert';
import type { ManualClock } from '../../../src/core/clock';
import { resolveHintsConfig } from '../../../src/core/config/hintsConfig';
import { resolveJobsConfig } from '../../../src/core/config/jobsConfig';
import { silentLogger } from '../../../src/core/logger';
import { HintsJobs } from '../../../src/core/hints/hintsJobHandler';
import { enqueueHintsJob } from '../../../src/core/hints/hintsJobs';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import type { LlmClient } from '../../../src/core/hostContext';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { addMemory, openTestStore } from '../feedback/graphFixture';
import { seqId } from '../sessions/sessionFixture';

const JOBS = resolveJobsConfig();

function hintsJobs(llm: LlmClient | undefined, enabled = true): HintsJobs {
  return new HintsJobs({ llm, config: resolveHintsConfig({ enabled, max: 3 }) });
}

/** Runs the hints jobs the way a host does: the handler registered on the shared JobWorker. */
function drain(store: MemoryStore, clock: ManualClock, hints: HintsJobs) {
  const handler = hints.jobHandler();
  return new JobWorker({ store, handlers: handler ? [handler] : [], config: JOBS, clock, logger: silentLogger }).drain();
}

async function withJob() {
  const { store, clock } = await openTestStore();
  const m = await store.write('t', (db) => { const id = addMemory(db, clock.now(), { content: 'The extension is bundled with esbuild' }); enqueueHintsJob(db, id, 'default', clock.now(), seqId, JOBS); return id; });
  return { store, clock, m };
}

const jobStatus = (store: MemoryStore) => store.read((db) => db.get<{ status: string }>('SELECT status FROM memory_jobs'))?.status;

describe('hints jobs on the shared job worker', () => {
  it('writes parsed hints into memory_hints and its FTS index, completes the job and counts it', async () => {
    const { store, clock, m } = await withJob();
    const hints = hintsJobs({ label: 'fake', complete: async () => 'What bundles the extension?\nWhich bundler is used for the build?\nWhy esbuild and not webpack?\nWhere is the bundle config kept?' });
    assert.equal((await drain(store, clock, hints)).completed, 1);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_hints WHERE memory_id = ?', [m]))?.n, 3, 'capped at max');
    assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memory_hints_fts WHERE memory_hints_fts MATCH 'bundler'"))?.n, 1);
    assert.equal(jobStatus(store), 'completed');
    assert.deepEqual([hints.status().state, hints.status().processed, hints.status().hintsWritten], ['running', 1, 3]);
    await store.close();
  });

  it('loses the hints with their memory (cascade) and keeps FTS in step', async () => {
    const { store, clock, m } = await withJob();
    await drain(store, clock, hintsJobs({ label: 'fake', complete: async () => 'Which bundler builds the extension?' }));
    await store.write('forget', (db) => { db.run('DELETE FROM memory_jobs WHERE memory_id = ?', [m]); db.run('DELETE FROM memories WHERE id = ?', [m]); });
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_hints'))?.n, 0);
    assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memory_hints_fts WHERE memory_hints_fts MATCH 'bundler'"))?.n, 0);
    await store.close();
  });

  it('completes the job with zero hints on empty output', async () => {
    const { store, clock } = await withJob();
    await drain(store, clock, hintsJobs({ label: 'fake', complete: async () => '' }));
    assert.equal(jobStatus(store), 'completed');
    await store.close();
  });

  it('requeues a failing job with backoff, kills it after the queue\'s max attempts and counts the failures', async () => {
    const { store, clock } = await withJob();
    const hints = hintsJobs({ label: 'fail', complete: async () => { throw new Error('provider down'); } });
    for (let i = 0; i < JOBS.maxAttempts; i++) {
      await drain(store, clock, hints);
      clock.advance(10 * 60_000);
    }
    const job = store.read((db) => db.get<{ status: string; attempts: number; error: string }>('SELECT status, attempts, error FROM memory_jobs'));
    assert.deepEqual([job?.status, job?.attempts], ['dead', JOBS.maxAttempts]);
    assert.match(job?.error ?? '', /provider down/);
    assert.equal(hints.status().failures, JOBS.maxAttempts);
    await store.close();
  });

  it('registers no handler without an LLM or when disabled, says why, and leaves the job pending', async () => {
    const { store, clock } = await withJob();
    const idle = hintsJobs(undefined);
    assert.equal(idle.jobHandler(), undefined);
    assert.equal(idle.status().state, 'idle');
    assert.match(idle.status().reason, /No language model/);
    const off = hintsJobs({ label: 'x', complete: async () => 'What is this about?' }, false);
    assert.equal(off.jobHandler(), undefined);
    assert.equal(off.status().state, 'disabled');
    await drain(store, clock, off);
    assert.equal(jobStatus(store), 'pending');
    await store.close();
  });

  it('does not enqueue a second open job for the same memory', async () => {
    const { store, clock, m } = await withJob();
    assert.equal(await store.write('t', (db) => enqueueHintsJob(db, m, 'default', clock.now(), seqId, JOBS)), false);
    await store.close();
  });
});

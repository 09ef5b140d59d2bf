import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG, resolveJobsConfig } from '../../../src/core/config/jobsConfig';
import { countJobs, enqueueJob, getJob } from '../../../src/core/jobs/jobQueue';
import type { JobRecord } from '../../../src/core/jobs/jobQueue';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import type { JobHandler } from '../../../src/core/jobs/jobWorker';
import { createRecordingLogger } from '../../../src/core/logger';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore, SqlWriter } from '../../../src/core/store/storeTypes';

describe('job worker', () => {
  let store: MemoryStore;
  let clock: ManualClock;
  let n = 0;
  beforeEach(async () => { clock = new ManualClock(); store = await openMemoryStore({ clock }); });
  const enqueue = (type: string, memoryId: string) => store.write('t', (db) => enqueueJob(db, { type, memoryId }, clock.now(), () => `j${++n}`, DEFAULT_JOBS_CONFIG));
  const worker = (handlers: JobHandler[], concurrency = 2, progress?: { report(u: { message?: string }): void }) =>
    new JobWorker({ store, handlers, config: resolveJobsConfig({ concurrency }), clock, logger: createRecordingLogger(), ...(progress ? { progress } : {}) });

  it('runs every ready job with bounded concurrency and records results', async () => {
    let active = 0;
    let peak = 0;
    const seen: string[] = [];
    const h: JobHandler = { type: 'embed', run: async (job: JobRecord) => {
      active++; peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 5));
      seen.push(job.memoryId ?? '');
      active--;
      return { done: job.memoryId };
    } };
    for (const m of ['a', 'b', 'c', 'd', 'e']) await enqueue('embed', m);
    const stats = await worker([h], 2).drain();
    assert.deepEqual(stats, { completed: 5, retried: 0, dead: 0 });
    assert.equal(peak, 2);
    assert.deepEqual(seen.sort(), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(store.read((db) => db.get<{ result: string }>("SELECT result FROM memory_jobs WHERE memory_id = 'c'"))?.result, '{"done":"c"}');
  });

  it('retries a throwing handler with backoff and calls onDead when attempts run out', async () => {
    const dead: string[] = [];
    const h: JobHandler = { type: 'extract', run: async () => { throw new Error('model offline'); }, onDead: (_db, job) => { dead.push(job.id); } };
    const { id } = await enqueue('extract', 'a');
    const w = worker([h]);
    assert.deepEqual(await w.drain(), { completed: 0, retried: 1, dead: 0 });
    assert.deepEqual(await w.drain(), { completed: 0, retried: 0, dead: 0 }, 'waiting out the backoff');
    clock.advance(5_000);
    assert.deepEqual(await w.drain(), { completed: 0, retried: 1, dead: 0 });
    clock.advance(10_000);
    assert.deepEqual(await w.drain(), { completed: 0, retried: 0, dead: 1 });
    assert.deepEqual(dead, [id]);
    assert.equal(store.read((db) => getJob(db, id))?.error, 'Unexpected error: model offline');
  });

  it('leaves job types it has no handler for alone', async () => {
    await enqueue('hints', 'a');
    assert.deepEqual(await worker([{ type: 'embed', run: async () => null }]).drain(), { completed: 0, retried: 0, dead: 0 });
    assert.equal(store.read((db) => countJobs(db)).pending, 1);
  });

  it('reports progress as jobs complete, at most every 250 ms, and the true count when a drain ends', async () => {
    const messages: string[] = [];
    for (const m of ['a', 'b']) await enqueue('embed', m);
    await worker([{ type: 'embed', run: async () => null }], 1, { report: (u) => { messages.push(u.message ?? ''); } }).drain();
    assert.deepEqual(messages, ['1 done, 1 left', '2 done, 0 left'], 'the first job at once, the second (within 250 ms) at the drain\'s end');
    const slow: string[] = [];
    for (const m of ['c', 'd', 'e']) await enqueue('embed', m);
    await worker([{ type: 'embed', run: () => new Promise((r) => setTimeout(() => r(null), 300)) }], 1, { report: (u) => { slow.push(u.message ?? ''); } }).drain();
    assert.deepEqual(slow, ['1 done, 2 left', '2 done, 1 left', '3 done, 0 left'], 'jobs 300 ms apart: every one reported, once');
    const many: string[] = [];
    for (let i = 0; i < 40; i++) await enqueue('embed', `m${i}`);
    await worker([{ type: 'embed', run: async () => null }], 1, { report: (u) => { many.push(u.message ?? ''); } }).drain();
    assert.ok(many.length < 10, `40 quick jobs are not counted 40 times: ${many.length}`);
    assert.equal(many.at(-1), '40 done, 0 left');
  });

  it('stops cleanly: running handlers see the abort signal, no new jobs are leased, the job is retried later', async () => {
    let started!: () => void;
    const startedP = new Promise<void>((r) => { started = r; });
    const h: JobHandler = { type: 'embed', run: (_job, ctx) => new Promise((_resolve, reject) => {
      started();
      ctx.signal.addEventListener('abort', () => reject(new Error('shutting down')), { once: true });
    }) };
    for (const m of ['a', 'b', 'c']) await enqueue('embed', m);
    const w = worker([h], 1);
    w.start();
    await startedP;
    await w.stop();
    const c = store.read((db) => countJobs(db));
    assert.deepEqual(c, { pending: 3, leased: 0, completed: 0, dead: 0 });
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT SUM(attempts) AS n FROM memory_jobs'))?.n, 1, 'only one job was started');
  });

  it('stop() returns after the grace period when a handler ignores the signal', async () => {
    let started!: () => void;
    const startedP = new Promise<void>((r) => { started = r; });
    await enqueue('embed', 'stuck');
    const w = new JobWorker({ store, clock, logger: createRecordingLogger(), config: resolveJobsConfig({}), shutdownGraceMs: 30,
      handlers: [{ type: 'embed', run: () => { started(); return new Promise(() => undefined); } }] });
    w.start();
    await startedP;
    await w.stop();
    assert.equal(store.read((db) => countJobs(db)).leased, 1, 'the lease stays until it expires');
  });

  it('polls for new work after start() and picks it up when poked', async () => {
    const done: string[] = [];
    const w = worker([{ type: 'embed', run: async (job) => { done.push(job.memoryId ?? ''); return null; } }]);
    w.start();
    await enqueue('embed', 'late');
    w.poke();
    for (let i = 0; i < 100 && done.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await w.stop();
    assert.deepEqual(done, ['late']);
  });

  it('writes nothing while idle: polls with no due job only read the store', async () => {
    const labels: string[] = [];
    store.onDidChange((c) => { labels.push(...c.labels); });
    const w = worker([{ type: 'embed', run: async () => null }]);
    await enqueue('embed', 'later');
    await store.write('t', (db) => db.run("UPDATE memory_jobs SET next_attempt_at = '2999-01-01T00:00:00.000Z'"));
    const settled = () => new Promise((r) => setImmediate(r));
    await settled();
    labels.length = 0;
    assert.deepEqual(await w.drain(), { completed: 0, retried: 0, dead: 0 });
    await settled();
    assert.deepEqual(labels, [], 'no lease transaction while nothing is due');
  });

  describe('batch handlers', () => {
    const metaValue = (key: string) => store.read((db) => db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [key]))?.value;
    const batchHandler = (calls: string[][], prepare?: (jobs: readonly JobRecord[]) => Promise<void>, fail?: string): JobHandler => ({
      type: 'embed',
      run: async () => { throw new Error('run() is not used when runBatch exists'); },
      runBatch: async (jobs) => {
        calls.push(jobs.map((j) => j.memoryId ?? ''));
        await prepare?.(jobs);
        return jobs.map((j) => j.memoryId === fail ? { error: new Error(`cannot embed ${j.memoryId}`) } : {
          apply: (db: SqlWriter) => { db.run('INSERT INTO meta (key, value) VALUES (?, ?)', [`vec:${j.memoryId}`, 'x']); return { wrote: j.memoryId }; },
        });
      },
    });

    it('leases ready jobs in one write, runs them in one call and commits each result with its completion', async () => {
      for (const m of ['a', 'b', 'c', 'd', 'e']) await enqueue('embed', m);
      const calls: string[][] = [];
      const stats = await new JobWorker({ store, handlers: [batchHandler(calls)], config: resolveJobsConfig({ batchSize: 3 }), clock, logger: createRecordingLogger() }).drain();
      assert.deepEqual(stats, { completed: 5, retried: 0, dead: 0 });
      assert.deepEqual(calls, [['a', 'b', 'c'], ['d', 'e']], 'batches of batchSize, oldest first');
      for (const m of ['a', 'b', 'c', 'd', 'e']) assert.equal(metaValue(`vec:${m}`), 'x');
      assert.equal(store.read((db) => db.get<{ result: string }>("SELECT result FROM memory_jobs WHERE memory_id = 'd'"))?.result, '{"wrote":"d"}');
    });

    it('fails only the job whose outcome is an error; the rest of the batch completes', async () => {
      for (const m of ['a', 'b', 'c']) await enqueue('embed', m);
      const stats = await worker([batchHandler([], undefined, 'b')]).drain();
      assert.deepEqual(stats, { completed: 2, retried: 1, dead: 0 });
      assert.equal(metaValue('vec:b'), undefined);
      assert.equal(store.read((db) => db.get<{ status: string; error: string }>("SELECT status, error FROM memory_jobs WHERE memory_id = 'b'"))?.status, 'pending');
    });

    it('rolls back the write of a job whose lease was lost while it ran, so nothing is written twice', async () => {
      for (const m of ['a', 'b']) await enqueue('embed', m);
      const steal = async () => { await store.write('steal', (db) => db.run("UPDATE memory_jobs SET lease_owner = 'other-worker' WHERE memory_id = 'a'")); };
      const stats = await worker([batchHandler([], steal)]).drain();
      assert.deepEqual(stats, { completed: 1, retried: 0, dead: 0 });
      assert.equal(metaValue('vec:a'), undefined, 'the lost job wrote nothing');
      assert.equal(metaValue('vec:b'), 'x');
      assert.equal(store.read((db) => db.get<{ status: string }>("SELECT status FROM memory_jobs WHERE memory_id = 'a'"))?.status, 'leased', 'still the other worker\'s');
    });
  });
});

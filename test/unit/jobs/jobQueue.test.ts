import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { backoffMs, completeJob, countJobs, enqueueJob, failJob, getJob, leaseJobs } from '../../../src/core/jobs/jobQueue';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { openStore } from '../../../src/core/store/openStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

const cfg = DEFAULT_JOBS_CONFIG;

describe('job queue (memory_jobs)', () => {
  let store: MemoryStore;
  let clock: ManualClock;
  let n = 0;
  const newId = () => `job-${++n}`;
  beforeEach(async () => { clock = new ManualClock(); store = await openMemoryStore({ clock }); });
  const enqueue = (type: string, memoryId: string | null = 'm1') => store.write('t', (db) => enqueueJob(db, { type, memoryId }, clock.now(), newId, cfg));
  const lease = (owner: string, limit = 10) => store.write('t', (db) => leaseJobs(db, { owner, types: ['embed', 'extract'], limit, nowMs: clock.now(), leaseMs: cfg.leaseMs }));

  it('backs off 5 s doubling to a 120 s ceiling', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 10].map((a) => backoffMs(a, cfg) / 1000), [5, 10, 20, 40, 80, 120, 120, 120]);
  });

  it('does not enqueue a duplicate pending or leased job for the same memory and type', async () => {
    const a = await enqueue('embed');
    assert.deepEqual(await enqueue('embed'), { id: a.id, duplicate: true });
    assert.equal((await enqueue('extract')).duplicate, false);
    await lease('w1');
    assert.equal((await enqueue('embed')).duplicate, true, 'a leased job also blocks a duplicate');
    await store.write('t', (db) => completeJob(db, a.id, 'w1', null, clock.now()));
    assert.equal((await enqueue('embed')).duplicate, false, 'a completed job does not');
  });

  it('leases oldest first, increments attempts and respects the limit and types', async () => {
    await enqueue('embed', 'a'); clock.advance(1); await enqueue('embed', 'b'); clock.advance(1); await enqueue('hints', 'c');
    const jobs = await lease('w1', 1);
    assert.deepEqual(jobs.map((j) => [j.memoryId, j.attempts, j.status, j.leaseOwner]), [['a', 1, 'leased', 'w1']]);
    assert.deepEqual((await lease('w1')).map((j) => j.memoryId), ['b'], 'hints is not a leased type');
  });

  it('retries a failed job after the backoff and marks it dead after max attempts', async () => {
    const { id } = await enqueue('extract');
    for (let attempt = 1; attempt <= cfg.maxAttempts; attempt++) {
      const [job] = await lease('w1');
      assert.equal(job?.attempts, attempt);
      const status = await store.write('t', (db) => failJob(db, id, 'w1', `boom ${attempt}`, clock.now(), cfg));
      if (attempt < cfg.maxAttempts) {
        assert.equal(status, 'pending');
        assert.equal((await lease('w1')).length, 0, 'not ready during backoff');
        clock.advance(backoffMs(attempt, cfg) - 1);
        assert.equal((await lease('w1')).length, 0);
        clock.advance(1);
      } else {
        assert.equal(status, 'dead');
      }
    }
    assert.equal(store.read((db) => getJob(db, id))?.status, 'dead');
    assert.equal(store.read((db) => getJob(db, id))?.error, 'boom 3');
  });

  it('re-claims a job whose lease expired (worker crashed mid-job)', async () => {
    const { id } = await enqueue('embed');
    await lease('crashed');
    assert.equal((await lease('w2')).length, 0, 'still leased');
    clock.advance(cfg.leaseMs + 1);
    const [job] = await lease('w2');
    assert.equal(job?.id, id);
    assert.equal(job?.attempts, 2);
    assert.equal(await store.write('t', (db) => completeJob(db, id, 'crashed', null, clock.now())), false, 'the crashed owner lost its lease');
    assert.equal(await store.write('t', (db) => completeJob(db, id, 'w2', { ok: true }, clock.now())), true);
  });

  it('marks an expired lease dead when it was the last allowed attempt', async () => {
    const { id } = await store.write('t', (db) => enqueueJob(db, { type: 'embed', memoryId: 'm', maxAttempts: 1 }, clock.now(), newId, cfg));
    await lease('crashed');
    clock.advance(cfg.leaseMs + 1);
    assert.equal((await lease('w2')).length, 0);
    assert.equal(store.read((db) => getJob(db, id))?.status, 'dead');
  });

  it('counts jobs by status', async () => {
    await enqueue('embed', 'a'); await enqueue('embed', 'b');
    await lease('w1', 1);
    assert.deepEqual(store.read((db) => countJobs(db)), { pending: 1, leased: 1, completed: 0, dead: 0 });
  });

  it('survives a restart of the durable store: pending and leased jobs are still there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'am-jobs-'));
    try {
      const s1 = await openStore({ dir, clock });
      await s1.write('t', (db) => enqueueJob(db, { type: 'embed', memoryId: 'a' }, clock.now(), newId, cfg));
      await s1.write('t', (db) => enqueueJob(db, { type: 'extract', memoryId: 'a' }, clock.now(), newId, cfg));
      await s1.write('t', (db) => leaseJobs(db, { owner: 'gone', types: ['embed'], limit: 1, nowMs: clock.now(), leaseMs: cfg.leaseMs }));
      await s1.close();
      const s2 = await openStore({ dir, clock });
      assert.deepEqual(s2.read((db) => countJobs(db)), { pending: 1, leased: 1, completed: 0, dead: 0 });
      clock.advance(cfg.leaseMs + 1);
      const jobs = await s2.write('t', (db) => leaseJobs(db, { owner: 'new', types: ['embed', 'extract'], limit: 5, nowMs: clock.now(), leaseMs: cfg.leaseMs }));
      assert.deepEqual(jobs.map((j) => j.type).sort(), ['embed', 'extract']);
      await s2.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

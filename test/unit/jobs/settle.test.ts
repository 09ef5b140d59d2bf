import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { isMemoryError } from '../../../src/core/errors';
import { enqueueJob } from '../../../src/core/jobs/jobQueue';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import { drainUntilSettled } from '../../../src/core/jobs/settle';
import { silentLogger } from '../../../src/core/logger';
import { openMemoryStore } from '../../../src/core/store/memoryStore';

describe('drainUntilSettled', () => {
  it('waits out retry backoff until every job of its types is done', async () => {
    const clock = new ManualClock();
    const store = await openMemoryStore({ clock });
    await store.write('t', (db) => enqueueJob(db, { type: 'embed', memoryId: 'a' }, clock.now(), () => 'j1', DEFAULT_JOBS_CONFIG));
    let calls = 0;
    const worker = new JobWorker({ store, clock, logger: silentLogger, config: DEFAULT_JOBS_CONFIG,
      handlers: [{ type: 'embed', run: async () => { calls++; if (calls < 3) throw new Error('flaky'); return null; } }] });
    const slept: number[] = [];
    const stats = await drainUntilSettled(worker, store, clock, { maxWaitMs: 600_000, sleep: async (ms) => { slept.push(ms); clock.advance(ms); } });
    assert.deepEqual(stats, { completed: 1, retried: 2, dead: 0 });
    assert.deepEqual(slept, [5_000, 10_000]);
  });

  it('gives up with E_TIMEOUT when jobs stay held by someone else', async () => {
    const clock = new ManualClock();
    const store = await openMemoryStore({ clock });
    await store.write('t', (db) => {
      enqueueJob(db, { type: 'embed', memoryId: 'a' }, clock.now(), () => 'j1', DEFAULT_JOBS_CONFIG);
      db.run("UPDATE memory_jobs SET status = 'leased', lease_owner = 'other', lease_expires_at = '2099-01-01T00:00:00.000Z', attempts = 1");
    });
    const worker = new JobWorker({ store, clock, logger: silentLogger, config: DEFAULT_JOBS_CONFIG, handlers: [{ type: 'embed', run: async () => null }] });
    await assert.rejects(drainUntilSettled(worker, store, clock, { maxWaitMs: 1_000, sleep: async (ms) => { clock.advance(ms); } }), (e: unknown) => isMemoryError(e, 'E_TIMEOUT'));
  });
});

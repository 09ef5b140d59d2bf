import { strict as assert } from 'node:assert';
import { hostname } from 'node:os';
import { systemClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { countJobs, getJob } from '../../../src/core/jobs/jobQueue';
import { isDeadLocalOwner, localLeaseOwner, parseLeaseOwner } from '../../../src/core/jobs/leaseOwner';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import { drainUntilSettled } from '../../../src/core/jobs/settle';
import type { SettleWait } from '../../../src/core/jobs/settle';
import { silentLogger } from '../../../src/core/logger';
import { openStore } from '../../../src/core/store/openStore';
import { describeSettleWait } from '../../../src/cli/cliSettle';
import { spawnChild, waitFor } from '../helpers/childProcess';
import { makeTempDir } from '../helpers/tempDir';

describe('job leases of dead processes', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(() => temp.cleanup());

  it('records host and pid in the owner and judges only dead local pids dead', () => {
    const mine = localLeaseOwner('cli');
    assert.deepEqual(parseLeaseOwner(mine), { host: hostname(), pid: process.pid });
    assert.equal(isDeadLocalOwner(mine), false, 'this process is alive');
    assert.equal(isDeadLocalOwner(`x-1@${hostname()}/${process.ppid}`), false, 'the parent is alive');
    assert.equal(isDeadLocalOwner('worker-without-host'), false, 'old-format owners wait for expiry');
    assert.equal(isDeadLocalOwner('x-1@another-host.example/1'), false, 'another host cannot be checked');
  });

  it('reclaims at once the leases of a worker killed with SIGKILL, instead of waiting out the 300 s lease', async () => {
    const run = spawnChild('test/unit/helpers/leaseChild.ts', ['lease', temp.dir]);
    try {
      await waitFor(run.lines, (l) => l.some((x) => x.startsWith('leased ')), 30_000);
    } finally {
      run.child.kill('SIGKILL');
      await run.exited;
    }
    assert.ok(!run.stderr().includes('child failed'), run.stderr());
    const owner = (run.lines.find((x) => x.startsWith('leased ')) as string).slice('leased '.length);
    assert.equal(parseLeaseOwner(owner)?.pid, run.child.pid);
    const store = await openStore({ dir: temp.dir, config: { snapshotOnClose: 'never' } });
    try {
      assert.equal(store.read((db) => countJobs(db, ['embed'])).leased, 2, 'the killed child left two leased jobs');
      const ran: string[] = [];
      const worker = new JobWorker({ store, clock: systemClock, logger: silentLogger, config: DEFAULT_JOBS_CONFIG,
        handlers: [{ type: 'embed', run: async (job) => { ran.push(job.id); return null; } }] });
      const waits: SettleWait[] = [];
      const started = Date.now();
      // A one-minute cap: without reclaiming, the leases would hold the jobs for 300 s and this rejects.
      const stats = await drainUntilSettled(worker, store, systemClock, { maxWaitMs: 60_000, onWait: (w) => waits.push(w) });
      assert.equal(stats.completed, 2);
      assert.equal(ran.length, 2);
      assert.ok(Date.now() - started < 60_000);
      const job = store.read((db) => getJob(db, ran[0] as string));
      assert.equal(job?.status, 'completed');
      assert.equal(job?.attempts, 2, 'the killed attempt counts as one');
      assert.equal(waits.length, 0, 'nothing to wait for once the dead leases are reclaimed');
    } finally {
      await store.close();
    }
  });

  it('says whose leases a settling CLI command is waiting for', () => {
    const line = describeSettleWait({ unfinished: 3, heldBy: [{ owner: `window-abc@${hostname()}/4242`, jobs: 2, until: '2026-03-01T12:05:00.000Z' }], sleepMs: 250 });
    assert.match(line, /waiting for 3 background job\(s\) \(2 leased by process 4242 on .+ until 2026-03-01T12:05:00\.000Z\)/);
    assert.match(describeSettleWait({ unfinished: 1, heldBy: [], sleepMs: 5000 }), /retrying after a failure/);
  });
});

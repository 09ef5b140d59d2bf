/**
 * A child process for the dead-lease test (run bundled by helpers/childProcess.ts):
 *   lease DIR   enqueue two embed jobs, lease both with this process's owner (host + pid), print
 *               "leased <owner>" and hang until killed
 */
import { writeSync } from 'node:fs';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { enqueueJob, leaseJobs } from '../../../src/core/jobs/jobQueue';
import { localLeaseOwner } from '../../../src/core/jobs/leaseOwner';
import { openStore } from '../../../src/core/store/openStore';

const [, dir] = process.argv.slice(2) as [string, string];

async function main(): Promise<void> {
  const store = await openStore({ dir, config: { snapshotOnClose: 'never' } });
  const owner = localLeaseOwner('child');
  let n = 0;
  await store.write('jobs.lease', (db) => {
    for (const m of ['m1', 'm2']) enqueueJob(db, { type: 'embed', memoryId: m }, Date.now(), () => `job-${m}-${n++}`, DEFAULT_JOBS_CONFIG);
    return leaseJobs(db, { owner, types: ['embed'], limit: 10, nowMs: Date.now(), leaseMs: DEFAULT_JOBS_CONFIG.leaseMs });
  });
  writeSync(1, `leased ${owner}\n`);
  setInterval(() => undefined, 60_000);
}

main().catch((e: unknown) => {
  writeSync(2, `child failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(3);
});

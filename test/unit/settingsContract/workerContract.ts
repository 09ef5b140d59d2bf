/**
 * The job worker's setting, through the real JobWorker on the configuration the setting gives:
 * jobs queued by remember run at most `jobs.concurrency` at a time.
 */
import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { JobWorker } from '../../../src/core/jobs/jobWorker';
import type { JobHandler } from '../../../src/core/jobs/jobWorker';
import { silentLogger } from '../../../src/core/logger';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { settingContract } from './contractRegistry';

async function mostAtOnce(values: Record<string, unknown>): Promise<number> {
  const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
  const store = await openMemoryStore({ clock });
  try {
    const settings = readMemorySettings((k) => values[k]);
    const deps = defaultRememberDeps(clock, { jobs: settings.jobs, enqueue: { embed: true, extract: false, hints: false } });
    for (let i = 0; i < 8; i++) await remember(store, { content: `Note number ${i} about the release train.` }, deps);
    let running = 0, most = 0;
    const slow: JobHandler = {
      type: 'embed',
      run: async () => {
        running++; most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
      },
    };
    await new JobWorker({ store, handlers: [slow], config: settings.jobs, clock, logger: silentLogger }).drain();
    return most;
  } finally {
    await store.close();
  }
}

describe('settings contract: job worker', () => {
  settingContract('jobs.concurrency', 'bounds how many background jobs run at once', async () => {
    assert.equal(await mostAtOnce({ 'jobs.concurrency': 1 }), 1);
    assert.equal(await mostAtOnce({ 'jobs.concurrency': 4 }), 4);
  });
});

import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import { MemoryError } from '../errors';
import type { MemoryStore } from '../store/storeTypes';
import type { DrainStats, JobWorker } from './jobWorker';

/** How often a settling wait re-checks jobs leased by another process. */
export const SETTLE_RECHECK_MS = 250;

/**
 * Runs the worker until none of its job types is pending or leased (waiting out retry backoff and
 * jobs other processes hold), or until `maxWaitMs` passes (then E_TIMEOUT). Used by the CLI to
 * make "ingest waits until everything is embedded" real; `sleep` is injectable for tests.
 */
export async function drainUntilSettled(worker: JobWorker, store: MemoryStore, clock: Clock, opts: { maxWaitMs: number; sleep?: (ms: number) => Promise<void> }): Promise<DrainStats> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const total: DrainStats = { completed: 0, retried: 0, dead: 0 };
  const deadline = clock.now() + opts.maxWaitMs;
  const types = worker.types;
  if (!types.length) return total;
  const marks = types.map(() => '?').join(', ');
  for (;;) {
    const s = await worker.drain();
    total.completed += s.completed; total.retried += s.retried; total.dead += s.dead;
    const next = store.read((db) => db.get<{ n: number; next: string | null }>(
      `SELECT COUNT(*) AS n, MIN(next_attempt_at) AS next FROM memory_jobs WHERE status IN ('pending', 'leased') AND job_type IN (${marks})`, types));
    if (!next || next.n === 0) return total;
    const now = clock.now();
    if (now >= deadline) throw new MemoryError('E_TIMEOUT', `${next.n} background job(s) still unfinished after ${Math.round(opts.maxWaitMs / 1000)} s.`);
    const wait = next.next && next.next > isoFromMs(now) ? Date.parse(next.next) - now : SETTLE_RECHECK_MS;
    await sleep(Math.max(1, Math.min(wait, deadline - now)));
  }
}

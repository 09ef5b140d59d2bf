import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import { MemoryError } from '../errors';
import type { MemoryStore } from '../store/storeTypes';
import type { DrainStats, JobWorker } from './jobWorker';

/** How often a settling wait re-checks jobs leased by another process. */
export const SETTLE_RECHECK_MS = 250;

/** What a settling wait is waiting for (reported before each sleep). */
export interface SettleWait {
  /** Unfinished jobs of the worker's types (pending + leased). */
  readonly unfinished: number;
  /** Of those, leased by other processes: how many per owner, with the latest expiry of its leases. */
  readonly heldBy: readonly { readonly owner: string; readonly jobs: number; readonly until: string | null }[];
  /** How long this wait sleeps before looking again. */
  readonly sleepMs: number;
}

/**
 * Runs the worker until none of its job types is pending or leased (waiting out retry backoff and
 * jobs other processes hold), or until `maxWaitMs` passes (then E_TIMEOUT). Used by the CLI to
 * make "ingest waits until everything is embedded" real; `sleep` is injectable for tests.
 */
export async function drainUntilSettled(worker: JobWorker, store: MemoryStore, clock: Clock, opts: { maxWaitMs: number; sleep?: (ms: number) => Promise<void>; onWait?: (wait: SettleWait) => void }): Promise<DrainStats> {
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
    const sleepMs = Math.max(1, Math.min(wait, deadline - now));
    if (opts.onWait) {
      const heldBy = store.read((db) => db.all<{ owner: string; jobs: number; until: string | null }>(
        `SELECT lease_owner AS owner, COUNT(*) AS jobs, MAX(lease_expires_at) AS until FROM memory_jobs
          WHERE status = 'leased' AND lease_owner IS NOT NULL AND job_type IN (${marks}) GROUP BY lease_owner ORDER BY lease_owner`, types));
      opts.onWait({ unfinished: next.n, heldBy, sleepMs });
    }
    await sleep(sleepMs);
  }
}

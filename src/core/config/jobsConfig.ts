/**
 * Background job queue and worker settings.
 */
export interface JobsConfig {
  /** First retry delay; doubles per attempt (default 5 s). */
  readonly backoffBaseMs: number;
  /** Retry delay ceiling (default 120 s). */
  readonly backoffMaxMs: number;
  /** Attempts before a job is dead (default 3). */
  readonly maxAttempts: number;
  /** A lease older than this is reclaimed by another worker (default 300 s). */
  readonly leaseMs: number;
  /** Idle poll interval (default 2000). */
  readonly pollMs: number;
  /** Jobs run at once per worker (bounded: the machine has few cores and one embedder). */
  readonly concurrency: number;
  /**
   * Jobs of a type with a batch handler (embed, extract) leased, run and recorded together: one
   * lease write, one embedder call, one commit of all results and completions (default 32).
   */
  readonly batchSize: number;
}

/**
 * How long stop() waits for handlers that ignore the abort signal before returning anyway; their
 * leases then expire and another worker reclaims the jobs.
 */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export const DEFAULT_JOBS_CONFIG: JobsConfig = {
  backoffBaseMs: 5_000,
  backoffMaxMs: 120_000,
  maxAttempts: 3,
  leaseMs: 300_000,
  pollMs: 2_000,
  concurrency: 2,
  batchSize: 32,
};

const clamp = (v: number | undefined, lo: number, hi: number, dflt: number): number =>
  v === undefined || !Number.isFinite(v) ? dflt : Math.round(Math.min(hi, Math.max(lo, v)));

export function resolveJobsConfig(p: Partial<JobsConfig> = {}): JobsConfig {
  const d = DEFAULT_JOBS_CONFIG;
  const backoffBaseMs = clamp(p.backoffBaseMs, 100, 60_000, d.backoffBaseMs);
  return {
    backoffBaseMs,
    backoffMaxMs: clamp(p.backoffMaxMs, backoffBaseMs, 3_600_000, Math.max(backoffBaseMs, d.backoffMaxMs)),
    maxAttempts: clamp(p.maxAttempts, 1, 20, d.maxAttempts),
    leaseMs: clamp(p.leaseMs, 1_000, 3_600_000, d.leaseMs),
    pollMs: clamp(p.pollMs, 50, 60_000, d.pollMs),
    concurrency: clamp(p.concurrency, 1, 8, d.concurrency),
    batchSize: clamp(p.batchSize, 1, 256, d.batchSize),
  };
}

/** Prospective hints (seed 000 "Prospective Indexing"; signet-spec §2.14; issue 7, item 3). */
export interface HintsConfig {
  /** Master switch (seed 000: default false). */
  readonly enabled: boolean;
  /** Hints generated per memory (seed 000: 5, range 1–20). */
  readonly max: number;
  /** LLM generation timeout in ms (issue 7: 45 s, range 5–300 s). */
  readonly timeoutMs: number;
  /** Worker polling interval in ms (seed 000: 5 s, range 1–60 s). */
  readonly pollMs: number;
  /** Jobs leased per poll. */
  readonly batchSize: number;
}

export const DEFAULT_HINTS_CONFIG: HintsConfig = {
  enabled: false,
  max: 5,
  timeoutMs: 45_000,
  pollMs: 5_000,
  batchSize: 4,
};

export const HINTS_LIMITS = {
  max: [1, 20],
  timeoutMs: [5_000, 300_000],
  pollMs: [1_000, 60_000],
  batchSize: [1, 50],
} as const;

function num(v: unknown, def: number, range: readonly [number, number]): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.round(Math.min(range[1], Math.max(range[0], v))) : def;
}

export function resolveHintsConfig(partial: Partial<HintsConfig> = {}): HintsConfig {
  const d = DEFAULT_HINTS_CONFIG;
  return {
    enabled: typeof partial.enabled === 'boolean' ? partial.enabled : d.enabled,
    max: num(partial.max, d.max, HINTS_LIMITS.max),
    timeoutMs: num(partial.timeoutMs, d.timeoutMs, HINTS_LIMITS.timeoutMs),
    pollMs: num(partial.pollMs, d.pollMs, HINTS_LIMITS.pollMs),
    batchSize: num(partial.batchSize, d.batchSize, HINTS_LIMITS.batchSize),
  };
}

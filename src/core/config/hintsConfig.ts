/** Prospective hint generation (the hints jobs, hints/hintsJobHandler.ts); recall's hint channel is `HintChannelConfig` in searchConfig.ts. */
export interface HintsConfig {
  /** Master switch (default false). */
  readonly enabled: boolean;
  /** Hints generated per memory (default 5, range 1–20). */
  readonly max: number;
  /** LLM generation timeout in ms (default 45 s, range 5–300 s). */
  readonly timeoutMs: number;
}

export const DEFAULT_HINTS_CONFIG: HintsConfig = {
  enabled: false,
  max: 5,
  timeoutMs: 45_000,
};

export const HINTS_LIMITS = {
  max: [1, 20],
  timeoutMs: [5_000, 300_000],
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
  };
}

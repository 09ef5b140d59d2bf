/** Session capture settings. */
export interface SessionConfig {
  /** A session with no turn for this long is ended by the next activity or tick (ms). */
  readonly idleTimeoutMs: number;
  /** Token budget of the memories injected at session start (default 12 000). */
  readonly maxInjectTokens: number;
  /** Candidates considered at session start (default 100). */
  readonly candidatePoolLimit: number;
  /** Minimum effective score of a non-pinned candidate (default 0.2). */
  readonly minEffectiveScore: number;
  /** Daily decay base of the effective score importance × base^ageDays (default 0.95). */
  readonly recencyBase: number;
  /** Injected memories shown to the continuity scorer (default 50). */
  readonly continuityMaxMemories: number;
  /** Transcript tail given to the continuity scorer, in characters (default 4000). */
  readonly continuityTranscriptChars: number;
  /** LLM timeout for summary and continuity calls (ms). */
  readonly llmTimeoutMs: number;
  /** Transcripts shorter than this are not summarised/extracted (default 500). */
  readonly minTranscriptChars: number;
  /** Transcript kept per session, in characters (default 100 000). */
  readonly maxTranscriptChars: number;
}

export const DEFAULT_SESSION_CONFIG: SessionConfig = {
  idleTimeoutMs: 30 * 60_000,
  maxInjectTokens: 12_000,
  candidatePoolLimit: 100,
  minEffectiveScore: 0.2,
  recencyBase: 0.95,
  continuityMaxMemories: 50,
  continuityTranscriptChars: 4_000,
  llmTimeoutMs: 45_000,
  minTranscriptChars: 500,
  maxTranscriptChars: 100_000,
};

function num(v: unknown, def: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : def;
}

export function resolveSessionConfig(partial: Partial<SessionConfig> = {}): SessionConfig {
  const d = DEFAULT_SESSION_CONFIG;
  return {
    idleTimeoutMs: num(partial.idleTimeoutMs, d.idleTimeoutMs, 60_000, 24 * 3_600_000),
    maxInjectTokens: Math.round(num(partial.maxInjectTokens, d.maxInjectTokens, 0, 200_000)),
    candidatePoolLimit: Math.round(num(partial.candidatePoolLimit, d.candidatePoolLimit, 1, 1_000)),
    minEffectiveScore: num(partial.minEffectiveScore, d.minEffectiveScore, 0, 1),
    recencyBase: num(partial.recencyBase, d.recencyBase, 0.5, 1),
    continuityMaxMemories: Math.round(num(partial.continuityMaxMemories, d.continuityMaxMemories, 1, 200)),
    continuityTranscriptChars: Math.round(num(partial.continuityTranscriptChars, d.continuityTranscriptChars, 500, 50_000)),
    llmTimeoutMs: num(partial.llmTimeoutMs, d.llmTimeoutMs, 5_000, 300_000),
    minTranscriptChars: Math.round(num(partial.minTranscriptChars, d.minTranscriptChars, 0, 100_000)),
    maxTranscriptChars: Math.round(num(partial.maxTranscriptChars, d.maxTranscriptChars, 1_000, 1_000_000)),
  };
}

/**
 * Capture from other agents: transcript import and the watched import folder.
 * The limits keep one import bounded whatever the file holds; none of them changes what a
 * transcript means, only how much of it is kept.
 */
export interface CaptureConfig {
  /** Longest turn text kept (characters); longer turns are cut (tool output can be huge). */
  readonly maxTurnChars: number;
  /** A statement shorter than this is not remembered on its own (too little to be a decision). */
  readonly minStatementChars: number;
  /** Most statement memories one transcript contributes (the session summary is extra). */
  readonly maxMemoriesPerTranscript: number;
  /** Length of the excerpts in the session summary memory (first request, last answer). */
  readonly summaryExcerptChars: number;
  /** Importance of the session summary memory (below decisions: it is context, not a fact). */
  readonly summaryImportance: number;
  /** Largest transcript file imported (bytes); bigger files get E_INVALID_INPUT, nothing lost. */
  readonly maxFileBytes: number;
  /** Quiet time after the last change of a watched file before it is imported (ms). */
  readonly watchDebounceMs: number;
  /** Watched folder; empty = off (the default: capture is opt-in). */
  readonly importFolder: string;
  /** Follow this workspace's VS Code chat-session logs (off by default: opt-in, docs/agents.md). */
  readonly chatHistory: boolean;
}

export const DEFAULT_CAPTURE_CONFIG: CaptureConfig = {
  maxTurnChars: 8_000,
  minStatementChars: 12,
  maxMemoriesPerTranscript: 50,
  summaryExcerptChars: 200,
  summaryImportance: 0.4,
  maxFileBytes: 50 * 1024 * 1024,
  watchDebounceMs: 1_500,
  importFolder: '',
  chatHistory: false,
};

function num(v: unknown, def: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : def;
}

export function resolveCaptureConfig(partial: Partial<CaptureConfig> = {}): CaptureConfig {
  const d = DEFAULT_CAPTURE_CONFIG;
  return {
    maxTurnChars: Math.round(num(partial.maxTurnChars, d.maxTurnChars, 200, 200_000)),
    minStatementChars: Math.round(num(partial.minStatementChars, d.minStatementChars, 1, 200)),
    maxMemoriesPerTranscript: Math.round(num(partial.maxMemoriesPerTranscript, d.maxMemoriesPerTranscript, 0, 1_000)),
    summaryExcerptChars: Math.round(num(partial.summaryExcerptChars, d.summaryExcerptChars, 40, 2_000)),
    summaryImportance: num(partial.summaryImportance, d.summaryImportance, 0, 1),
    maxFileBytes: Math.round(num(partial.maxFileBytes, d.maxFileBytes, 1_024, 1024 * 1024 * 1024)),
    watchDebounceMs: Math.round(num(partial.watchDebounceMs, d.watchDebounceMs, 50, 60_000)),
    importFolder: typeof partial.importFolder === 'string' ? partial.importFolder.trim() : d.importFolder,
    chatHistory: typeof partial.chatHistory === 'boolean' ? partial.chatHistory : d.chatHistory,
  };
}

/**
 * Agent hooks and agent capture (docs/agents.md): what `agent-memory hook` injects and what
 * `MemoryEngine.captureTurns` keeps. Every part can be turned off on its own.
 */
export interface AgentsConfig {
  /** Token budget of the memories a hook adds at SessionStart (0 = inject nothing at session start). */
  readonly sessionStartTokens: number;
  /** Token budget of the memories a hook adds to one prompt (UserPromptSubmit). */
  readonly promptTokens: number;
  /**
   * Least evidence a recalled memory needs to be added to a prompt: its cosine with the prompt, or
   * the share of the prompt's terms it contains, whichever is higher (0 = every recall result).
   */
  readonly relevanceBar: number;
  /** Memories injected into prompts at all (false: hooks only capture). */
  readonly injectEnabled: boolean;
  /** Capture per harness (hook and chat-history capture of that harness). */
  readonly captureVscode: boolean;
  readonly captureClaudeCode: boolean;
  readonly captureCopilot: boolean;
  /** Workspaces and paths nothing is captured from (globs, `**` any depth). */
  readonly excludePaths: readonly string[];
}

export const DEFAULT_AGENTS_CONFIG: AgentsConfig = {
  sessionStartTokens: 1_500,
  promptTokens: 600,
  relevanceBar: 0.45,
  injectEnabled: true,
  captureVscode: true,
  captureClaudeCode: true,
  captureCopilot: true,
  excludePaths: [],
};

function num(v: unknown, def: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : def;
}
const bool = (v: unknown, def: boolean): boolean => (typeof v === 'boolean' ? v : def);

export function resolveAgentsConfig(partial: Partial<AgentsConfig> = {}): AgentsConfig {
  const d = DEFAULT_AGENTS_CONFIG;
  return {
    sessionStartTokens: Math.round(num(partial.sessionStartTokens, d.sessionStartTokens, 0, 12_000)),
    promptTokens: Math.round(num(partial.promptTokens, d.promptTokens, 0, 12_000)),
    relevanceBar: num(partial.relevanceBar, d.relevanceBar, 0, 1),
    injectEnabled: bool(partial.injectEnabled, d.injectEnabled),
    captureVscode: bool(partial.captureVscode, d.captureVscode),
    captureClaudeCode: bool(partial.captureClaudeCode, d.captureClaudeCode),
    captureCopilot: bool(partial.captureCopilot, d.captureCopilot),
    excludePaths: Array.isArray(partial.excludePaths) ? partial.excludePaths.filter((g): g is string => typeof g === 'string' && g.trim() !== '') : d.excludePaths,
  };
}

/** Whether capture from `harness` is on ('vscode-chat-history' follows the VS Code switch; unknown harnesses are on). */
export function harnessCaptureOn(config: AgentsConfig, harness: string): boolean {
  if (harness === 'vscode' || harness === 'vscode-chat-history') return config.captureVscode;
  if (harness === 'claude-code') return config.captureClaudeCode;
  if (harness === 'copilot') return config.captureCopilot;
  return true;
}

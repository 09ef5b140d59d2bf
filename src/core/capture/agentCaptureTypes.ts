import type { TranscriptTurn } from './transcriptTypes';

/**
 * The contract of agent capture (docs/agents.md): what a hook call, the VS Code chat-history
 * follower or any other door hands the engine (`MemoryEngine.captureTurns`), and what the
 * extension shows of it (`recentCaptures`, `agentActivity`). Kept free of `vscode` so the CLI hook
 * and the extension share it.
 */
export type AgentHarness = 'vscode' | 'claude-code' | 'copilot' | 'vscode-chat-history' | (string & {});

export interface AgentCaptureInput {
  readonly harness: AgentHarness;
  /** The agent's own session id. Idempotency is per (sessionId, turn key), whatever the harness. */
  readonly sessionId: string;
  /** Workspace folder the session ran in (checked against the excluded-path globs). */
  readonly workspace?: string;
  /** Project name of the memories (default: the workspace folder's last segment). */
  readonly project?: string;
  readonly turns: readonly TranscriptTurn[];
  /** False when the workspace is not trusted: nothing is captured. Default true. */
  readonly trusted?: boolean;
  /** Text of the instruction files in force (copilot-instructions.md, AGENTS.md, CLAUDE.md, …); restatements are junk. */
  readonly instructionTexts?: readonly string[];
}

/** Why a turn or statement was not stored (docs/agents.md, "What is never captured"). */
export const SKIP_REASONS = [
  'already-seen', 'harness-off', 'untrusted', 'excluded-path', 'tool-output', 'log', 'stack-trace', 'diff', 'code',
  'instructions', 'echo', 'greeting', 'acknowledgement', 'question', 'no-statement', 'empty',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface AgentCaptureReport {
  readonly harness: string;
  readonly sessionId: string;
  /** Turns handed in. */
  readonly turns: number;
  /** Turns read for the first time (not seen through any harness before). */
  readonly newTurns: number;
  /** New memories written. */
  readonly stored: number;
  /** Statements already in the store (exactly or nearly): the existing memory was confirmed. */
  readonly confirmed: number;
  /** Turns or statements left out, per reason. */
  readonly skipped: Readonly<Partial<Record<SkipReason, number>>>;
  readonly memoryIds: readonly string[];
  readonly confirmedIds: readonly string[];
}

export interface CapturedMemory {
  readonly id: string;
  readonly content: string;
  readonly harness: string;
  readonly sessionId: string;
  readonly turnKey: string;
  /** ISO-8601 time the memory was captured. */
  readonly capturedAt: string;
  readonly project?: string;
  /** 'active', 'forgotten' (deleted) or 'superseded' (a newer memory replaced it). */
  readonly status: 'active' | 'forgotten' | 'superseded';
}

export interface AgentActivity {
  readonly harness: string;
  /** ISO-8601 of the last memories injected into this harness's sessions (hooks). */
  readonly lastInjectionAt?: string;
  readonly lastCaptureAt?: string;
  /** Memories captured from this harness since local midnight. */
  readonly capturedToday: number;
  readonly capturedTotal: number;
}

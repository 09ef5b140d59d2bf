import type { Clock } from './clock';
import type { Logger } from './logger';

/**
 * The narrow seam between a host (VS Code extension, CLI, tests) and the core.
 * The core never asks "where am I running": everything host-specific arrives here.
 */
export interface HostPaths {
  /** Folder holding the store (snapshot, journal, lock). Created on demand. */
  readonly storeDir: string;
  /** Folder with bundled model folders (Hugging Face layout), e.g. `<extension>/models`. */
  readonly bundledModelsDir: string;
  /** Writable folder for downloaded models and caches. */
  readonly cacheDir: string;
}

/** Progress reporting that maps onto vscode.Progress or a CLI line. */
export interface ProgressReporter {
  report(update: { message?: string; increment?: number }): void;
}

export const noProgress: ProgressReporter = { report: () => undefined };

/** Cancellation that maps onto vscode.CancellationToken or an AbortSignal. */
export interface CancellationLike {
  readonly isCancellationRequested: boolean;
}

/** The one interface every LLM-backed feature (extraction, hints, contradiction, scoring, reranking) uses. */
export interface LlmClient {
  /** A short human label ("VS Code: gpt-4o", "ollama: llama3.1"). */
  readonly label: string;
  complete(prompt: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<string>;
}

/**
 * The host's secret storage (VS Code's SecretStorage in the extension; read-only environment
 * variables in the CLI). Secrets reach the core only through it: never settings, files or logs.
 * Keys are the constants of the features that use them (llm/configuredLlm.ts, team/teamSecret.ts).
 */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  /** Hosts that cannot keep a secret (the CLI) reject with a message naming where it goes instead. */
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A secret store holding nothing (benches and tests that use no secret). */
export const noSecrets: SecretStore = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

export interface HostContext {
  readonly paths: HostPaths;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Undefined when no LLM provider is enabled: features fall back to heuristics. */
  readonly llm: LlmClient | undefined;
  readonly progress: ProgressReporter;
  /** Where the LLM API key and the team password come from; absent = a host that keeps none (benches, tests). */
  readonly secrets?: SecretStore;
}

/**
 * Workspace trust decisions in one pure function (no vscode import, unit-tested): what Agent Memory
 * may do given whether the workspace is trusted and the relevant settings. Reading memories
 * (recall, the graph, the panel) needs no trust; everything that records from agents or sends text
 * to a language model does. Callers pass `vscode.workspace.isTrusted` and re-evaluate after
 * onDidGrantWorkspaceTrust.
 */
import type { LlmProviderName } from '../../core/config/memorySettings';

export interface TrustInputs {
  readonly trusted: boolean;
  /** agentMemory.capture.enabled */
  readonly captureEnabled: boolean;
  /** agentMemory.llm.provider */
  readonly llmProvider: LlmProviderName;
}

export interface TrustGates {
  /** Sessions, tool-call turns and the import folder are recorded. */
  readonly capture: boolean;
  /** The memory_remember tool may write (independent of capture.enabled: the agent asked explicitly). */
  readonly toolWrites: boolean;
  /** Language model features may be set up and used at all ("Enable Language Model", consent, clients). */
  readonly llmAllowed: boolean;
  /** A configured provider is resolved and asked for consent (allowed and agentMemory.llm.provider not "none"). */
  readonly llmActive: boolean;
}

export function trustGates(input: TrustInputs): TrustGates {
  const { trusted } = input;
  return {
    capture: trusted && input.captureEnabled,
    toolWrites: trusted,
    llmAllowed: trusted,
    llmActive: trusted && input.llmProvider !== 'none',
  };
}

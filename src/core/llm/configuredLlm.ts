/**
 * The language model the settings name (`agentMemory.llm.*`, docs/configuration.md), built the
 * same way in every host: `none`, the host's VS Code chat model (only a host that has one can pick
 * it), or an OpenAI-compatible endpoint whose API key comes from the host's secret store. Every
 * client caps each call at `llm.timeoutSeconds` and redacts secrets from prompts. Trust and the
 * first-run consent stay with the host (the extension asks before calling this).
 */
import { DEFAULT_REDACTION_CONFIG } from '../config/redactionConfig';
import type { LlmSettings } from '../config/memorySettings';
import type { LlmClient, SecretStore } from '../hostContext';
import { createOpenAiCompatibleClient } from './openAiCompatibleClient';
import { withPromptRedaction } from './redactingLlm';

/** The secret-store key of the OpenAI-compatible endpoint's API key. */
export const LLM_API_KEY_SECRET = 'agentMemory.llm.apiKey';

export interface LlmChoice {
  readonly client: LlmClient | undefined;
  /** Which client is active, or why there is none (status tooltip, CLI note). */
  readonly description: string;
}

/** The VS Code chat model matching vendor/family ('' = any), or undefined when none is installed. */
export type VscodeModelPicker = (selector: { readonly vendor: string; readonly family: string }) => Promise<LlmClient | undefined>;

export interface LlmChoiceDeps {
  readonly secrets: SecretStore | undefined;
  /** Absent in a host without VS Code's language model API (the CLI). */
  readonly pickVscodeModel?: VscodeModelPicker;
}

/** Caps every call's timeout at `maxTimeoutMs` (features ask for their own, often longer). */
export function withTimeoutCap(client: LlmClient, maxTimeoutMs: number): LlmClient {
  return {
    label: client.label,
    complete: (prompt, options) => client.complete(prompt, { ...options, timeoutMs: Math.min(options.timeoutMs, maxTimeoutMs) }),
  };
}

const finish = (client: LlmClient, settings: LlmSettings): LlmChoice => {
  const wrapped = withPromptRedaction(withTimeoutCap(client, settings.timeoutMs), DEFAULT_REDACTION_CONFIG);
  return { client: wrapped, description: wrapped.label };
};

/** The client `settings` name; throws only what the client constructors throw (a malformed URL). */
export async function chooseLlmClient(settings: LlmSettings, deps: LlmChoiceDeps): Promise<LlmChoice> {
  if (settings.provider === 'none') return { client: undefined, description: 'off (agentMemory.llm.provider is "none"): heuristic extraction, no hints' };
  if (settings.provider === 'vscode') {
    if (!deps.pickVscodeModel) {
      return { client: undefined, description: 'llm.provider "vscode" is only available in VS Code; here use "openai-compatible" with llm.openaiCompatible.baseUrl and .model (running without a language model)' };
    }
    const model = await deps.pickVscodeModel({ vendor: settings.vendor, family: settings.family });
    if (!model) return { client: undefined, description: 'no VS Code language model is installed that matches agentMemory.llm.vscode.*' };
    return finish(model, settings);
  }
  if (!settings.baseUrl || !settings.model) return { client: undefined, description: 'set agentMemory.llm.openaiCompatible.baseUrl and .model' };
  const apiKey = await deps.secrets?.get(LLM_API_KEY_SECRET);
  return finish(createOpenAiCompatibleClient({ baseUrl: settings.baseUrl, model: settings.model, ...(apiKey ? { apiKey } : {}) }), settings);
}

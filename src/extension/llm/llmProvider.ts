/**
 * Which LlmClient the core gets: none until the user sets `agentMemory.llm.provider` and accepts
 * the first-run explanation (what is sent, what it may cost), and never in an untrusted workspace.
 */
import * as vscode from 'vscode';
import { userMessage } from '../../core/errors';
import type { SecretStore } from '../../core/hostContext';
import type { Logger } from '../../core/logger';
import { chooseLlmClient } from '../../core/llm/configuredLlm';
import type { LlmChoice } from '../../core/llm/configuredLlm';
import type { LlmProviderName, LlmSettings } from '../../core/config/memorySettings';
import { createVscodeLlmClient, pickChatModel } from './vscodeLlmClient';

/** globalState key: providers the user agreed to (the first-run prompt). */
export const LLM_CONSENT_KEY = 'agentMemory.llm.consent';

export function hasLlmConsent(state: vscode.Memento, provider: LlmProviderName): boolean {
  return state.get<string[]>(LLM_CONSENT_KEY, []).includes(provider);
}

/** The client the settings name (core/llm/configuredLlm.ts), once the workspace is trusted and the user agreed. */
export async function resolveLlm(settings: LlmSettings, deps: { trusted: boolean; state: vscode.Memento; secrets: SecretStore; logger: Logger }): Promise<LlmChoice> {
  if (settings.provider === 'none') return chooseLlmClient(settings, { secrets: deps.secrets });
  if (!deps.trusted) return { client: undefined, description: 'off in this untrusted workspace' };
  if (!hasLlmConsent(deps.state, settings.provider)) return { client: undefined, description: `waiting for your OK to use "${settings.provider}"` };
  try {
    return await chooseLlmClient(settings, {
      secrets: deps.secrets,
      pickVscodeModel: async (selector) => { const m = await pickChatModel(selector); return m ? createVscodeLlmClient(m) : undefined; },
    });
  } catch (e) {
    deps.logger.warn(`language model: ${userMessage(e)}`);
    return { client: undefined, description: userMessage(e) };
  }
}

const EXPLANATION: Record<Exclude<LlmProviderName, 'none'>, string> = {
  vscode: 'Agent Memory will send the text of new memories, session transcripts (for @memory chats) and recall candidates to the VS Code language model you selected, to extract facts, write search hints, check contradictions, score sessions and rerank results. Requests count against that model\'s quota or billing (for example your Copilot plan); expect one request per new memory plus a few per session.',
  'openai-compatible': 'Agent Memory will send the text of new memories, session transcripts (for @memory chats) and recall candidates to the OpenAI-compatible endpoint you configured, to extract facts, write search hints, check contradictions, score sessions and rerank results. A hosted endpoint may bill you per token; expect one request per new memory plus a few per session. A local server (Ollama, LM Studio) costs nothing.',
};

/**
 * The first-run prompt for a provider. Accepting records consent; declining turns the provider
 * back off. Returns whether the provider may be used now.
 */
export async function askLlmConsent(provider: LlmProviderName, state: vscode.Memento): Promise<boolean> {
  if (provider === 'none' || hasLlmConsent(state, provider)) return true;
  const enable = 'Enable';
  const choice = await vscode.window.showInformationMessage(
    `Use an extraction model for Agent Memory (${provider})?`,
    { modal: true, detail: `${EXPLANATION[provider]}\n\nNothing is sent until you enable it, and you can turn it off any time (setting agentMemory.llm.provider).` },
    enable,
  );
  if (choice === enable) {
    await state.update(LLM_CONSENT_KEY, [...state.get<string[]>(LLM_CONSENT_KEY, []), provider]);
    return true;
  }
  await vscode.workspace.getConfiguration('agentMemory').update('llm.provider', 'none', vscode.ConfigurationTarget.Global);
  return false;
}

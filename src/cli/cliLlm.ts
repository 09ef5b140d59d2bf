/**
 * The CLI's language model: the `llm.*` settings (--set, AGENT_MEMORY_LLM_*, config.json) through
 * the same chooser as the extension (core/llm/configuredLlm.ts), with the API key from the CLI's
 * secret store (AGENT_MEMORY_LLM_KEY). `--llm-url`/`--llm-model` (or AGENT_MEMORY_LLM_URL/_MODEL)
 * are a shorthand for provider openai-compatible with that endpoint and model. `llm.provider`
 * "vscode" exists only in VS Code: the CLI says so and runs without a language model.
 */
import type { LlmSettings } from '../core/config/memorySettings';
import { MemoryError } from '../core/errors';
import type { SecretStore } from '../core/hostContext';
import { chooseLlmClient } from '../core/llm/configuredLlm';
import type { LlmChoice } from '../core/llm/configuredLlm';
import { stringFlag } from './args';
import type { ParsedArgs } from './args';

/** The LLM settings with the --llm-url/--llm-model shorthand applied. */
export function cliLlmSettings(args: ParsedArgs, settings: LlmSettings, env: NodeJS.ProcessEnv = process.env): LlmSettings {
  const url = stringFlag(args, 'llm-url') ?? env.AGENT_MEMORY_LLM_URL;
  const model = stringFlag(args, 'llm-model') ?? env.AGENT_MEMORY_LLM_MODEL;
  if (!url && !model) return settings;
  if (!url || !model) throw new MemoryError('E_USAGE', 'An LLM needs both --llm-url and --llm-model (or AGENT_MEMORY_LLM_URL and AGENT_MEMORY_LLM_MODEL).');
  return { ...settings, provider: 'openai-compatible', baseUrl: url, model };
}

/** The configured client, or none; `note` receives why there is none when a provider was asked for. */
export async function cliLlm(args: ParsedArgs, settings: LlmSettings, secrets: SecretStore, note: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<LlmChoice> {
  const effective = cliLlmSettings(args, settings, env);
  const choice = await chooseLlmClient(effective, { secrets });
  if (!choice.client && effective.provider !== 'none') note(`agent-memory: note: no extraction model: ${choice.description}\n`);
  return choice;
}

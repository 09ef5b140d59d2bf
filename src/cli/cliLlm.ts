/** The CLI's language model: an OpenAI-compatible endpoint from flags or environment, or none. */
import { DEFAULT_REDACTION_CONFIG } from '../core/config/redactionConfig';
import { MemoryError } from '../core/errors';
import type { LlmClient } from '../core/hostContext';
import { createOpenAiCompatibleClient } from '../core/llm/openAiCompatibleClient';
import { withPromptRedaction } from '../core/llm/redactingLlm';
import { stringFlag } from './args';
import type { ParsedArgs } from './args';

/** An OpenAI-compatible LLM from --llm-url/--llm-model or AGENT_MEMORY_LLM_URL/AGENT_MEMORY_LLM_MODEL, or none (then extraction is heuristic). */
export function cliLlm(args: ParsedArgs, env: NodeJS.ProcessEnv = process.env): LlmClient | undefined {
  const url = stringFlag(args, 'llm-url') ?? env.AGENT_MEMORY_LLM_URL;
  const model = stringFlag(args, 'llm-model') ?? env.AGENT_MEMORY_LLM_MODEL;
  if (!url && !model) return undefined;
  if (!url || !model) throw new MemoryError('E_USAGE', 'An LLM needs both --llm-url and --llm-model (or AGENT_MEMORY_LLM_URL and AGENT_MEMORY_LLM_MODEL).');
  const apiKey = env.AGENT_MEMORY_LLM_KEY;
  return withPromptRedaction(createOpenAiCompatibleClient({ baseUrl: url, model, ...(apiKey ? { apiKey } : {}) }), DEFAULT_REDACTION_CONFIG);
}

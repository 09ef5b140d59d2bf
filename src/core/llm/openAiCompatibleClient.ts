import { MemoryError } from '../errors';
import type { LlmClient } from '../hostContext';

/**
 * An LlmClient for any OpenAI-compatible chat-completions endpoint (a local Ollama at
 * http://localhost:11434/v1, LM Studio at http://localhost:1234/v1, or a hosted one), set by
 * base URL and model. Uses Node's global fetch; no retries (callers fall back).
 */
export interface OpenAiCompatibleOptions {
  /** Base URL up to and including the version segment, e.g. `http://localhost:11434/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as a bearer token when set (never logged). */
  readonly apiKey?: string;
  /** Sampling temperature (0 keeps extraction reproducible). */
  readonly temperature?: number;
  readonly maxTokens?: number;
}

/** Default completion budget (default 2048 tokens at medium strength). */
export const DEFAULT_LLM_MAX_TOKENS = 2048;

function endpoint(baseUrl: string): string {
  let u: URL;
  try { u = new URL(baseUrl); } catch { throw new MemoryError('E_INVALID_INPUT', `The LLM endpoint is not a valid URL: ${baseUrl}`); }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new MemoryError('E_INVALID_INPUT', 'The LLM endpoint must be an http or https URL.');
  return `${u.href.replace(/\/+$/, '')}/chat/completions`;
}

export function createOpenAiCompatibleClient(opts: OpenAiCompatibleOptions): LlmClient {
  const url = endpoint(opts.baseUrl);
  if (!opts.model.trim()) throw new MemoryError('E_INVALID_INPUT', 'The LLM model name is empty.');
  const host = new URL(url).host;
  return {
    label: `${host}: ${opts.model}`,
    async complete(prompt, { timeoutMs, signal }) {
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
      const onAbort = (): void => controller.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const res = await fetch(url, {
          method: 'POST',
          signal: controller.signal,
          headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
          body: JSON.stringify({
            model: opts.model,
            messages: [{ role: 'user', content: prompt }],
            temperature: opts.temperature ?? 0,
            max_tokens: opts.maxTokens ?? DEFAULT_LLM_MAX_TOKENS,
            stream: false,
          }),
        });
        if (!res.ok) throw new MemoryError('E_LLM_UNAVAILABLE', `The LLM endpoint ${host} answered HTTP ${res.status}.`);
        let body: unknown;
        try { body = await res.json(); } catch { throw new MemoryError('E_LLM_UNAVAILABLE', `The LLM endpoint ${host} did not answer with JSON.`); }
        const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw new MemoryError('E_LLM_UNAVAILABLE', `The LLM endpoint ${host} answered without a message.`);
        return content;
      } catch (e) {
        if (e instanceof MemoryError) throw e;
        if (timedOut) throw new MemoryError('E_TIMEOUT', `The LLM endpoint ${host} took longer than ${timeoutMs} ms.`);
        if (signal?.aborted) throw new MemoryError('E_CANCELLED', 'The LLM request was cancelled.');
        throw new MemoryError('E_LLM_UNAVAILABLE', `The LLM endpoint ${host} could not be reached.`, undefined, { cause: e });
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

import type { RedactionConfig } from '../config/redactionConfig';
import type { LlmClient } from '../hostContext';
import { redactSecrets } from '../memory/redaction';

/**
 * An LlmClient that redacts every prompt before it leaves the process (docs/ingest.md
 * "Redaction"). Stored text is redacted already; this also covers what is not stored — a recall
 * query sent to an LLM reranker, a transcript written before turns were redacted. Hosts wrap
 * the client they hand the core (the extension's provider choice, the CLI's --llm-url).
 */
export function withPromptRedaction(client: LlmClient, redaction: RedactionConfig): LlmClient {
  return {
    label: client.label,
    complete: (prompt, options) => client.complete(redactSecrets(prompt, redaction).text, options),
  };
}

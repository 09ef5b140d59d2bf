/**
 * The core's LlmClient on VS Code's language model API (vscode.lm): used by extraction, hints,
 * contradiction checks, continuity scoring and the LLM reranker once the user turned
 * `agentMemory.llm.provider` to "vscode". Every call has a timeout and honours an AbortSignal
 * (mapped onto a CancellationToken); failures become coded MemoryErrors.
 */
import * as vscode from 'vscode';
import { MemoryError } from '../../core/errors';
import type { LlmClient } from '../../core/hostContext';
import { isMemoryOnlyModel } from '../chat/memoryOnlyModel';

export interface VscodeModelSelector {
  /** Empty strings select any vendor / family. */
  readonly vendor: string;
  readonly family: string;
}

function selector(s: VscodeModelSelector): vscode.LanguageModelChatSelector {
  return { ...(s.vendor ? { vendor: s.vendor } : {}), ...(s.family ? { family: s.family } : {}) };
}

/**
 * The first chat model matching the selector, or undefined when none is installed. Agent Memory's
 * own memory-only model (chat/memoryOnlyModel.ts) composes nothing, so it is never picked.
 */
export async function pickChatModel(s: VscodeModelSelector): Promise<vscode.LanguageModelChat | undefined> {
  const models = await vscode.lm.selectChatModels(selector(s));
  return models.find((m) => !isMemoryOnlyModel(m));
}

function toMemoryError(e: unknown, label: string): MemoryError {
  if (e instanceof MemoryError) return e;
  if (e instanceof vscode.LanguageModelError) {
    return new MemoryError('E_LLM_UNAVAILABLE', `The language model (${label}) refused the request: ${e.message.split('\n')[0] ?? e.code}`, { code: e.code });
  }
  if (e instanceof vscode.CancellationError) return new MemoryError('E_CANCELLED', 'The language model request was cancelled.');
  const first = e instanceof Error ? e.message.split('\n')[0] : String(e);
  return new MemoryError('E_LLM_UNAVAILABLE', `The language model (${label}) failed: ${first}`);
}

export function createVscodeLlmClient(model: vscode.LanguageModelChat): LlmClient {
  const label = `VS Code: ${model.name || model.id}`;
  return {
    label,
    async complete(prompt, { timeoutMs, signal }) {
      if (signal?.aborted) throw new MemoryError('E_CANCELLED', 'The language model request was cancelled.');
      const cts = new vscode.CancellationTokenSource();
      let timedOut = false;
      const timer = setTimeout(() => { timedOut = true; cts.cancel(); }, timeoutMs);
      const onAbort = (): void => cts.cancel();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {
          justification: 'Agent Memory extracts facts, writes search hints and ranks memories with the model you enabled.',
        }, cts.token);
        let text = '';
        for await (const chunk of response.text) {
          text += chunk;
          if (cts.token.isCancellationRequested) break;
        }
        if (timedOut) throw new MemoryError('E_TIMEOUT', `The language model (${label}) did not answer within ${Math.round(timeoutMs / 1000)} s.`);
        if (signal?.aborted) throw new MemoryError('E_CANCELLED', 'The language model request was cancelled.');
        return text;
      } catch (e) {
        if (timedOut) throw new MemoryError('E_TIMEOUT', `The language model (${label}) did not answer within ${Math.round(timeoutMs / 1000)} s.`);
        if (signal?.aborted) throw new MemoryError('E_CANCELLED', 'The language model request was cancelled.');
        throw toMemoryError(e, label);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        cts.dispose();
      }
    },
  };
}

/**
 * "Agent Memory (no chat model)": a chat model this extension provides only while VS Code has
 * no other chat model. VS Code hands a chat participant a request only with a model (the one picked
 * in the chat view, or Copilot's declared default); with none installed it stops the request with
 * "Language model unavailable" before any participant runs (docs/vscode.md). With this model in
 * the picker, `@memory` runs and answers with the recalled memories themselves (it never sends its
 * requests to this model: see isMemoryOnlyModel). Asked directly (Ask mode without `@memory`), the
 * model answers the same way. It withdraws as soon as any other model appears, so it never becomes
 * the default over a real one, and the core's LLM client never picks it (vscodeLlmClient.ts).
 */
import * as vscode from 'vscode';
import { userMessage } from '../../core/errors';
import { recallMemories, storeIsEmpty } from '../actions/memoryActions';
import type { Services } from '../host/services';
import { MEMORY_ONLY_MODEL_NAME } from './modelNames';
import { COMPOSED_ANSWER_HINT, memoriesOnlyAnswer } from './recallFormat';

/** Must equal contributes.languageModelChatProviders[0].vendor in package.json. */
export const MEMORY_ONLY_VENDOR = 'agent-memory';
/** Longest question (characters, from the end of the last user message) the model recalls for. */
const MAX_QUERY_CHARS = 500;

const MODEL: vscode.LanguageModelChatInformation = {
  id: 'memory-only',
  name: MEMORY_ONLY_MODEL_NAME,
  family: 'agent-memory',
  version: '1',
  detail: 'Recalled memories, not composed answers',
  tooltip: 'Shown only while VS Code has no chat model. @memory and this model answer with the recalled memories themselves; install a chat model for composed answers.',
  maxInputTokens: 32_000,
  maxOutputTokens: 4_000,
  // The chat view lists a model in its default (agent) mode only when it declares tool calling;
  // requests with tools get the memories as text and no tool calls.
  capabilities: { toolCalling: true, imageInput: false },
};

export function isMemoryOnlyModel(model: { readonly vendor: string } | undefined): boolean {
  return model?.vendor === MEMORY_ONLY_VENDOR;
}

function lastUserText(messages: readonly vscode.LanguageModelChatRequestMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== vscode.LanguageModelChatMessageRole.User) continue;
    return m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
  }
  return '';
}

/** The memories-only answer to a question, for a caller that is not @memory. */
async function answerFromMemory(services: Services, question: string): Promise<string> {
  const rt = await services.runtime();
  if (storeIsEmpty(rt)) return `Agent Memory is empty, so there is nothing to recall yet; use \`@memory /remember …\` to store a first fact.\n\n_${COMPOSED_ANSWER_HINT}_`;
  const results = await recallMemories(rt, question);
  if (results.length === 0) return `No memory matches this question.\n\n_${COMPOSED_ANSWER_HINT}_`;
  return memoriesOnlyAnswer(question, results);
}

export function registerMemoryOnlyModel(context: vscode.ExtensionContext, services: Services): void {
  const changed = new vscode.EventEmitter<void>();
  let othersAvailable: boolean | undefined;
  const provider: vscode.LanguageModelChatProvider = {
    onDidChangeLanguageModelChatInformation: changed.event,
    provideLanguageModelChatInformation: () => (othersAvailable === false ? [MODEL] : []),
    async provideLanguageModelChatResponse(_model, messages, _options, progress, token) {
      const question = lastUserText(messages).replace(/\s+/g, ' ').trim().slice(-MAX_QUERY_CHARS);
      let text: string;
      try {
        text = question ? await answerFromMemory(services, question) : `Ask a question to recall memories.\n\n_${COMPOSED_ANSWER_HINT}_`;
      } catch (e) {
        text = `Agent Memory could not recall: ${userMessage(e)}`;
      }
      if (!token.isCancellationRequested) progress.report(new vscode.LanguageModelTextPart(text));
    },
    provideTokenCount: async (_model, text) => Math.max(1, Math.ceil((typeof text === 'string' ? text : lastUserText([text])).length / 4)),
  };
  // Whether any other extension provides a chat model; the model list is offered only when none does.
  const refresh = async (): Promise<void> => {
    try {
      const others = (await vscode.lm.selectChatModels()).some((m) => !isMemoryOnlyModel(m));
      if (others === othersAvailable) return;
      othersAvailable = others;
      services.logger.debug(`memory-only chat model ${others ? 'withdrawn: another chat model is available' : 'offered: no other chat model'}`);
      changed.fire();
    } catch (e) {
      services.logger.warn(`could not list chat models (${userMessage(e)})`);
    }
  };
  context.subscriptions.push(
    changed,
    vscode.lm.registerLanguageModelChatProvider(MEMORY_ONLY_VENDOR, provider),
    vscode.lm.onDidChangeChatModels(() => void refresh()),
  );
  void refresh();
}

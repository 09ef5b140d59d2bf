/**
 * The @memory chat participant: answers from recalled memories, slash commands (declared in
 * package.json chatParticipants.commands), followups, session capture, cancellation.
 */
import * as vscode from 'vscode';
import { userMessage } from '../../core/errors';
import { answerQuestion, answerRecall, answerWhy, deliverSessionStart } from './chatAnswer';
import { firstRunAnswer, forgetFromChat, pinFromChat, rememberFromChat, statusFromChat } from './chatCommands';
import { citedMemoryIds } from '../../core/feedback/userFeedback';
import { ChatFeedback } from './chatFeedback';
import { ChatOutput } from './chatOutput';
import { isMemoryOnlyModel } from './memoryOnlyModel';
import { SessionCapture, sessionKeyFromHistory } from './sessionCapture';
import type { MemoryChatMetadata } from './sessionCapture';
import { storeIsEmpty } from '../actions/memoryActions';
import type { RecallExplanations } from '../knowledge/recallExplanationStore';
import type { Services } from '../host/services';

export const PARTICIPANT_ID = 'agent-memory.memory';

/**
 * Internal (not contributed, so not in the palette) command returning the last request the
 * participant handled and what it answered: how the integration tests observe chat.
 */
export const LAST_CHAT_REQUEST_COMMAND = 'agentMemory._lastChatRequest';

/** What LAST_CHAT_REQUEST_COMMAND returns; sequence counts requests since activation. */
export interface ChatRequestRecord {
  readonly prompt: string;
  readonly command: string | undefined;
  readonly sequence: number;
  /** True once the handler returned. */
  done: boolean;
  /** The markdown streamed so far. */
  answer: string;
  /** URIs passed to stream.reference (memories are agent-memory:/memory/<id>.md). */
  references: string[];
  metadata?: MemoryChatMetadata;
}

const RECALLING = new Set(['ask', 'recall', 'why']);

function followups(meta: MemoryChatMetadata): vscode.ChatFollowup[] {
  if (meta.empty) return [{ prompt: 'we use … (a fact about this project)', command: 'remember', label: 'Remember a first fact' }, { prompt: '', command: 'status', label: 'Show memory status' }];
  const q = meta.query ?? '';
  switch (meta.command) {
    case 'ask': return q ? [{ prompt: q, command: 'why', label: 'Why were these memories recalled?' }, { prompt: q, command: 'recall', label: 'List the memories only' }] : [];
    case 'recall': return q ? [{ prompt: q, command: 'why', label: 'Explain the ranking' }, { prompt: q, label: 'Answer from these memories' }] : [];
    case 'remember': return q ? [{ prompt: q, command: 'recall', label: 'Recall it' }] : [];
    default: return [];
  }
}

async function dispatch(services: Services, capture: SessionCapture, feedback: ChatFeedback, explanations: RecallExplanations, request: vscode.ChatRequest, chatContext: vscode.ChatContext, out: ChatOutput, token: vscode.CancellationToken): Promise<MemoryChatMetadata> {
  const command = request.command ?? 'ask';
  const prompt = request.prompt.trim();
  const rt = await services.runtime();
  if (token.isCancellationRequested) return { command };
  if (command === 'status') { statusFromChat(services, rt, out); return { command }; }
  if (RECALLING.has(command) && storeIsEmpty(rt)) { firstRunAnswer(out); return { command, empty: true }; }
  if (RECALLING.has(command) && !prompt) {
    out.markdown(`Ask me something, for example \`@memory ${command === 'ask' ? '' : `/${command} `}which database do we use?\``);
    return { command };
  }
  const session = await capture.chatSession(rt, sessionKeyFromHistory(chatContext.history, PARTICIPANT_ID), prompt);
  const sessionKey = session?.key;
  const startMemories = session?.startMemories ?? [];
  await capture.turn(rt, sessionKey, 'user', command === 'ask' ? prompt : `/${command} ${prompt}`);
  const deps = { rt, explanations, out, token, sessionKey, startMemories };
  // The memories the answer numbered, in order: the session-start ones are numbered after them.
  let numbered: string[] = [];
  // Whether the session-start memories' numbers mean something in this answer: a model cited by them, or a full list.
  let numbersShown = true;
  switch (command) {
    // The memory-only model (memoryOnlyModel.ts) composes nothing: answer with the memories directly.
    case 'ask': {
      const a = await answerQuestion(deps, prompt, isMemoryOnlyModel(request.model) ? undefined : request.model);
      numbered = a.results.map((r) => r.id);
      numbersShown = a.composed;
      break;
    }
    case 'recall': numbered = (await answerRecall(deps, prompt)).map((r) => r.id); break;
    case 'why': numbered = (await answerWhy(deps, prompt)).map((r) => r.id); break;
    case 'remember': await rememberFromChat(rt, out, prompt, sessionKey); break;
    case 'forget': await forgetFromChat(rt, out, prompt); break;
    case 'pin': await pinFromChat(rt, out, prompt, true); break;
    case 'unpin': await pinFromChat(rt, out, prompt, false); break;
    default: out.markdown(`Unknown command /${command}. Try /recall, /why, /remember, /forget, /pin, /unpin or /status.`);
  }
  if (token.isCancellationRequested) return { command, query: prompt, ...(sessionKey ? { sessionKey } : {}) };
  deliverSessionStart(out, startMemories, numbersShown ? numbered.length : undefined);
  // Only the model's own words: the memory lists and quotes of the answer are not evidence of use.
  await capture.turn(rt, sessionKey, 'assistant', out.composedText());
  numbered.push(...startMemories.map((m) => m.id));
  const cited = citedMemoryIds(out.composedText(), numbered);
  if (!cited.length && numbered.length) cited.push(numbered[0] as string);
  feedback.noteShown(sessionKey, numbered);
  return { command, query: prompt, ...(sessionKey ? { sessionKey } : {}), ...(startMemories.length ? { sessionStart: startMemories.map((m) => m.id) } : {}), ...(cited.length ? { cited } : {}) };
}

export function registerChatParticipant(context: vscode.ExtensionContext, services: Services, explanations: RecallExplanations): void {
  let last: ChatRequestRecord | undefined;
  const capture = new SessionCapture(services);
  const feedback = new ChatFeedback(services);
  const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
    const record: ChatRequestRecord = { prompt: request.prompt, command: request.command, sequence: (last?.sequence ?? 0) + 1, done: false, answer: '', references: [] };
    last = record;
    services.logger.info(`@memory request (${request.command ?? 'ask'}): ${request.prompt.slice(0, 80)}`);
    const out = new ChatOutput(stream);
    let metadata: MemoryChatMetadata = { command: request.command ?? 'ask' };
    try {
      metadata = await dispatch(services, capture, feedback, explanations, request, chatContext, out, token);
    } catch (e) {
      services.logger.warn(`@memory ${metadata.command}: ${userMessage(e)}`);
      out.markdown(`Agent Memory could not do that: ${userMessage(e)}`);
    } finally {
      record.answer = out.text();
      record.references = [...out.references];
      record.metadata = metadata;
      record.done = true;
    }
    return { metadata };
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(services.extensionUri, 'media', 'memory.svg');
  participant.followupProvider = {
    provideFollowups: (result) => followups((result.metadata as MemoryChatMetadata | undefined) ?? { command: 'ask' }),
  };
  participant.onDidReceiveFeedback((fb) => { void feedback.received(fb); }, undefined, context.subscriptions);
  context.subscriptions.push(participant, feedback, vscode.commands.registerCommand(LAST_CHAT_REQUEST_COMMAND, () => last));
}

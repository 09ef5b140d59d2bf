import * as vscode from 'vscode';
import type { Services } from './services';

export const PARTICIPANT_ID = 'agent-memory.memory';

/**
 * Internal (not contributed, so not in the palette) command returning the last request the
 * participant handled: how the integration tests observe that a chat message reached it.
 */
export const LAST_CHAT_REQUEST_COMMAND = 'agentMemory._lastChatRequest';

/** What LAST_CHAT_REQUEST_COMMAND returns; sequence counts requests since activation. */
export interface ChatRequestRecord {
  readonly prompt: string;
  readonly command: string | undefined;
  readonly sequence: number;
}

export function registerChatParticipant(context: vscode.ExtensionContext, services: Services): void {
  let last: ChatRequestRecord | undefined;
  const handler: vscode.ChatRequestHandler = async (request, _chatContext, stream, token) => {
    last = { prompt: request.prompt, command: request.command, sequence: (last?.sequence ?? 0) + 1 };
    services.logger.info(`@memory request (${request.command ?? 'ask'}): ${request.prompt.slice(0, 80)}`);
    if (token.isCancellationRequested) return {};
    stream.markdown('Nothing is remembered yet, so there is nothing to recall. ');
    stream.markdown('As you and your agents work, Agent Memory will answer here from what it has learned.');
    return { metadata: { command: request.command ?? 'ask' } };
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(services.extensionUri, 'media', 'memory.svg');
  context.subscriptions.push(participant, vscode.commands.registerCommand(LAST_CHAT_REQUEST_COMMAND, () => last));
}

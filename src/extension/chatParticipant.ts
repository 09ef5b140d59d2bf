import * as vscode from 'vscode';
import type { Services } from './services';

export const PARTICIPANT_ID = 'agent-memory.memory';

export function registerChatParticipant(context: vscode.ExtensionContext, services: Services): void {
  const handler: vscode.ChatRequestHandler = async (request, _chatContext, stream, token) => {
    services.logger.info(`@memory request (${request.command ?? 'ask'}): ${request.prompt.slice(0, 80)}`);
    if (token.isCancellationRequested) return {};
    stream.markdown('Nothing is remembered yet, so there is nothing to recall. ');
    stream.markdown('As you and your agents work, Agent Memory will answer here from what it has learned.');
    return { metadata: { command: request.command ?? 'ask' } };
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(services.extensionUri, 'media', 'memory.svg');
  context.subscriptions.push(participant);
}

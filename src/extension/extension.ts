import * as vscode from 'vscode';
import { createServices } from './services';
import { registerCommands } from './commands';
import { registerGraphTree } from './graphTree';
import { registerKnowledgeView } from './knowledgeView';
import { registerChatParticipant } from './chatParticipant';

/**
 * The composition root: the only place that builds services and wires them to VS Code.
 * Every disposable goes into context.subscriptions.
 */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const services = createServices(context);
  context.subscriptions.push(services);
  services.logger.info(`Agent Memory ${context.extension.packageJSON.version as string} activating (Node ${process.version}, VS Code ${vscode.version})`);
  registerCommands(context, services);
  registerGraphTree(context, services);
  registerKnowledgeView(context, services);
  registerChatParticipant(context, services);
  services.logger.info('Agent Memory activated');
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

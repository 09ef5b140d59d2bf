import * as vscode from 'vscode';
import type { Services } from './services';
import { KNOWLEDGE_VIEW_ID } from './knowledgeView';

export function registerCommands(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentMemory.showLogs', () => services.logger.show(true)),
    vscode.commands.registerCommand('agentMemory.openKnowledgePanel', async () => {
      await vscode.commands.executeCommand(`${KNOWLEDGE_VIEW_ID}.focus`);
    }),
  );
}

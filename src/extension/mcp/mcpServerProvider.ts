/**
 * Registers Agent Memory's MCP server with VS Code (contributes.mcpServerDefinitionProviders +
 * vscode.lm.registerMcpServerDefinitionProvider), so agent harnesses that speak MCP find it without
 * hand-written configuration: the bundled CLI (`dist/cli.js mcp`) on this extension's own store,
 * run by the editor's own runtime (docs/mcp.md, "VS Code").
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { mcpLaunchArgs } from './mcpLaunch';
import type { Services } from '../host/services';
import { storeDirFor } from '../host/storeDir';

export const MCP_PROVIDER_ID = 'agentMemory.mcpServer';
export const MCP_SERVER_LABEL = 'Agent Memory';

export function registerMcpServer(context: vscode.ExtensionContext, services: Services): void {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const settings = services.settings();
      const args = mcpLaunchArgs({
        cli: join(context.extensionPath, 'dist', 'cli.js'),
        storeDir: storeDirFor(settings, context.globalStorageUri.fsPath),
        readOnly: settings.mcpReadOnly,
      });
      // The extension host's executable is Node in a remote/code-server host and Electron on the
      // desktop; ELECTRON_RUN_AS_NODE makes the latter run the CLI as plain Node.
      const def = new vscode.McpStdioServerDefinition(MCP_SERVER_LABEL, process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' }, String(context.extension.packageJSON.version ?? '0.0.0'));
      def.cwd = vscode.Uri.file(context.extensionPath);
      return [def];
    },
  };
  context.subscriptions.push(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentMemory.store.path') || e.affectsConfiguration('agentMemory.mcp.readOnly')) changed.fire();
    }),
  );
}

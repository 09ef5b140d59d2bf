import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { memoryApi, restoreDefaultStore, useFreshStore } from './memoryTestKit';
import { waitFor } from './waitFor';

/**
 * The extension's MCP server definition provider, seen by VS Code's own MCP support: VS Code starts
 * the server it lists (the bundled dist/cli.js on the extension's store) and its tools join the
 * language model tools, under VS Code's MCP naming.
 */
describe('Agent Memory MCP server in VS Code (mcpServerDefinitionProviders)', () => {
  let api: AgentMemoryApi;
  before(async () => {
    api = await memoryApi();
    await useFreshStore(api, 'mcp');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.mcp.stopServer', '*').then(undefined, () => undefined);
    await restoreDefaultStore();
  });

  it('VS Code lists the server, starts it and exposes its tools', async function () {
    this.timeout(120_000);
    const contributed = vscode.extensions.all.find((e) => e.packageJSON?.contributes?.mcpServerDefinitionProviders)?.packageJSON.contributes.mcpServerDefinitionProviders as { id: string }[] | undefined;
    assert.deepEqual(contributed?.map((p) => p.id), ['agentMemory.mcpServer']);
    // "*" starts every server VS Code lists; waitForLiveTools resolves once their tools are known.
    await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true });
    const tools = await waitFor('Agent Memory MCP tools in vscode.lm.tools', () => {
      const names = vscode.lm.tools.map((t) => t.name).filter((n) => n.includes('search_nodes') || n.includes('read_graph'));
      return names.length >= 2 ? names : undefined;
    }, 90_000);
    assert.ok(tools.every((n) => n.startsWith('mcp_')), tools.join(', '));
    const searchName = tools.find((n) => n.includes('search_nodes'))!;
    const described = vscode.lm.tools.find((t) => t.name === searchName);
    assert.ok((described?.inputSchema as { properties?: Record<string, unknown> }).properties?.query, 'the MCP tool keeps its schema');
  });
});

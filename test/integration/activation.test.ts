import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'agent-memory.agent-memory';

describe('extension activation in the real extension host', () => {
  it('activates and reports the extension host Node version', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded in this extension host`);
    await extension.activate();
    assert.equal(extension.isActive, true);
    console.log(`[integration] Agent Memory active in extension host Node ${process.version} (VS Code ${vscode.version})`);
    assert.match(process.version, /^v\d+\.\d+\.\d+$/);
  });

  it('registers the Memory commands so they exist in the command registry', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['agentMemory.openKnowledgePanel', 'agentMemory.showLogs', 'agentMemory.refreshGraph']) {
      assert.ok(commands.includes(id), `command ${id} is not registered`);
    }
  });

  it('runs Show Logs without error', async () => {
    await vscode.commands.executeCommand('agentMemory.showLogs');
  });

  it('runs Open Knowledge Panel, which focuses the Knowledge webview view', async () => {
    await vscode.commands.executeCommand('agentMemory.openKnowledgePanel');
  });

  it('contributes the Memory container with the Knowledge Graph tree, the Knowledge webview and Recently Captured', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    const views = extension?.packageJSON.contributes.views.agentMemory as { id: string; type: string }[];
    assert.deepEqual(views.map((v) => [v.id, v.type]), [['agentMemory.graph', 'tree'], ['agentMemory.knowledge', 'webview'], ['agentMemory.recentCaptures', 'tree']]);
    // The workbench generates a focus command per registered view and one per container:
    // they exist only when the contribution was accepted.
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['workbench.view.extension.agentMemory', 'agentMemory.graph.focus', 'agentMemory.knowledge.focus', 'agentMemory.recentCaptures.focus']) {
      assert.ok(commands.includes(id), `workbench command ${id} is missing: the contribution was not accepted`);
    }
    await vscode.commands.executeCommand('workbench.view.extension.agentMemory');
    await vscode.commands.executeCommand('agentMemory.graph.focus');
  });
});

import { strict as assert } from 'node:assert';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Connection } from '../../src/extension/agents/agentTargets';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { memoryApi, restoreDefaultStore, tempFolder, useFreshStore } from './memoryTestKit';

/** Splits a POSIX hook command into its words (single-quoted words as written by hookConfigMerge.shellQuote). */
function words(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2] ?? ''));
}

describe('Memory: Connect Agents / Disconnect Agents', () => {
  let api: AgentMemoryApi;
  let home: string;
  let storeDir: string;

  before(async () => {
    api = await memoryApi();
    storeDir = (await useFreshStore(api, 'connect')).store.dir;
    home = tempFolder('home');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await restoreDefaultStore();
  });

  it('writes hooks that run the bundled CLI on this store, beside the user\'s own settings, and shows them first', async () => {
    mkdirSync(join(home, '.claude'), { recursive: true });
    const mine = { model: 'sonnet', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] } };
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify(mine, null, 2));
    const done = await vscode.commands.executeCommand<Connection[] | undefined>('agentMemory.connectAgents', { targets: ['claude-code:user', 'vscode:user'], yes: true, home });
    assert.equal(done?.length, 2);
    // The preview document showed both files as they would be written.
    const preview = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'agent-memory-hooks');
    assert.ok(preview, 'a preview document was opened');
    assert.match(preview.getText(), /settings\.json/);
    assert.match(preview.getText(), /agent-memory\.json/);

    const claude = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
    assert.equal(claude.model, 'sonnet');
    assert.equal(claude.hooks.Stop.length, 2);
    assert.equal(claude.hooks.Stop[0].hooks[0].command, 'notify-send done');
    const command: string = claude.hooks.UserPromptSubmit[0].hooks[0].command;
    const [node, cli, sub, ...rest] = words(command);
    accessSync(node ?? '', constants.X_OK);
    assert.equal(cli, join(api.services.context.extensionPath, 'dist', 'cli.js'));
    assert.ok(existsSync(cli ?? ''), `${cli} exists`);
    assert.equal(sub, 'hook');
    assert.deepEqual(rest, ['--harness', 'claude-code', '--store', storeDir]);
    const vscodeHooks = JSON.parse(readFileSync(join(home, '.copilot', 'hooks', 'agent-memory.json'), 'utf8'));
    assert.deepEqual(Object.keys(vscodeHooks.hooks), ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact']);
    assert.match(vscodeHooks.hooks.SessionStart[0].command, /--harness vscode --store/);

    // Show Status lists the connections.
    const status = await vscode.commands.executeCommand<string | undefined>('agentMemory.showStatus');
    assert.match(status ?? '', /## Agents/);
    assert.match(status ?? '', /\| Claude Code \| `[^`]*settings\.json`/);
    assert.match(status ?? '', /VS Code chat history \(`agentMemory\.capture\.chatHistory`\): off/);
  });

  it('connecting again adds nothing; Disconnect removes exactly what was written', async () => {
    const before = readFileSync(join(home, '.claude', 'settings.json'), 'utf8');
    const again = await vscode.commands.executeCommand<Connection[] | undefined>('agentMemory.connectAgents', { targets: ['claude-code:user'], yes: true, preview: false, home });
    assert.deepEqual(again, []);
    assert.equal(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'), before);
    const removed = await vscode.commands.executeCommand<Connection[] | undefined>('agentMemory.disconnectAgents', { targets: ['claude-code:user', 'vscode:user'], yes: true });
    assert.equal(removed?.length, 2);
    assert.deepEqual(JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')), { model: 'sonnet', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] } });
    assert.equal(existsSync(join(home, '.copilot', 'hooks', 'agent-memory.json')), false, 'the hook file it created is gone');
    assert.deepEqual(api.agentConnections.connections(), []);
  });

  it('a settings file that is not JSON is refused with a clear message, and left as it was', async () => {
    writeFileSync(join(home, '.claude', 'settings.json'), '{ "model": "opus", // mine\n}');
    const r = await vscode.commands.executeCommand<Connection[] | undefined>('agentMemory.connectAgents', { targets: ['claude-code:user'], yes: true, preview: false, home });
    assert.equal(r, undefined);
    assert.equal(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'), '{ "model": "opus", // mine\n}');
  });
});

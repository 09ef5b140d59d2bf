import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Connection } from '../../src/extension/agents/agentTargets';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { memoryApi, restoreDefaultStore, tempFolder, useFreshStore } from './memoryTestKit';
import { waitFor } from './waitFor';

/** Runs a hook command as a harness does (`sh -c`, the payload on stdin), without blocking the extension host. */
function runHook(command: string, payload: unknown): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // no per-store hook service: it would outlive the test
    const child = spawn('sh', ['-c', command], { env: { ...process.env, AGENT_MEMORY_HOOK_SERVICE: '0' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify(payload));
  });
}

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
    // The hook runs the launcher in global storage, not the extension's versioned install folder.
    const [launcher, sub, ...rest] = words(command);
    assert.equal(launcher, join(api.services.context.globalStorageUri.fsPath, 'bin', 'agent-memory-hook'));
    assert.ok(!command.includes(api.services.context.extensionPath), `the command names no install folder: ${command}`);
    accessSync(launcher ?? '', constants.X_OK);
    const cli = join(api.services.context.extensionPath, 'dist', 'cli.js');
    assert.ok(existsSync(cli), `${cli} exists`);
    assert.ok(readFileSync(launcher ?? '', 'utf8').includes(cli), 'the launcher runs this version\'s bundled CLI');
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

  it('the written command, run as a harness runs it, reaches the bundled CLI: a Stop captures into this store', async function () {
    this.timeout(180_000);
    const claude = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
    const command: string = claude.hooks.Stop[1].hooks[0].command;
    const transcript = join(tempFolder('transcript'), 'cc-int.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'We decided that the reading list exports use ISO 8601 dates from now on.' }, uuid: 'u1', sessionId: 'cc-int', timestamp: '2026-12-02T09:00:00Z' })}\n`);
    const r = await runHook(command, { session_id: 'cc-int', transcript_path: transcript, cwd: home, hook_event_name: 'Stop', stop_hook_active: false });
    assert.deepEqual([r.code, r.stdout], [0, ''], r.stderr);
    assert.match(readFileSync(join(storeDir, 'hooks.log'), 'utf8'), /claude-code Stop session=cc-int: ok .*stored 1/);
    const rt = await api.services.runtime();
    const captured = await waitFor('the window to see the capture', async () => (await rt.recentCaptures()).find((m) => /ISO 8601 dates/.test(m.content)), 60_000, 250);
    assert.deepEqual([captured.harness, captured.sessionId], ['claude-code', 'cc-int']);
    // Activation rewrites the launcher only when it would say something else.
    assert.equal(await api.agentConnections.refreshLauncher(), join(api.services.context.globalStorageUri.fsPath, 'bin', 'agent-memory-hook'));
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

import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  HOOK_COMMAND_MARK, HOOK_EVENTS, HOOK_TIMEOUT_SECONDS, githubHookFile, hookCommand, hookEntries, installHooksInFile, isOurHook, mergeHooks, removeOurHooks,
  shellQuote, uninstallHooksInFile, unmergeHooks,
} from '../../../src/core/hooks/hookConfigMerge';
import { MemoryError } from '../../../src/core/errors';
import { makeTempDir } from '../helpers/tempDir';

const CMD = hookCommand({ node: '/usr/bin/node', cliJs: '/home/me/.vscode/extensions/agent-memory-0.1.0/dist/cli.js', store: "/home/me/It's mine/store", harness: 'claude-code', platform: 'linux' });

describe('hooks: configuration merge and unmerge', () => {
  it('builds a shell-safe command naming the bundled CLI, the harness and the store', () => {
    assert.equal(CMD, "/usr/bin/node /home/me/.vscode/extensions/agent-memory-0.1.0/dist/cli.js hook --harness claude-code --store '/home/me/It'\\''s mine/store'");
    assert.equal(shellQuote('C:\\Program Files\\node.exe', 'win32'), '"C:\\Program Files\\node.exe"');
  });

  it('adds Claude Code hooks beside the user\'s settings and hooks, without clobbering', () => {
    const before = JSON.stringify({ model: 'opus', permissions: { allow: ['Bash(npm test)'] }, hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'say done' }] }] } });
    const entries = hookEntries('claude-settings', 'claude-code', CMD);
    const { text, written } = mergeHooks(before, entries, 'settings.json');
    const after = JSON.parse(text);
    assert.equal(after.model, 'opus');
    assert.deepEqual(after.permissions, { allow: ['Bash(npm test)'] });
    assert.deepEqual(Object.keys(after.hooks).sort(), [...HOOK_EVENTS['claude-code']].sort());
    assert.equal(after.hooks.Stop.length, 2);
    assert.equal(after.hooks.Stop[0].hooks[0].command, 'say done');
    assert.deepEqual(after.hooks.SessionStart, [{ hooks: [{ type: 'command', command: CMD, timeout: HOOK_TIMEOUT_SECONDS }] }]);
    assert.equal(written.length, HOOK_EVENTS['claude-code'].length);
    // Connecting twice adds nothing.
    const again = mergeHooks(text, entries, 'settings.json');
    assert.equal(again.written.length, 0);
    assert.equal(again.text, text);
    // Disconnecting removes exactly what was written: the file is the user's again.
    const un = unmergeHooks(text, written, 'settings.json');
    assert.equal(un.removed, written.length);
    assert.deepEqual(JSON.parse(un.text ?? ''), JSON.parse(before));
  });

  it('a hook file of our own becomes empty (deleted) after unmerge; a hook the user added to it stays', () => {
    const entries = hookEntries('vscode-hooks', 'vscode', CMD);
    const { text, written } = mergeHooks(undefined, entries, 'agent-memory.json');
    assert.deepEqual(JSON.parse(text).hooks.UserPromptSubmit, [{ type: 'command', command: CMD, timeout: HOOK_TIMEOUT_SECONDS }]);
    assert.equal(unmergeHooks(text, written, 'agent-memory.json').text, undefined);
    const edited = JSON.parse(text);
    edited.hooks.UserPromptSubmit.push({ type: 'command', command: 'echo mine' });
    const un = unmergeHooks(JSON.stringify(edited), written, 'agent-memory.json');
    assert.deepEqual(JSON.parse(un.text ?? ''), { hooks: { UserPromptSubmit: [{ type: 'command', command: 'echo mine' }] } });
  });

  it('an entry the user removed by hand is not an error; an identical entry of theirs loses one copy only', () => {
    const entries = hookEntries('vscode-hooks', 'vscode', CMD);
    const { text, written } = mergeHooks('{}', entries, 'f.json');
    const edited = JSON.parse(text);
    delete edited.hooks.Stop;
    assert.equal(unmergeHooks(JSON.stringify(edited), written, 'f.json').removed, written.length - 1);
    const doubled = JSON.parse(text);
    doubled.hooks.PreCompact.push(doubled.hooks.PreCompact[0]);
    const un = unmergeHooks(JSON.stringify(doubled), written, 'f.json');
    assert.equal(JSON.parse(un.text ?? '').hooks.PreCompact.length, 1);
  });

  it('refuses a file it cannot read as a JSON object, naming it; nothing is written', () => {
    for (const bad of ['{ "hooks": { } // mine', '[1]', '{"hooks": []}', '{"hooks": {"Stop": {}}}']) {
      assert.throws(() => mergeHooks(bad, hookEntries('claude-settings', 'claude-code', CMD), '/home/me/.claude/settings.json'),
        (e: unknown) => e instanceof MemoryError && e.code === 'E_INVALID_INPUT' && e.message.includes('/home/me/.claude/settings.json'));
    }
    assert.deepEqual(unmergeHooks(undefined, [], 'x.json'), { text: undefined, removed: 0 });
  });

  it('names a launcher instead of node and the CLI when given one; every command carries the mark ours are known by', () => {
    const viaLauncher = hookCommand({ launcher: '/home/me/.config/Code/User/globalStorage/agent-memory.agent-memory/bin/agent-memory-hook', store: '/s', harness: 'vscode', platform: 'linux' });
    assert.equal(viaLauncher, '/home/me/.config/Code/User/globalStorage/agent-memory.agent-memory/bin/agent-memory-hook hook --harness vscode --store /s');
    assert.equal(hookCommand({ launcher: 'C:\\Users\\me\\bin\\agent-memory-hook.cmd', store: 'C:\\s', harness: 'claude-code', platform: 'win32' }),
      '"C:\\Users\\me\\bin\\agent-memory-hook.cmd" hook --harness claude-code --store "C:\\s"');
    for (const c of [CMD, viaLauncher]) assert.ok(c.includes(HOOK_COMMAND_MARK) && isOurHook({ type: 'command', command: c }));
    assert.equal(HOOK_TIMEOUT_SECONDS > 20, true, 'the harness waits longer than the call\'s own 20 s deadline');
  });

  it('writes the .github/hooks file of VS Code and of Copilot CLI (camelCase events, bash and timeoutSec)', () => {
    assert.deepEqual(githubHookFile(CMD, 'vscode'), { version: 1, hooks: Object.fromEntries(HOOK_EVENTS.vscode.map((e) => [e, [{ type: 'command', command: CMD, timeout: HOOK_TIMEOUT_SECONDS }]])) });
    const copilot = githubHookFile(CMD, 'copilot');
    assert.deepEqual(Object.keys(copilot.hooks), ['sessionStart', 'userPromptSubmitted', 'agentStop', 'sessionEnd']);
    assert.deepEqual(copilot.hooks.agentStop, [{ type: 'command', bash: CMD, timeoutSec: HOOK_TIMEOUT_SECONDS }]);
    assert.ok(isOurHook(copilot.hooks.agentStop?.[0]));
  });

  it('removes every hook of ours without a record (the CLI), keeping the user\'s hooks in shared groups', () => {
    const mine = { type: 'command', command: 'say done' };
    const ours = { type: 'command', command: `/old/node /old/cli.js${HOOK_COMMAND_MARK}claude-code --store /s`, timeout: 15 };
    const text = JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [mine, ours] }, { hooks: [ours] }], SessionStart: [{ hooks: [ours] }], Notification: [mine], PreCompact: [{ type: 'command', bash: `x${HOOK_COMMAND_MARK}copilot` }] } });
    const r = removeOurHooks(text, 'settings.json');
    assert.equal(r.removed, 4);
    assert.deepEqual(JSON.parse(r.text ?? ''), { model: 'opus', hooks: { Stop: [{ hooks: [mine] }], Notification: [mine] } });
    assert.equal(removeOurHooks(JSON.stringify({ hooks: { Stop: [ours] } }), 'f.json').text, undefined, 'nothing else left: the caller may delete the file');
    assert.throws(() => removeOurHooks('{"hooks": []}', '/x/settings.json'), (e: unknown) => e instanceof MemoryError && e.message.includes('/x/settings.json'));
  });

  it('hook install replaces earlier hooks of ours in the file, keeps everything else; uninstall removes them all', () => {
    const temp = makeTempDir('agent-memory-hookcfg-');
    try {
      const file = join(temp.dir, '.claude', 'settings.json');
      mkdirSync(join(temp.dir, '.claude'));
      const old = hookCommand({ node: '/old/node', cliJs: '/old/ext-0.0.9/dist/cli.js', store: '/s', harness: 'claude-code', platform: 'linux' });
      writeFileSync(file, JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }], SessionStart: [{ hooks: [{ type: 'command', command: old, timeout: 15 }] }] } }));
      const added = installHooksInFile(file, hookEntries('claude-settings', 'claude-code', CMD));
      assert.equal(added.length, HOOK_EVENTS['claude-code'].length);
      const after = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(after.model, 'opus');
      assert.deepEqual(after.hooks.SessionStart, [{ hooks: [{ type: 'command', command: CMD, timeout: HOOK_TIMEOUT_SECONDS }] }], 'the old command was replaced, not kept beside');
      assert.equal(after.hooks.Stop.length, 2);
      installHooksInFile(file, hookEntries('claude-settings', 'claude-code', CMD));
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), after, 'installing again changes nothing');
      assert.equal(uninstallHooksInFile(file), HOOK_EVENTS['claude-code'].length);
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } });
      assert.equal(uninstallHooksInFile(file), 0);
      assert.equal(uninstallHooksInFile(join(temp.dir, 'missing.json')), 0);
      assert.equal(existsSync(join(temp.dir, 'missing.json')), false);
      writeFileSync(file, '{ "model": "opus", // mine\n}');
      assert.throws(() => installHooksInFile(file, hookEntries('claude-settings', 'claude-code', CMD)), /settings\.json is not valid JSON/);
      assert.equal(readFileSync(file, 'utf8'), '{ "model": "opus", // mine\n}', 'left as it was');
    } finally { temp.cleanup(); }
  });
});

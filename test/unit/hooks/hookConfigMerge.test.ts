import { strict as assert } from 'node:assert';
import { HOOK_EVENTS, hookCommand, hookEntries, mergeHooks, shellQuote, unmergeHooks } from '../../../src/core/hooks/hookConfigMerge';
import { MemoryError } from '../../../src/core/errors';

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
    assert.deepEqual(after.hooks.SessionStart, [{ hooks: [{ type: 'command', command: CMD, timeout: 15 }] }]);
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
    assert.deepEqual(JSON.parse(text).hooks.UserPromptSubmit, [{ type: 'command', command: CMD, timeout: 15 }]);
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
});

/**
 * Which command lines dist/cli.js answers through the hook fast path (src/cli/hookFastPath.ts) and
 * which it hands to the full CLI: exactly the plain `hook` call the written hook configurations
 * run, with its store named; everything else (install, other flags, the service or the fast path
 * turned off, no store named) goes to the full CLI, which behaves as before.
 */
import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { fastHookPlan } from '../../../src/cli/hookFastPath';
import { hookCommand } from '../../../src/core/hooks/hookConfigMerge';

const NO_ENV = {};

describe('agents: the hook fast path of dist/cli.js', () => {
  it('takes the command line the hook configurations write', () => {
    const line = hookCommand({ node: '/usr/bin/node', cliJs: '/ext/dist/cli.js', harness: 'vscode', store: '/home/me/store' });
    assert.deepEqual(fastHookPlan(line.split(' ').slice(2), NO_ENV), { storeDir: '/home/me/store', harness: 'vscode' });
    // Connect Agents writes a launcher that runs `node dist/cli.js` with the same arguments (hookLauncher.ts).
    const launched = hookCommand({ launcher: '/home/me/.vscode/globalStorage/agent-memory/bin/agent-memory-hook', harness: 'claude-code', store: '/home/me/store' });
    assert.deepEqual(fastHookPlan(launched.split(' ').slice(1), NO_ENV), { storeDir: '/home/me/store', harness: 'claude-code' });
  });

  it('reads --store, --harness and --event in both spellings, in any order, and AGENT_MEMORY_STORE', () => {
    assert.deepEqual(fastHookPlan(['--store=rel/store', 'hook', '--event', 'Stop', '--harness=claude-code'], NO_ENV), { storeDir: resolve('rel/store'), event: 'Stop', harness: 'claude-code' });
    assert.deepEqual(fastHookPlan(['hook'], { AGENT_MEMORY_STORE: '/s' }), { storeDir: '/s' });
    assert.deepEqual(fastHookPlan(['hook', '--store', '/a'], { AGENT_MEMORY_STORE: '/s' }), { storeDir: '/a' }, 'the flag wins, as in the full CLI');
  });

  it('hands everything else to the full CLI', () => {
    const full: [string[], NodeJS.ProcessEnv][] = [
      [['hook', 'install', '--harness', 'claude-code', '--store', '/s'], NO_ENV],
      [['hook', 'uninstall', '--store', '/s'], NO_ENV],
      [['hook', '--harness', 'vscode'], NO_ENV], // no store named: the store-path setting decides
      [['hook', '--store', '/s', '--set', 'agents.inject=false'], NO_ENV],
      [['hook', '--store', '/s', '--workspace', '/w'], NO_ENV],
      [['hook', '--store', '/s', '--store', '/t'], NO_ENV],
      [['hook', '--store'], NO_ENV],
      [['hook', '--store', '--harness', 'vscode'], NO_ENV],
      [['hook', '--store='], NO_ENV],
      [['hook', 'hook', '--store', '/s'], NO_ENV],
      [['recall', '--store', '/s'], NO_ENV],
      [['hook-service', '--store', '/s'], NO_ENV],
      [['--store', '/s'], NO_ENV],
      [['hook', '--store', '/s'], { AGENT_MEMORY_HOOK_SERVICE: '0' }],
      [['hook', '--store', '/s'], { AGENT_MEMORY_HOOK_FAST_PATH: '0' }],
    ];
    for (const [argv, env] of full) assert.equal(fastHookPlan(argv, env), undefined, argv.join(' '));
  });
});

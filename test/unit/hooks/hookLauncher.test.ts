import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookCommand } from '../../../src/core/hooks/hookConfigMerge';
import { installedVersionsGlob, launcherFileName, launcherScript, writeLauncher } from '../../../src/core/hooks/hookLauncher';
import { makeTempDir } from '../helpers/tempDir';

/** A stand-in for one installed version's dist/cli.js: prints its version, its arguments and its stdin. */
function fakeVersion(extensions: string, version: string): string {
  const dist = join(extensions, `agent-memory.agent-memory-${version}`, 'dist');
  mkdirSync(dist, { recursive: true });
  const cli = join(dist, 'cli.js');
  writeFileSync(cli, `let s='';process.stdin.on('data',(c)=>s+=c).on('end',()=>console.log(${JSON.stringify(version)}, JSON.stringify(process.argv.slice(2)), s));\n`);
  return cli;
}

/** Runs a hook command the way a harness does: `sh -c <command>`, the payload on stdin. */
const sh = (command: string, input: string) => spawnSync('sh', ['-c', command], { input, encoding: 'utf8', timeout: 30_000 });

describe('hooks: the launcher hook commands name (survives extension updates)', () => {
  let temp: { dir: string; cleanup: () => void };
  beforeEach(() => { temp = makeTempDir('agent-memory-launcher-'); });
  afterEach(() => temp.cleanup());

  it('runs the CLI it names with the hook arguments and stdin; rewriting it for a new version is what activation does', async function () {
    if (process.platform === 'win32') this.skip();
    const extensions = join(temp.dir, "ext's");
    const storage = join(temp.dir, 'globalStorage', 'agent-memory.agent-memory');
    const v1 = fakeVersion(extensions, '0.1.0');
    const first = await writeLauncher(storage, { node: process.execPath, cliJs: v1 });
    assert.equal(first.changed, true);
    assert.equal(first.path, join(storage, 'bin', 'agent-memory-hook'));
    assert.equal(statSync(first.path).mode & 0o111, 0o111, 'executable');
    assert.deepEqual(await writeLauncher(storage, { node: process.execPath, cliJs: v1 }), { path: first.path, changed: false }, 'unchanged: not rewritten');
    const command = hookCommand({ launcher: first.path, store: join(temp.dir, 'my store'), harness: 'claude-code' });
    const r1 = sh(command, '{"hook_event_name":"Stop"}');
    assert.equal(r1.status, 0, r1.stderr);
    assert.equal(r1.stdout.trim(), `0.1.0 ${JSON.stringify(['hook', '--harness', 'claude-code', '--store', join(temp.dir, 'my store')])} {"hook_event_name":"Stop"}`);

    // The extension updates: 0.1.0's folder is gone, 0.2.0 is installed, VS Code has not started the extension yet.
    const v2 = fakeVersion(extensions, '0.2.0');
    rmSync(join(extensions, 'agent-memory.agent-memory-0.1.0'), { recursive: true });
    const r2 = sh(command, '{}');
    assert.equal(r2.status, 0, r2.stderr);
    assert.match(r2.stdout, /^0\.2\.0 /, 'the launcher found the installed version');
    // Activation rewrites it to name the running version directly; the hook command is unchanged.
    assert.equal((await writeLauncher(storage, { node: process.execPath, cliJs: v2 })).changed, true);
    assert.ok(launcherScript({ node: process.execPath, cliJs: v2 }).includes("agent-memory.agent-memory-0.2.0/dist/cli.js'\n"), 'names 0.2.0');
    assert.match(sh(command, '{}').stdout, /^0\.2\.0 /);

    // No CLI anywhere (uninstalled), or no Node: a message on stderr, exit 0, the agent carries on.
    rmSync(extensions, { recursive: true });
    const r3 = sh(command, '{}');
    assert.deepEqual([r3.status, r3.stdout], [0, '']);
    assert.match(r3.stderr, /bundled CLI or Node\.js was not found; open VS Code once/);
    const v3 = fakeVersion(extensions, '0.3.0');
    await writeLauncher(storage, { node: join(temp.dir, 'no-node'), cliJs: v3 });
    const r4 = sh(command, '{}');
    assert.deepEqual([r4.status, r4.stdout], [0, '']);
  });

  it('knows other installed versions only beside a versioned install folder', () => {
    assert.deepEqual(installedVersionsGlob('/home/me/.vscode/extensions/agent-memory.agent-memory-0.1.0-linux-x64/dist/cli.js'), { dir: '/home/me/.vscode/extensions', prefix: 'agent-memory.agent-memory' });
    assert.equal(installedVersionsGlob('/work/agent-memory/dist/cli.js'), undefined, 'a development checkout');
    assert.doesNotMatch(launcherScript({ node: '/usr/bin/node', cliJs: '/work/agent-memory/dist/cli.js', platform: 'linux' }), /for c in/);
  });

  it('writes a .cmd for Windows with the same fallback and exit 0 (content only: no Windows here)', () => {
    assert.equal(launcherFileName('win32'), 'agent-memory-hook.cmd');
    const text = launcherScript({ node: 'C:\\Program Files\\nodejs\\node.exe', cliJs: 'C:\\Users\\me\\.vscode\\extensions\\agent-memory.agent-memory-0.1.0\\dist\\cli.js', platform: 'win32' });
    assert.match(text, /^@echo off\r\n/);
    assert.match(text, /set "AM_CLI=C:\\Users\\me\\\.vscode\\extensions\\agent-memory\.agent-memory-0\.1\.0\\dist\\cli\.js"/);
    assert.match(text, /for \/d %%D in \("C:\\Users\\me\\\.vscode\\extensions\\agent-memory\.agent-memory-\*"\)/);
    assert.match(text, /exit \/b 0/);
    assert.match(text, /"%AM_NODE%" "%AM_CLI%" %\*\r\n$/);
    assert.match(launcherScript({ node: 'C:\\n%1\\node.exe', cliJs: 'C:\\x\\cli.js', platform: 'win32' }), /AM_NODE=C:\\n%%1\\node\.exe/, 'a % in a path is not expanded');
  });
});

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as NpmEnvModule from '../../../scripts/vscode/npmEnv.mjs' with { 'resolution-mode': 'import' };

// The harness runs inside `npm test` / `npm start`; the toolchain's own npm must not inherit the
// outer npm's state (scripts/vscode/npmEnv.mjs). These tests run a real nested `npm run`.

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** What an outer npm running on an older Node exports to its scripts. */
const OUTER_NPM_STATE = {
  npm_config_user_agent: 'npm/10.0.0 node/v20.0.0 linux x64 workspaces/false',
  npm_node_execpath: '/old/node/bin/node',
  NODE: '/old/node/bin/node',
  npm_config_local_prefix: '/somewhere/else',
  npm_lifecycle_event: 'test',
  npm_package_name: 'outer',
  INIT_CWD: '/somewhere/else',
};

describe('harness: the toolchain npm environment', function () {
  this.timeout(60_000);
  let mod: typeof NpmEnvModule;
  let dir: string;
  before(async () => {
    mod = await import('../../../scripts/vscode/npmEnv.mjs');
    dir = mkdtempSync(join(tmpdir(), 'agent-memory-npmenv-'));
    // A script that prints what a nested npm tells its own child scripts about Node.
    writeFileSync(join(dir, 'package.json'), JSON.stringify({
      name: 'probe', version: '1.0.0', private: true,
      scripts: { probe: 'node -e "process.stdout.write(JSON.stringify({ua: process.env.npm_config_user_agent, prefix: process.env.npm_config_local_prefix, pkg: process.env.npm_package_name}))"' },
    }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function nestedRun(env: NodeJS.ProcessEnv): { ua: string; prefix: string; pkg: string } {
    const r = spawnSync(npm, ['run', '--silent', 'probe'], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { ua: string; prefix: string; pkg: string };
  }

  it('without cleaning, a nested npm reports the outer Node (the failure newcomers saw)', () => {
    const seen = nestedRun({ ...process.env, ...OUTER_NPM_STATE });
    assert.match(seen.ua, /node\/v20\.0\.0/);
  });

  it('with cleaning, a nested npm reports the Node it runs under and its own prefix', () => {
    const seen = nestedRun(mod.withoutInheritedNpmState({ ...process.env, ...OUTER_NPM_STATE }));
    assert.match(seen.ua, new RegExp(`node/${process.version.replace(/\./g, '\\.')}`));
    assert.equal(seen.prefix, dir);
    assert.equal(seen.pkg, 'probe');
  });

  it('drops only process-derived npm state and keeps settings a person configured', () => {
    const cleaned = mod.withoutInheritedNpmState({
      ...OUTER_NPM_STATE,
      npm_config_registry: 'https://registry.example.test/',
      npm_config_cafile: '/etc/ssl/ca.pem',
      npm_config_https_proxy: 'http://proxy.test:3128',
      PATH: '/bin',
      HOME: '/home/me',
    });
    assert.deepEqual(Object.keys(cleaned).sort(), ['HOME', 'PATH', 'npm_config_cafile', 'npm_config_https_proxy', 'npm_config_registry']);
  });
});

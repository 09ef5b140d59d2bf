// One workbench session for a test layer: throwaway profile, VSIX installs, code-server, headless
// Chromium; always torn down (browser, server process group, leftover check), with the server and
// extension host logs copied to test-results/ before the profile is deleted. The session runs
// with a temp folder of its own (TMPDIR for the harness, code-server, the extension host and
// Chromium; scripts/tempGuard.cjs): a test that leaves one of our folders in it fails the layer.
import { copyFileSync, cpSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { launchBrowser } from './browser.mjs';
import { createProfile, extensionHostLog, extensionHostLogTail, installExtension, processesMentioning, removeProfile, startCodeServer } from './codeServer.mjs';
import { HarnessError, secondsSince } from './proc.mjs';
import { paths, repoRoot } from './toolchain.mjs';

const require = createRequire(import.meta.url);
const { createRunTemp, leftoverMessage, leftoversIn, removeRunTemp } = require('../tempGuard.cjs');

export const DEMO_WORKSPACE = join(repoRoot, 'test', 'fixtures', 'demoWorkspace');

const log = (msg) => console.log(`[vscode-harness] ${msg}`);

/** Copies the demo workspace into the profile, so tests never modify the repository. */
export function copyDemoWorkspace(profile) {
  const target = join(profile.dir, 'workspace');
  cpSync(DEMO_WORKSPACE, target, { recursive: true });
  return target;
}

function keepLogs(profile, layer) {
  mkdirSync(paths.testResults, { recursive: true });
  const kept = [];
  if (existsSync(profile.serverLog)) {
    const to = join(paths.testResults, `${layer}-server.log`);
    copyFileSync(profile.serverLog, to);
    kept.push(to);
  }
  const exthost = extensionHostLog(profile);
  if (exthost) {
    const to = join(paths.testResults, `${layer}-exthost.log`);
    copyFileSync(exthost, to);
    kept.push(to);
  }
  return kept;
}

/**
 * Runs body({profile, server, page, browser, workspace}) against a fresh workbench.
 * options: layer (name for logs), vsixes (installed before start), smokeTestDriver, env (extra
 * server env, or a function of the profile returning it), settings (user settings over the quiet ones).
 * Returns body's result; the teardown errors (a process left behind) fail the run.
 */
export async function withWorkbench(options, body) {
  const { layer, vsixes = [], smokeTestDriver = false, env = {}, settings = {} } = options;
  const temp = useRunTemp(layer);
  let profile;
  try {
    profile = createProfile(layer, settings);
  } catch (err) {
    temp.restore();
    removeRunTemp(temp.dir);
    throw err;
  }
  let server;
  let browser;
  let result;
  let bodyError;
  try {
    for (const vsix of vsixes) {
      const t = Date.now();
      await installExtension(profile, vsix);
      log(`installed ${vsix.replace(`${repoRoot}/`, '')} in ${secondsSince(t)} s`);
    }
    const workspace = copyDemoWorkspace(profile);
    const t = Date.now();
    server = await startCodeServer(profile, { smokeTestDriver, env: typeof env === 'function' ? env(profile) : env });
    log(`code-server ready on ${server.url} in ${secondsSince(t)} s (pid ${server.pid}, profile ${profile.dir})`);
    browser = await launchBrowser(profile);
    result = await body({ profile, server, page: browser.page, browser, workspace });
  } catch (err) {
    bodyError = err;
    if (server) console.error(extensionHostLogTail(profile));
  }
  const teardownError = await teardown(profile, layer, server, browser, temp);
  if (bodyError) {
    if (teardownError) console.error(`[vscode-harness] teardown also failed: ${teardownError.message}`);
    throw bodyError;
  }
  if (teardownError) throw teardownError;
  return result;
}

/**
 * Points os.tmpdir() (and every process started from here on) at a new run temp folder; restore()
 * puts the previous TMPDIR back.
 */
function useRunTemp(layer) {
  const before = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
  const dir = createRunTemp(layer);
  for (const key of Object.keys(before)) process.env[key] = dir;
  return {
    dir,
    restore() {
      for (const [key, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    },
  };
}

/** Closes the browser, stops the server group, keeps the logs; returns an error if anything remains. */
async function teardown(profile, layer, server, browser, temp) {
  if (browser) await browser.close();
  let stopError;
  if (server) await server.stop().catch((err) => { stopError = err; });
  const kept = keepLogs(profile, layer);
  if (kept.length) log(`logs kept: ${kept.map((f) => f.replace(`${repoRoot}/`, '')).join(', ')}`);
  const left = processesMentioning(profile.dir);
  const error = stopError ?? (left.length ? new HarnessError(`processes left behind: ${left.map((p) => `${p.pid} ${p.cmdline}`).join('; ')}`) : undefined);
  temp.restore();
  if (error) return error;
  removeProfile(profile);
  log('stopped: no code-server or browser process of this run remains');
  const leftover = leftoverMessage(temp.dir, leftoversIn(temp.dir));
  removeRunTemp(temp.dir);
  if (leftover) return new HarnessError(leftover);
  log('no temp folder of this run remains');
  return undefined;
}

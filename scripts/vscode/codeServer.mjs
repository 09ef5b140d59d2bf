// Runs code-server (the real VS Code workbench + Node extension host) for tests and the launcher:
// a throwaway profile (user data, extensions, config, XDG dirs), VSIX installs before start, a
// server bound to 127.0.0.1 in its own process group, readiness via /healthz, and a stop that
// kills the whole group and verifies nothing of it remains.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { URLSearchParams } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessError, groupAlive, killGroup, runStep, tail } from './proc.mjs';
import { TIMEOUTS, paths } from './toolchain.mjs';
import { node24Env } from './install.mjs';

/** User settings that keep the workbench quiet and offline-friendly. */
export const QUIET_SETTINGS = Object.freeze({
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
});

const QUIET_FLAGS = Object.freeze([
  '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
  '--disable-getting-started-override', '--ignore-last-opened', '--reconnection-grace-time', '5',
]);

/**
 * A throwaway profile: every folder code-server would otherwise take from the home folder.
 * settings: extra user settings merged over QUIET_SETTINGS.
 */
export function createProfile(label = 'vscode', settings = {}) {
  const dir = mkdtempSync(join(tmpdir(), `agent-memory-${label}-`));
  const profile = {
    dir,
    userData: join(dir, 'user-data'),
    extensions: join(dir, 'extensions'),
    config: join(dir, 'config.yaml'),
    xdgConfig: join(dir, 'xdg', 'config'),
    xdgData: join(dir, 'xdg', 'data'),
    xdgCache: join(dir, 'xdg', 'cache'),
    serverLog: join(dir, 'server.log'),
  };
  for (const d of [profile.userData, profile.extensions, profile.xdgConfig, profile.xdgData, profile.xdgCache, join(profile.userData, 'User')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(profile.userData, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2) + '\n');
  writeFileSync(profile.config, 'auth: none\ncert: false\n');
  return profile;
}

/** Removes a profile folder (its processes must be stopped first). */
export function removeProfile(profile) {
  rmSync(profile.dir, { recursive: true, force: true, maxRetries: 3 });
}

/** Environment for code-server: Node 24, throwaway XDG dirs, nothing inherited from a host VS Code. */
function serverEnv(profile, extra) {
  const env = node24Env({
    XDG_CONFIG_HOME: profile.xdgConfig,
    XDG_DATA_HOME: profile.xdgData,
    XDG_CACHE_HOME: profile.xdgCache,
    ...extra,
  });
  for (const key of Object.keys(env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE' || key.startsWith('npm_')) delete env[key];
  }
  return env;
}

function profileArgs(profile) {
  return ['--user-data-dir', profile.userData, '--extensions-dir', profile.extensions, '--config', profile.config];
}

/** Installs a VSIX into the profile (before the server starts). */
export async function installExtension(profile, vsix) {
  if (!existsSync(vsix)) throw new HarnessError(`Cannot install ${vsix}: file not found (was it packaged?)`);
  await runStep(paths.nodeBin, [paths.codeServerEntry, ...profileArgs(profile), '--install-extension', vsix], {
    env: serverEnv(profile, {}), timeoutMs: TIMEOUTS.installExtension, label: `code-server --install-extension ${vsix}`,
    hint: 'The VSIX may be malformed or declare an engines.vscode newer than the pinned code-server.',
  });
}

/** Resolves true when nothing listens on 127.0.0.1:port. */
export function portIsFree(port) {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolvePromise(true)));
  });
}

/** A port the OS reports free on 127.0.0.1. */
export function freePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const { port } = server.address();
      server.close(() => resolvePromise(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function healthy(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(3000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** Pids of live processes whose command line mentions marker (used to prove a clean stop). */
export function processesMentioning(marker) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(marker)) found.push({ pid: Number(entry), cmdline: cmdline.slice(0, 160) });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Newest extension host log of the profile (code-server writes it under user-data/logs). */
export function extensionHostLog(profile) {
  const logs = join(profile.userData, 'logs');
  if (!existsSync(logs)) return undefined;
  const candidates = readdirSync(logs, { recursive: true, encoding: 'utf8' })
    .filter((f) => /exthost\d*\.log$/.test(f))
    .map((f) => join(logs, f));
  candidates.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return candidates[0];
}

/** The last lines of the extension host log, or a note that there is none. */
export function extensionHostLogTail(profile, lines = 60) {
  const file = extensionHostLog(profile);
  if (!file) return `(no extension host log under ${join(profile.userData, 'logs')})`;
  return `--- ${file} (last ${lines} lines) ---\n${tail(readFileSync(file, 'utf8'), lines)}`;
}

/**
 * Starts code-server for a profile. options: port (fixed; fails clearly when busy), folder (opened
 * by default), smokeTestDriver (lets a page run extension tests via ?payload=), env (extra env for
 * the server and its extension host). Returns {port, url, pid, exited, stop()}.
 */
export async function startCodeServer(profile, options = {}) {
  const port = options.port ?? await freePort();
  if (!(await portIsFree(port))) {
    throw new HarnessError(`Port ${port} on 127.0.0.1 is busy. Stop whatever listens there or pick another port (--port N, or omit it for a free one).`);
  }
  const args = [
    paths.codeServerEntry, '--bind-addr', `127.0.0.1:${port}`, ...QUIET_FLAGS, ...profileArgs(profile),
    ...(options.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...(options.folder ? [options.folder] : []),
  ];
  const logFd = openSync(profile.serverLog, 'a');
  // detached: the child calls setsid(), so it leads a new session and process group (pgid = pid).
  const child = spawn(paths.nodeBin, args, { env: serverEnv(profile, options.env ?? {}), detached: true, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  let exited = null;
  let onExited;
  const exitedPromise = new Promise((resolvePromise) => { onExited = resolvePromise; });
  child.on('exit', (code, signal) => { exited = { code, signal }; onExited(exited); });
  const emergencyStop = () => killGroup(child.pid, 'SIGKILL');
  process.once('exit', emergencyStop);
  const serverLog = () => (existsSync(profile.serverLog) ? tail(readFileSync(profile.serverLog, 'utf8'), 30) : '');

  const server = {
    port,
    pid: child.pid,
    url: `http://127.0.0.1:${port}/`,
    profile,
    /** Resolves with {code, signal} when the main server process exits. */
    exited: exitedPromise,
    async stop() {
      process.removeListener('exit', emergencyStop);
      killGroup(child.pid, 'SIGTERM');
      const deadline = Date.now() + TIMEOUTS.serverStop;
      while (groupAlive(child.pid) && Date.now() < deadline) await sleep(200);
      if (groupAlive(child.pid)) killGroup(child.pid, 'SIGKILL');
      await sleep(300);
      // Anything started under the profile that escaped the group (it would keep files open).
      const stray = processesMentioning(profile.dir);
      for (const p of stray) { try { process.kill(p.pid, 'SIGKILL'); } catch { /* already gone */ } }
      if (stray.length) await sleep(300);
      const left = [...(groupAlive(child.pid) ? [{ pid: child.pid, cmdline: 'process group' }] : []), ...processesMentioning(profile.dir)];
      if (left.length) throw new HarnessError(`code-server did not stop cleanly; still running: ${left.map((p) => `${p.pid} ${p.cmdline}`).join('; ')}`);
    },
  };

  const deadline = Date.now() + TIMEOUTS.serverReady;
  while (!(await healthy(port))) {
    if (exited) {
      const log = serverLog();
      const busy = /EADDRINUSE/.test(log);
      throw new HarnessError(busy
        ? `Port ${port} on 127.0.0.1 is busy (code-server: EADDRINUSE). Pick another port.`
        : `code-server exited before it was ready (${exited.signal ?? `exit code ${exited.code}`}).\n--- ${profile.serverLog} ---\n${log}`);
    }
    if (Date.now() > deadline) {
      await server.stop().catch(() => undefined);
      throw new HarnessError(`code-server was not ready on ${server.url}healthz within ${TIMEOUTS.serverReady / 1000} s.\n--- ${profile.serverLog} ---\n${serverLog()}`);
    }
    await sleep(250);
  }
  return server;
}

/** The workbench URL opening folder, optionally with an extension-test payload. */
export function workbenchUrl(server, { folder, payload } = {}) {
  const params = new URLSearchParams();
  if (folder) params.set('folder', folder);
  if (payload) params.set('payload', JSON.stringify(payload));
  const query = params.toString();
  return `${server.url}${query ? `?${query}` : ''}`;
}

/** A vscode-remote URI for a path on the server (payload values must be remote URIs). */
export function remoteUri(server, absPath) {
  return `vscode-remote://127.0.0.1:${server.port}${absPath}`;
}

// Where a webview's first open goes in a real code-server window (issue #27, "Fast panel"): times
// the smallest possible webview (test/fixtures/helloWebview) against the Knowledge panel, first and
// second open of a window, from a key press bound to the command (no palette typing) to the page's
// script and to the panel's list. Each open also records the webview frames' own timing (navigation
// and resource entries of pre/index.html and of the inner document) and the Agent Memory log lines,
// so the figures say which part is VS Code's webview start and which is the extension's work.
// Writes bench/results/firstWebview.json (or --out NAME.json). Run timing figures on a quiet machine, under
// `flock /tmp/agent-memory-quiet.lock`.
// Usage: node bench/firstWebview.mjs [--runs R] [--settle MS] [--restart-settle MS] [--memories 60|10000|0]
//   [--windows a,b,c]
//   [--vsix label=file.vsix,label=file.vsix]  (A/B: each window with Agent Memory runs once per VSIX,
//   interleaved; default: package this tree's extension)
//   windows: hello (hello only, no Agent Memory), panelFirst (Knowledge panel first, then hello),
//   helloFirst (hello first, then the Knowledge panel), helloReload / panelReturning (open, close,
//   reload the page, open again: a new window of the same browser session, its service worker
//   running; a panel open counts as a first open only when no webview was there before the key),
//   helloRestart / panelRestart (open, close, quit Chromium and code-server, start new ones on the
//   same profile folders and port, open again: a user who comes back after quitting the browser);
//   --restart-settle MS: wait after the workbench shows again after a restart (default: --settle's);
//   --settle: wait after the workbench shows
//   before the first open (the e2e opens about 5 s after; 20000 lets the extension's background
//   store open and model warm-up finish first). --memories 10000 copies the bench store built by
//   bench/knowledgePanelFirstOpen.ts (.cache/knowledge-bench/first-open/10000).
/* global document -- page.evaluate callbacks run in the browser */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { build } from 'esbuild';
import { ensureToolchain } from '../scripts/vscode/install.mjs';
import { packageVsix } from '../scripts/vscode/vsix.mjs';
import { packageExtension } from '../scripts/package.mjs';
import { withWorkbench } from '../scripts/vscode/session.mjs';
import { processesMentioning, startCodeServer, workbenchUrl } from '../scripts/vscode/codeServer.mjs';
import { launchBrowser } from '../scripts/vscode/browser.mjs';
import { paths } from '../scripts/vscode/toolchain.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The same timeline reader as the e2e's (pre/index.html marks, inner document entries, our marks). */
const { formatTimeline, webviewTimeline } = await tsImport(pathToFileURL(join(root, 'test', 'e2e', 'webviewTiming.ts')).href, import.meta.url);
const arg = (name, fallback) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : fallback; };
const RUNS = Number(arg('--runs', '1'));
const SETTLE_MS = Number(arg('--settle', '5000'));
const RESTART_SETTLE_MS = Number(arg('--restart-settle', String(SETTLE_MS)));
const MEMORIES = Number(arg('--memories', '60'));
const WINDOWS = arg('--windows', 'hello,panelFirst,helloFirst').split(',').filter(Boolean);
const HELLO_DIR = join(root, 'test', 'fixtures', 'helloWebview');
const SEED = join(root, 'test', 'fixtures', 'demoWorkspace', '.agent-memory-seed.jsonl');
const STORE_SUBPATH = join('User', 'globalStorage', 'agent-memory.agent-memory', 'store');
const BENCH_10K = join(root, '.cache', 'knowledge-bench', 'first-open', '10000', 'store');
const KEYS = { hello: 'ctrl+alt+shift+h', panel: 'ctrl+alt+shift+k', close: 'ctrl+alt+shift+w' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// VS Code keeps which editors are open in browser storage, written after a change when idle:
// without this wait before a reload a closed panel came back restored.
const STATE_WRITE_MS = 10_000;
const load = () => loadavg().map((x) => +x.toFixed(2));

async function helloVsix() {
  await build({ entryPoints: [join(HELLO_DIR, 'src', 'extension.ts')], outfile: join(HELLO_DIR, 'dist', 'extension.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'warning' });
  return (await packageVsix(HELLO_DIR, join(paths.vsixDir, 'hello-webview.vsix'), { withDependencies: false })).file;
}

/** The demo's 60 memories ingested with the CLI once per bench run (as the e2e seeds them), copied into each window. */
let demoStore;
const BENCH_TMP = tmpdir(); // taken before withWorkbench points TMPDIR at the run's own folder (which must end empty)
function demoSeed() {
  if (demoStore) return demoStore;
  const dir = join(mkdtempSync(join(BENCH_TMP, 'am-first-webview-')), 'store');
  const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), '--store', dir, 'ingest', SEED], { encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`seeding failed: ${r.stderr}`);
  process.on('exit', () => rmSync(dirname(dir), { recursive: true, force: true }));
  demoStore = dir;
  return dir;
}

/** The store of the window before it starts: the demo's 60 memories (CLI ingest) or the bench's 10k store. */
function seedStore(profile) {
  const dir = join(profile.userData, STORE_SUBPATH);
  if (MEMORIES === 0) return;
  if (MEMORIES === 60) {
    mkdirSync(dirname(dir), { recursive: true });
    cpSync(demoSeed(), dir, { recursive: true });
    return;
  }
  if (!existsSync(BENCH_10K)) throw new Error(`${BENCH_10K} is missing: run node bench/knowledgePanel.mjs --first-open-only once (it builds it)`);
  mkdirSync(dirname(dir), { recursive: true });
  cpSync(BENCH_10K, dir, { recursive: true });
}

/** Polls every frame for what shows the open is done; returns {frame, at, value}. */
async function waitInFrames(page, probe, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      const value = await f.evaluate(probe).catch(() => undefined);
      if (value) return { frame: f, at: Date.now(), value };
    }
    await sleep(25);
  }
  throw new Error('timed out waiting for the webview');
}

/** Agent Memory log lines of the window with their epoch time (the channel logs local time). */
function agentLog(profile) {
  const logs = join(profile.userData, 'logs');
  if (!existsSync(logs)) return [];
  return readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((p) => /Agent Memory\.log$/.test(p))
    .flatMap((f) => readFileSync(join(logs, f), 'utf8').split('\n'))
    .map((l) => { const m = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[(\w+)\] (.*)$/.exec(l); return m ? { at: new Date(m[1].replace(' ', 'T')).getTime(), text: m[3] } : undefined; })
    .filter(Boolean);
}

/** utime+stime (ms) of the window's processes, by role: every descendant of the server and of Chromium. */
function cpuByRole(profile, serverPid) {
  const procs = new Map();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(e), { ppid: Number(f[1]), ms: (Number(f[11]) + Number(f[12])) * 10, cmd: readFileSync(`/proc/${e}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch { /* ended */ }
  }
  const chromeRoots = [...procs].filter(([, p]) => p.cmd.includes(join(profile.dir, 'chromium')) && !/--type=/.test(p.cmd)).map(([pid]) => pid);
  const under = (rootPid, pid) => { for (let q = pid; q > 1; q = procs.get(q)?.ppid ?? 0) if (q === rootPid) return true; return false; };
  const roles = { extensionHost: 0, server: 0, chromiumRenderers: 0, chromiumOther: 0 };
  for (const [pid, p] of procs) {
    if (under(serverPid, pid)) roles[/extensionHost/.test(p.cmd) ? 'extensionHost' : 'server'] += p.ms;
    else if (chromeRoots.some((r) => under(r, pid))) roles[/--type=renderer/.test(p.cmd) ? 'chromiumRenderers' : 'chromiumOther'] += p.ms;
  }
  return roles;
}
const cpuDelta = (a, b) => Object.fromEntries(Object.keys(b).map((k) => [k, b[k] - (a[k] ?? 0)]));

async function press(page, key) {
  await page.locator('.monaco-workbench').click({ position: { x: 600, y: 10 } }).catch(() => undefined);
  await page.keyboard.press(key.split('+').map((k) => (k.length === 1 ? k.toUpperCase() : k[0].toUpperCase() + k.slice(1))).join('+').replace('Ctrl', 'Control'));
}

/** VS Code's webview frames in the workbench (a closed editor's webview is disposed with it). */
const webviewCount = (page) => page.locator('iframe.webview').count().catch(() => -1);

async function openHello(page) {
  const webviewsBefore = await webviewCount(page);
  const t0 = Date.now();
  await press(page, KEYS.hello);
  const done = await waitInFrames(page, () => document.getElementById('timing')?.textContent || undefined);
  const host = JSON.parse(done.value);
  return { kind: 'hello', keyAt: t0, webviewsBefore, shownMs: done.at - t0, commandMs: host.commandAt - t0, htmlSetMs: host.htmlSetAt - t0, scriptMs: host.scriptAt - t0, readyAtHostMs: host.readyAt - t0, timeline: await webviewTimeline(done.frame, t0) };
}

async function openPanel(page, profile) {
  // A first open in this window needs no panel there already (not one VS Code restored after a reload).
  const webviewsBefore = await webviewCount(page);
  const t0 = Date.now();
  await press(page, KEYS.panel);
  const script = await waitInFrames(page, () => (document.querySelector('.list-meta') ? 'script' : undefined));
  const list = await waitInFrames(page, () => (/\d+ entit/.test(document.querySelector('.list-meta')?.textContent ?? '') && document.querySelector('.list .row:not(.placeholder)') ? document.querySelector('.list-meta').textContent : undefined));
  const timeline = await webviewTimeline(list.frame, t0);
  await sleep(300);
  const lines = agentLog(profile).filter((l) => l.at >= t0 - 50);
  const at = (re) => { const l = lines.find((x) => re.test(x.text)); return l ? l.at - t0 : undefined; };
  const first = lines.find((l) => /first list/.test(l.text))?.text;
  return {
    kind: 'panel', keyAt: t0, webviewsBefore, list: list.value, scriptSeenMs: script.at - t0, listShownMs: list.at - t0,
    commandMs: at(/opening in an editor tab/), firstListLogMs: at(/first list/), firstListLine: first, timeline,
  };
}

/** Closes every editor, checking that the webviews went (the key can land in a webview frame). */
async function closeEditors(page) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await press(page, KEYS.close);
    await sleep(1_500);
    if (await webviewCount(page) === 0) return true;
  }
  return false;
}

/** Opens the workbench on the demo workspace copy; returns when its activity bar shows. */
async function showWorkbench(page, server, workspace) {
  await page.goto(workbenchUrl(server, { folder: workspace }), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
  await page.locator('.activitybar').waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Quits Chromium and then code-server (the server's stop kills whatever of the profile is left,
 * so the browser goes first, gracefully, to write its profile to disk) and starts new ones on the
 * same profile folders: Chromium's user-data-dir, code-server's user-data and extensions dirs.
 * The server keeps its port: the page's origin, and with it the browser storage and the webview
 * service worker registration VS Code made on the first open, stay the same.
 * Replaces session.server/browser/page; returns what the restart took.
 */
async function restartSession(session, profile, workspace) {
  const t0 = Date.now();
  await session.browser.close();
  const browserLeft = processesMentioning(join(profile.dir, 'chromium'));
  if (browserLeft.length) throw new Error(`Chromium did not quit: ${browserLeft.map((p) => p.pid).join(' ')}`);
  await session.server.stop();
  const quitMs = Date.now() - t0;
  session.server = await startCodeServer(profile, { port: session.server.port });
  const serverStartMs = Date.now() - t0 - quitMs;
  session.browser = await launchBrowser(profile);
  session.page = session.browser.page;
  session.browserStartedAt = Date.now();
  await showWorkbench(session.page, session.server, workspace);
  return { quitMs, serverStartMs, workbenchAfterBrowserStartMs: Date.now() - session.browserStartedAt, webviewsAtWorkbench: await webviewCount(session.page) };
}

const PLANS = {
  hello: { vsixes: ['hello'], steps: ['hello', 'hello'] },
  panelFirst: { vsixes: ['hello', 'agentMemory'], steps: ['panel', 'panel', 'hello'] },
  helloFirst: { vsixes: ['hello', 'agentMemory'], steps: ['hello', 'hello', 'panel', 'panel'] },
  // A reload of the same page: the browser keeps the webview service worker VS Code registered on the
  // first open, as a browser that opened code-server before does.
  // The reload gives a new window with a new extension host (the store not open, the panel not shown).
  helloReload: { vsixes: ['hello'], steps: ['hello', 'reload', 'hello'] },
  panelReturning: { vsixes: ['hello', 'agentMemory'], steps: ['panel', 'reload', 'panel'] },
  // Quit the browser and the server, start both again on the same profile: the registration of the
  // service worker is on disk, the worker not running; a new extension host as after a reload.
  helloRestart: { vsixes: ['hello'], steps: ['hello', 'restart', 'hello'] },
  panelRestart: { vsixes: ['hello', 'agentMemory'], steps: ['panel', 'restart', 'panel'] },
};
/** Which open of a window this is: in the first page, after a reload, after a browser restart. */
const openAfter = (o) => (o.afterReload ? 'reload' : o.afterRestart ? 'restart' : undefined);

/**
 * One window of a plan: keybindings and store, the workbench, the settle, then each step (an open,
 * a page reload, a browser restart) against session (the page, server and browser in use).
 */
async function runWindow(plan, window, session, workspace, profile) {
  writeFileSync(join(profile.userData, 'User', 'keybindings.json'), JSON.stringify([
    { key: KEYS.hello, command: 'helloWebview.open' },
    { key: KEYS.panel, command: 'agentMemory.openKnowledgePanelInEditor' },
    { key: KEYS.close, command: 'workbench.action.closeAllEditors' },
  ]));
  if (plan.vsixes.includes('agentMemory')) seedStore(profile);
  const opened = Date.now();
  await showWorkbench(session.page, session.server, workspace);
  window.workbenchMs = Date.now() - opened;
  const settleCpu = cpuByRole(profile, session.server.pid);
  await sleep(SETTLE_MS);
  window.settleCpuMs = cpuDelta(settleCpu, cpuByRole(profile, session.server.pid));
  let after;
  for (const step of plan.steps) {
    if (step === 'reload') {
      await sleep(STATE_WRITE_MS);
      await session.page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
      await session.page.locator('.activitybar').waitFor({ state: 'visible', timeout: 90_000 });
      await sleep(SETTLE_MS);
      after = 'reload';
      continue;
    }
    if (step === 'restart') {
      // The same wait as before a reload: the closed editor must not come back restored.
      await sleep(STATE_WRITE_MS);
      window.restart = await restartSession(session, profile, workspace);
      console.log(`${window.window} run ${window.run + 1}: restarted: quit ${window.restart.quitMs} ms, server ready ${window.restart.serverStartMs} ms, workbench ${window.restart.workbenchAfterBrowserStartMs} ms after Chromium started, ${window.restart.webviewsAtWorkbench} webview(s)`);
      await sleep(RESTART_SETTLE_MS);
      after = 'restart';
      continue;
    }
    const cpuBefore = cpuByRole(profile, session.server.pid);
    const o = step === 'hello' ? await openHello(session.page) : await openPanel(session.page, profile);
    o.cpuMs = cpuDelta(cpuBefore, cpuByRole(profile, session.server.pid));
    o.nth = window.opens.filter((x) => x.kind === step && openAfter(x) === after).length + 1;
    if (after === 'reload') o.afterReload = true;
    if (after === 'restart') o.afterRestart = true;
    // Against the browser's start, to tell a wait on Chromium's own startup from one on the key.
    o.keyAfterBrowserStartMs = o.keyAt - session.browserStartedAt;
    window.opens.push(o);
    console.log(`${window.window}${window.variant ? ` [${window.variant}]` : ''} run ${window.run + 1}: ${step} #${o.nth}${after ? ` after a ${after}` : ''}: key ${o.keyAfterBrowserStartMs} ms after Chromium started; cpu ${JSON.stringify(o.cpuMs)}; ${o.webviewsBefore ? `${o.webviewsBefore} webview(s) before the key; ` : ''}${step === 'hello' ? `command at ${o.commandMs} ms, script ran at ${o.scriptMs} ms, shown ${o.shownMs} ms` : `command at ${o.commandMs} ms, script seen ${o.scriptSeenMs} ms, list "${o.list}" ${o.listShownMs} ms; ${o.firstListLine ?? ''}`}`);
    for (const l of formatTimeline(o.timeline)) console.log(`    ${l}`);
    o.closedAfter = await closeEditors(session.page);
    if (!o.closedAfter) console.log('    (the editors did not close: a later open in this window is not a first open)');
  }
  const lines = agentLog(profile);
  window.agentLog = lines.filter((l) => /activated in|store open at|embedding model|Knowledge panel: /.test(l.text)).map((l) => ({ ms: l.at - opened, text: l.text.slice(0, 200) }));
}

await ensureToolchain();
const hello = await helloVsix();
const variants = arg('--vsix', '') ? arg('--vsix', '').split(',').map((x) => { const [label, file] = x.split('='); if (!file || !existsSync(file)) throw new Error(`--vsix ${x}: no such file`); return { label, file }; })
  : WINDOWS.some((w) => PLANS[w]?.vsixes.includes('agentMemory')) ? [{ label: 'this tree', file: (await packageExtension()).file }] : [];
const results = { settleMs: SETTLE_MS, restartSettleMs: RESTART_SETTLE_MS, memories: MEMORIES, runs: RUNS, variants, loadAverageAtStart: load(), windows: [] };
const out = join(root, 'bench', 'results', arg('--out', 'firstWebview.json'));
for (let run = 0; run < RUNS; run++) {
  for (const [name, variant] of WINDOWS.flatMap((w) => (PLANS[w]?.vsixes.includes('agentMemory') ? variants.map((v) => [w, v]) : [[w, undefined]]))) {
    const plan = PLANS[name];
    if (!plan) throw new Error(`unknown window ${name} (${Object.keys(PLANS).join(', ')})`);
    const window = { window: name, variant: variant?.label, run, loadBefore: load(), opens: [] };
    const vsixes = plan.vsixes.map((v) => (v === 'hello' ? hello : variant.file));
    await withWorkbench({ layer: 'bench', vsixes }, async ({ page, server, browser, workspace, profile }) => {
      // The browser was launched just before this body runs (browserStartedAt: when the launch
      // returned, as after a restart); a restart replaces all three.
      const session = { page, server, browser, browserStartedAt: Date.now() };
      try {
        await runWindow(plan, window, session, workspace, profile);
      } finally {
        // withWorkbench stops the first server and browser only.
        if (session.server !== server) {
          await session.browser.close();
          await session.server.stop();
        }
      }
    });
    window.loadAfter = load();
    results.windows.push(window);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
  }
}

// Medians per window, variant and open: command reached the host, VS Code's webview steps, our script, the list.
const median = (xs) => { const v = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b); return v.length ? v[Math.floor((v.length - 1) / 2)] : undefined; };
const groups = new Map();
for (const w of results.windows) {
  for (const o of w.opens) {
    const key = `${w.window}${w.variant ? ` [${w.variant}]` : ''}: ${o.kind} #${o.nth}${o.afterReload ? ' after a reload' : ''}${o.afterRestart ? ' after a browser restart' : ''}${o.webviewsBefore > 0 ? ' (a webview was already there: not a first open)' : ''}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(o);
  }
}
results.summary = [...groups].map(([key, os]) => {
  const step = (name) => median(os.map((o) => o.timeline.steps[name]));
  return {
    open: key, n: os.length, commandMs: median(os.map((o) => o.commandMs)), contentStartedMs: step('content/started'), workerReadyMs: step('content/workerReady'),
    wroteInnerContentMs: step('content/wroteInnerContent'), scriptMs: os[0].kind === 'hello' ? median(os.map((o) => o.scriptMs)) : step('knowledge/scriptStart'),
    shownMs: median(os.map((o) => (o.kind === 'hello' ? o.shownMs : o.listShownMs))), firstRowsMs: step('knowledge/firstRows'),
    // Where the key and the worker's readiness fall after Chromium started (browser startup work).
    keyAfterBrowserStartMs: median(os.map((o) => o.keyAfterBrowserStartMs)),
    workerReadyAfterBrowserStartMs: median(os.map((o) => (o.timeline.steps['content/workerReady'] === undefined ? undefined : o.keyAfterBrowserStartMs + o.timeline.steps['content/workerReady']))),
  };
});
writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
for (const r of results.summary) console.log(`${r.open} (median of ${r.n}): command ${r.commandMs} ms, content sent ${r.contentStartedMs}, service worker ready ${r.workerReadyMs}, document written ${r.wroteInnerContentMs}, script ${r.scriptMs}, ${r.firstRowsMs !== undefined ? `first rows ${r.firstRowsMs}, ` : ''}shown ${r.shownMs} ms; key ${r.keyAfterBrowserStartMs} and service worker ready ${r.workerReadyAfterBrowserStartMs} ms after Chromium started`);
console.log(`written ${out.replace(`${root}/`, '')}; load ${results.loadAverageAtStart.join(' ')} -> ${load().join(' ')}`);

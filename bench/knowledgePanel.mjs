// Renders the Knowledge panel bundle in headless Chromium with a fake host and 10,000 synthetic
// entities; prints render figures (median/p95) and writes bench/results/knowledgePanel.json plus
// screenshots (dark, light, high contrast; narrow sidebar and wide editor tab) into
// test-results/knowledge-panel/. Usage: node bench/knowledgePanel.mjs [--entities N] [--chromium PATH]
// [--first-open-runs R] [--first-open-sizes 60,10000] [--first-open-only]
// First open (issue #27): for stores of 60 (the demo seed) and 10,000 memories, built once under
// .cache/knowledge-bench/first-open/ by bench/knowledgePanelFirstOpen.ts, R fresh processes each open
// the engine as the window does and time the panel's first list (host half), and Chromium times the
// webview bundle from navigation to its first rows (webview half); their sum is the first open
// without VS Code's own webview creation. Load average before and after each size.
import * as esbuild from 'esbuild';
/* global window, document, requestAnimationFrame -- page.evaluate callbacks run in the browser */
import { chromium } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { THEMES } from './knowledgePanelThemes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : fallback; };
const N = Number(arg('--entities', '10000'));
const executablePath = arg('--chromium', process.env.CHROMIUM_PATH || '/usr/bin/chromium');
if (!existsSync(executablePath)) { console.error(`Chromium not found at ${executablePath} (apt-get install chromium, or --chromium PATH)`); process.exit(1); }

const work = join(root, '.cache', 'knowledge-bench');
const shots = join(root, 'test-results', 'knowledge-panel');
mkdirSync(work, { recursive: true });
mkdirSync(shots, { recursive: true });
await esbuild.build({ entryPoints: [join(root, 'webview', 'knowledge.ts')], bundle: true, format: 'iife', target: 'es2022', outfile: join(work, 'knowledge.js'), logLevel: 'warning' });
const fakeHost = readFileSync(join(root, 'bench', 'knowledgePanelFakeHost.js'), 'utf8');

function html(theme, config) {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<style>html { ${Object.entries(THEMES[theme].vars).map(([k, v]) => `${k}: ${v};`).join(' ')} } html { background: var(--vscode-sideBar-background); }</style>
<link rel="stylesheet" href="${pathToFileURL(join(root, 'media', 'knowledge.css'))}">
<script>window.__benchConfig = ${JSON.stringify(config)};
window.__rafTimes = []; const __raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => __raf((t) => { const s = performance.now(); cb(t); window.__rafTimes.push(performance.now() - s); });
${fakeHost}</script></head><body class="${THEMES[theme].bodyClass}"><main id="root"></main>
<script src="${pathToFileURL(join(work, 'knowledge.js'))}"></script>
</body></html>`;
}

async function open(browser, theme, config, viewport) {
  const file = join(work, `${theme}-${config.pageAll ? 'all' : 'paged'}.html`);
  writeFileSync(file, html(theme, config));
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  await page.goto(pathToFileURL(file).toString());
  await page.waitForSelector('.row:not(.placeholder)');
  return { page, errors };
}

const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return { n: s.length, median: +q(0.5).toFixed(3), p95: +q(0.95).toFixed(3), max: +(s[s.length - 1] ?? 0).toFixed(3) };
};

const FIRST_OPEN_RUNS = Number(arg('--first-open-runs', '3'));
const FIRST_OPEN_SIZES = arg('--first-open-sizes', '60,10000').split(',').map(Number).filter((n) => n > 0);
const load = () => loadavg().map((x) => +x.toFixed(2));
const tsx = (args) => spawnSync(process.execPath, ['--require', 'tsx/cjs', join(root, 'bench', 'knowledgePanelFirstOpen.ts'), ...args], { cwd: root, encoding: 'utf8', timeout: 1_800_000 });

/** Host half of the first open, per store size (fresh process per run). */
function firstOpenHost(memories) {
  const dir = join(root, '.cache', 'knowledge-bench', 'first-open', String(memories));
  const filled = tsx(['--fill', dir, '--memories', String(memories)]);
  if (filled.status !== 0) throw new Error(`filling the ${memories}-memory store failed: ${filled.stderr}`);
  const runs = [];
  const loadBefore = load();
  for (let i = 0; i < FIRST_OPEN_RUNS; i++) {
    const r = tsx(['--child', dir]);
    if (r.status !== 0) throw new Error(`first-open run failed: ${r.stderr}`);
    runs.push(JSON.parse(r.stdout.trim().split('\n').pop()));
  }
  return { runs, loadAverage: [loadBefore, load()] };
}

const FIRST_OPEN_ONLY = process.argv.includes('--first-open-only');
/** Written after each phase, so a later phase that fails on a busy machine keeps the figures. */
function saveResults() {
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'knowledgePanel.json'), JSON.stringify(results, null, 2) + '\n');
}

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
const results = { entities: N, chromium: browser.version(), loadAverageAtStart: load() };
try {
  // 0. First open (issue #27): host half in fresh processes, webview half in Chromium.
  results.firstOpen = [];
  for (const memories of FIRST_OPEN_SIZES) {
    const host = firstOpenHost(memories);
    const entities = host.runs[0]?.entities ?? 0;
    const webviewMs = [];
    for (let run = 0; run < FIRST_OPEN_RUNS; run++) {
      const { page } = await open(browser, 'dark', { entities: Math.max(1, entities), pageAll: false }, { width: 900, height: 700 });
      webviewMs.push(await page.evaluate(() => performance.now()));
      await page.close();
    }
    const hostStat = stat(host.runs.map((r) => r.firstListMs));
    const webStat = stat(webviewMs);
    const entry = {
      memories, entities, runs: FIRST_OPEN_RUNS,
      storeOpenMs: stat(host.runs.map((r) => r.openMs)), hostFirstListMs: hostStat, webviewFirstRowsMs: webStat,
      firstOpenMedianMs: Math.round(hostStat.median + webStat.median),
      modelWarmDoneMs: stat(host.runs.map((r) => r.warmDoneMs)), messageOrder: host.runs[0]?.order, loadAverage: host.loadAverage,
    };
    results.firstOpen.push(entry);
    saveResults();
    console.log(`first open at ${memories} memories (${entities} entities): store open ${entry.storeOpenMs.median} ms, first list ${hostStat.median} ms, webview first rows ${webStat.median} ms => ${entry.firstOpenMedianMs} ms (median of ${FIRST_OPEN_RUNS}); model warm done at ${entry.modelWarmDoneMs.median} ms; load ${host.loadAverage.map((l) => l.join(' ')).join(' -> ')}`);
  }

  if (FIRST_OPEN_ONLY) throw Object.assign(new Error('first open only'), { skipRest: true });
  // 1. All N entities in one page message (the worst case the protocol allows).
  const firstLoads = [];
  let domRows = 0;
  for (let run = 0; run < 5; run++) {
    const { page } = await open(browser, 'dark', { entities: N, pageAll: true }, { width: 900, height: 700 });
    const t = await page.evaluate(() => window.__pageTimes[0]);
    firstLoads.push(t.ms);
    domRows = await page.locator('.row').count();
    await page.close();
  }
  results.singlePageLoad = { rows: N, decodeAndRenderMs: stat(firstLoads), domRows };

  // 2. Paged (the real mode): scroll through the whole list, timing each frame's render work.
  const { page, errors } = await open(browser, 'dark', { entities: N, pageAll: false }, { width: 900, height: 700 });
  const scroll = await page.evaluate(async () => {
    const list = document.querySelector('.list');
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    window.__rafTimes.length = 0;
    const steps = 200;
    for (let i = 0; i <= steps; i++) {
      list.scrollTop = (list.scrollHeight - list.clientHeight) * (i / steps);
      await frame();
      await new Promise((r) => setTimeout(r, 0));
      await frame();
    }
    return { frames: window.__rafTimes.slice(), domRows: document.querySelectorAll('.row').length, placeholders: document.querySelectorAll('.row.placeholder').length, pages: window.__pageTimes.length };
  });
  results.pagedScroll = { frameRenderMs: stat(scroll.frames), domRowsAtEnd: scroll.domRows, placeholdersAtEnd: scroll.placeholders, pagesLoaded: scroll.pages, pageMessageMs: stat(await page.evaluate(() => window.__pageTimes.map((p) => p.ms))) };
  // Keyboard: Home, then End jumps to the last row.
  await page.evaluate(() => { document.querySelector('.list').scrollTop = 0; });
  await page.locator('.list .row[tabindex="0"]').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('End');
  await page.waitForTimeout(100);
  results.keyboard = { activeAfterEnd: await page.evaluate(() => document.activeElement?.getAttribute('aria-posinset')) };
  results.consoleErrors = errors;
  results.loadAverageAtEnd = load();
  await page.close();

  // 3. Screenshots.
  for (const theme of Object.keys(THEMES)) {
    for (const [label, viewport] of [['wide', { width: 1000, height: 640 }], ['narrow', { width: 340, height: 760 }]]) {
      const { page: p } = await open(browser, theme, { entities: 240, pageAll: false }, viewport);
      await p.locator('.row').nth(0).click();
      await p.waitForSelector('.detail h2');
      await p.locator('.row').nth(3).hover();
      await p.screenshot({ path: join(shots, `${theme}-${label}-entities.png`) });
      await p.locator('#tab-overview').click();
      await p.screenshot({ path: join(shots, `${theme}-${label}-overview.png`) });
      await p.locator('#tab-recall').click();
      await p.fill('#panel-recall input', 'how do we run the tests?');
      await p.keyboard.press('Enter');
      await p.waitForSelector('.result');
      await p.locator('.why').first().evaluate((d) => { d.open = true; });
      await p.screenshot({ path: join(shots, `${theme}-${label}-recall.png`) });
      await p.close();
    }
  }
} catch (e) {
  if (!e.skipRest) throw e;
} finally {
  await browser.close();
}
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'knowledgePanel.json'), JSON.stringify(results, null, 2) + '\n');
console.log(JSON.stringify(results, null, 2));
console.log(`screenshots: ${shots}`);

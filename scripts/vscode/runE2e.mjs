// e2e layer: Playwright (playwright-core + Debian Chromium) against the code-server workbench with
// the packaged extension VSIX (and the fake language model) installed. Runs the tests exported as
// `tests` from test/e2e/*.e2e.ts in order, in one workbench session (tests marked `fakeModel: false`
// in a second session without the fake model, as a VS Code with no chat model); screenshots go to
// test-results/e2e-*.png. Prints "e2e: N passed, N failed" and records the counts.
// Usage: node scripts/vscode/runE2e.mjs [name filter]
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { ensureToolchain } from './install.mjs';
import { mib, packageFakeLanguageModel } from './vsix.mjs';
import { withWorkbench } from './session.mjs';
import { workbenchUrl } from './codeServer.mjs';
import { HarnessError, secondsSince } from './proc.mjs';
import { TIMEOUTS, paths, repoRoot } from './toolchain.mjs';
import { packageExtension } from '../package.mjs';
import { checkVsix } from './vsixCheck.mjs';

const require = createRequire(import.meta.url);
const { writeResult } = require('../testResults.cjs');
const LAYER = 'e2e';
/**
 * User settings of the e2e profile: chat sessions end after one idle minute (the shortest the
 * setting allows), so the whole-loop test sees a session end and its feedback within a test.
 */
const E2E_SETTINGS = Object.freeze({ 'agentMemory.sessions.idleTimeoutMinutes': 1 });
const E2E_DIR = join(repoRoot, 'test', 'e2e');
/**
 * The fake language model's script file (FAKE_LM_SCRIPT, read on every request; absent: default
 * rules). It lives in the profile, so a spec scripts the model's answers by writing it
 * (E2eContext.fakeModelScript) and the teardown removes it with the profile.
 */
const fakeModelScript = (profile) => join(profile.dir, 'fake-lm-script.json');

async function loadTests(filter) {
  const files = readdirSync(E2E_DIR).filter((f) => f.endsWith('.e2e.ts')).sort();
  const tests = [];
  for (const f of files) {
    const mod = await tsImport(pathToFileURL(join(E2E_DIR, f)).href, import.meta.url);
    if (!Array.isArray(mod.tests)) throw new HarnessError(`${f} must export "tests" (an array of {name, run})`);
    tests.push(...mod.tests.map((t) => ({ ...t, file: f })));
  }
  return filter ? tests.filter((t) => t.name.includes(filter)) : tests;
}

/**
 * Spec files that run in a window (and profile) of their own: they leave chats, pending requests,
 * dialogs, editors or captured memories behind that the other specs do not expect (the chat
 * history's sign-in dialog, a long chat, the demo's 60 memories), or need a store of their own.
 * Every other spec shares one window, in file order, as before (some build on earlier ones).
 */
const OWN_WINDOW = new Set(['chatHistory.e2e.ts', 'demoFirstLook.e2e.ts', 'panelCaptured.e2e.ts', 'wholeLoop.e2e.ts', 'whyAndDocuments.e2e.ts', 'zDemoConflicts.e2e.ts']);

/** The shared window's specs first, then one group per own-window file. */
function windowsOf(tests) {
  const shared = tests.filter((t) => !OWN_WINDOW.has(t.file));
  const own = [...new Set(tests.filter((t) => OWN_WINDOW.has(t.file)).map((t) => t.file))].map((f) => tests.filter((t) => t.file === f));
  return [shared, ...own].filter((g) => g.length > 0);
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function runTests(tests, { page, server, workspace, profile }) {
  mkdirSync(paths.testResults, { recursive: true });
  const screenshot = async (name) => {
    const file = join(paths.testResults, `e2e-${name}.png`);
    await page.screenshot({ path: file });
    console.log(`  screenshot: ${file.replace(`${repoRoot}/`, '')}`);
    return file;
  };
  const webview = (extensionId) => page.frameLocator(`iframe.webview[src*="extensionId=${extensionId}"]`).frameLocator('#active-frame');
  const ctx = { page, screenshot, webview, profileDir: profile.dir, fakeModelScript: fakeModelScript(profile) };
  await page.goto(workbenchUrl(server, { folder: workspace }), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  let passed = 0;
  let failed = 0;
  for (const test of tests) {
    const t = Date.now();
    try {
      await withTimeout(test.run(ctx), TIMEOUTS.e2eStep * 2, `"${test.name}"`);
      passed += 1;
      console.log(`  ✓ ${test.name} (${secondsSince(t)} s)`);
    } catch (err) {
      failed += 1;
      const where = String(err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l) && !l.includes('data:text')).slice(0, 3);
      console.log(`  ✗ ${test.name} (${secondsSince(t)} s)\n    ${[...String(err.message ?? err).split('\n').slice(0, 12), ...where].join('\n    ')}`);
      await screenshot(`FAILED-${test.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`).catch(() => undefined);
    }
  }
  return { passed, failed };
}

async function main() {
  const started = Date.now();
  const filter = process.argv.slice(2).join(' ');
  const toolchain = await ensureToolchain();
  const tests = await loadTests(filter);
  if (tests.length === 0) throw new HarnessError(`no e2e tests match "${filter}"`);
  const vsix = await packageExtension();
  const withModel = tests.filter((t) => t.fakeModel !== false);
  const withoutModel = tests.filter((t) => t.fakeModel === false);
  const fakeLm = withModel.length ? await packageFakeLanguageModel() : undefined;
  const suiteStarted = Date.now();
  const counts = { passed: 0, failed: 0 };
  // The VSIX as shipped: what it carries and that both model loaders run from it alone (vsixCheck.mjs).
  const vsixChecks = await checkVsix(vsix.file);
  for (const c of vsixChecks.checks) {
    console.log(`  ${c.ok ? '✓' : '✗'} vsix: ${c.name}${c.ok ? '' : `\n    ${c.detail}`}`);
    counts[c.ok ? 'passed' : 'failed'] += 1;
  }
  console.log(`  VSIX ${mib(vsixChecks.vsixBytes)}, installed ${(vsixChecks.installedBytes / 1e6).toFixed(1)} MB`);
  const windows = [...windowsOf(withModel).map((g) => [g, [fakeLm, vsix.file]]), ...windowsOf(withoutModel).map((g) => [g, [vsix.file]])];
  for (const [group, vsixes] of windows) {
    if (group.length === 0) continue;
    if (vsixes.length === 1) console.log('  (without the fake language model)');
    else if (OWN_WINDOW.has(group[0].file)) console.log(`  (a window of its own: ${group[0].file})`);
    const c = await withWorkbench({ layer: LAYER, vsixes, settings: E2E_SETTINGS, env: (profile) => ({ FAKE_LM_SCRIPT: fakeModelScript(profile) }) }, (session) => runTests(group, session));
    counts.passed += c.passed;
    counts.failed += c.failed;
  }
  const ms = Date.now() - suiteStarted;
  writeResult(LAYER, { ...counts, skipped: 0, ms, installMs: toolchain.installMs, vsixBytes: vsix.bytes });
  console.log(`e2e suite (install VSIX, server start to stop) took ${(ms / 1000).toFixed(1)} s; whole layer ${secondsSince(started)} s; VSIX ${mib(vsix.bytes)}`);
  console.log(`e2e: ${counts.passed} passed, ${counts.failed} failed`);
  process.exitCode = counts.failed === 0 && counts.passed > 0 ? 0 : 1;
}

main().catch((err) => {
  console.error(`\n[vscode-harness] e2e layer failed: ${err.message}`);
  writeResult(LAYER, { passed: 0, failed: 1, skipped: 0, ms: 0, error: err.message });
  console.log('e2e: 0 passed, 1 failed');
  process.exitCode = 1;
});

// Integration layer: runs test/integration (mocha run() inside the real VS Code extension host)
// through code-server. The workbench page is opened with ?payload=[extensionDevelopmentPath,
// extensionTestsPath]; the smoke-test driver calls codeAutomationExit(code) when run() settles.
// Prints "integration: N passed, N failed" and records the counts (scripts/testResults.cjs).
// Env: AGENT_MEMORY_TEST_GREP=<pattern> runs only matching tests.
// --vsix: runs the suite on the packaged VSIX instead of the repo (production build, vsce, unpacked
// into a temp folder that becomes the extension development path; docs/packaging.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ensureToolchain } from './install.mjs';
import { buildIntegrationTests } from './buildIntegrationTests.mjs';
import { packageFakeLanguageModel } from './vsix.mjs';
import { withWorkbench } from './session.mjs';
import { remoteUri, workbenchUrl } from './codeServer.mjs';
import { HarnessError, secondsSince, tail } from './proc.mjs';
import { TIMEOUTS, paths, repoRoot } from './toolchain.mjs';
import { ensureExtensionBuilt } from './extensionBuild.mjs';
import { packageExtension } from '../package.mjs';

const require = createRequire(import.meta.url);
const { writeResult } = require('../testResults.cjs');
const RESULT_LINE_PREFIX = 'AGENT_MEMORY_INTEGRATION_RESULT ';
const LAYER = 'integration';

/** Console text of the page; extension host output arrives here (console forwarding). */
function consoleText(msg) {
  return msg.text().replace(/%c/g, '').replace(/\s*color:[^;]*;?/g, '').trim();
}

async function runSuite({ profile, server, page, workspace }, testsIndex, resultsFile, browserLog) {
  const lines = [];
  let fallbackCounts;
  let exitCode;
  let onExit;
  const exited = new Promise((resolvePromise) => { onExit = resolvePromise; });
  await page.exposeFunction('codeAutomationExit', (code) => { exitCode = code; onExit(code); });
  // Extension host console output reaches the page through the smoke-test driver's log hook.
  const onLine = (text) => {
    const at = text.indexOf(RESULT_LINE_PREFIX);
    if (at >= 0) fallbackCounts = JSON.parse(text.slice(at + RESULT_LINE_PREFIX.length).split('\n')[0]);
    else if (text.includes('[integration]')) console.log(text.slice(text.indexOf('[integration]')));
  };
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? args.join(' ') : String(args);
    lines.push(`[automation ${type}] ${text}`);
    onLine(text);
  });
  page.on('console', (msg) => lines.push(`[${msg.type()}] ${consoleText(msg)}`));
  page.on('pageerror', (err) => lines.push(`[pageerror] ${err.message}`));
  const payload = [
    ['extensionDevelopmentPath', remoteUri(server, extensionDir())],
    ['extensionTestsPath', remoteUri(server, testsIndex.replace(/\.js$/, ''))],
    ['skipWelcome', 'true'],
  ];
  const t = Date.now();
  await page.goto(workbenchUrl(server, { folder: workspace, payload }), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new HarnessError(`the integration suite did not finish within ${TIMEOUTS.integrationRun / 1000} s (no codeAutomationExit call)`)), TIMEOUTS.integrationRun);
  });
  try {
    await Promise.race([exited, timeout]);
  } finally {
    clearTimeout(timer);
    writeFileSync(browserLog, lines.join('\n') + '\n');
  }
  console.log(`[vscode-harness] extension host finished with exit code ${exitCode} after ${secondsSince(t)} s`);
  const results = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : undefined;
  if (!results && !fallbackCounts) {
    throw new HarnessError(`the suite reported no results (exit code ${exitCode}); the extension host may have failed to load the tests. Browser console: ${browserLog}`);
  }
  return { exitCode, results: results ?? { ...fallbackCounts, tests: [] }, profile };
}

/** After a failure: the tail of the extension host log (kept in test-results/ by the session). */
function printKeptExtensionHostLog() {
  const file = join(paths.testResults, `${LAYER}-exthost.log`);
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    console.log(`\n--- ${file} (last 60 lines) ---\n${tail(text, 60)}`);
    const activation = /Activating extension agent-memory\.agent-memory failed due to an error:\n.*?\[error\] (.*)/.exec(text);
    if (activation) console.log(`\nThe Agent Memory extension FAILED TO ACTIVATE: ${activation[1]}`);
  } else console.log('(no extension host log was written: the extension host may not have started)');
}

/** The folder the extension host loads the extension from: the repo, or another one (env, --vsix). */
function extensionDir() {
  return process.env.AGENT_MEMORY_EXTENSION_DIR || repoRoot;
}

/** Packages the VSIX and unpacks it; returns the temp folder holding `extension/`. */
async function unpackedVsix() {
  const vsix = await packageExtension();
  const dir = mkdtempSync(join(tmpdir(), 'am-integration-vsix-'));
  const r = spawnSync('unzip', ['-q', vsix.file, 'extension/*', '-d', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new HarnessError(`unzip ${vsix.file} failed: ${r.stderr}`);
  console.log(`[vscode-harness] integration runs on the packaged VSIX, unpacked in ${dir}`);
  return dir;
}

async function main() {
  const started = Date.now();
  const toolchain = await ensureToolchain();
  const vsixDir = process.argv.includes('--vsix') ? await unpackedVsix() : undefined;
  if (vsixDir) process.env.AGENT_MEMORY_EXTENSION_DIR = join(vsixDir, 'extension');
  else await ensureExtensionBuilt();
  // The tests live inside the extension's folder: VS Code hands each extension's files its own
  // `vscode` API object, and tests that stub window.showErrorMessage must share the extension's.
  const runDir = join(extensionDir(), 'out', 'test', `integration-run-${process.pid}`);
  const { index } = await buildIntegrationTests(runDir);
  // mocha stays external (buildIntegrationTests.mjs): outside the repo it resolves through a link.
  if (extensionDir() !== repoRoot) {
    mkdirSync(join(runDir, 'node_modules'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules', 'mocha'), join(runDir, 'node_modules', 'mocha'));
  }
  const fakeLm = await packageFakeLanguageModel();
  mkdirSync(paths.testResults, { recursive: true });
  const browserLog = join(paths.testResults, 'integration-browser.log');
  const suiteStarted = Date.now();
  try {
    const resultsFileOf = (profile) => join(profile.dir, 'integration-results.json');
    const env = (profile) => ({ AGENT_MEMORY_TEST_RESULTS: resultsFileOf(profile), ...(process.env.AGENT_MEMORY_TEST_GREP ? { AGENT_MEMORY_TEST_GREP: process.env.AGENT_MEMORY_TEST_GREP } : {}) });
    const outcome = await withWorkbench({ layer: LAYER, vsixes: [fakeLm], smokeTestDriver: true, env },
      (session) => runSuite(session, index, resultsFileOf(session.profile), browserLog));
    const { results, exitCode } = outcome;
    for (const test of results.tests.filter((x) => x.state === 'failed')) console.log(`\nFAILED: ${test.title}\n${test.error}`);
    if (results.failed > 0 || exitCode !== 0) printKeptExtensionHostLog();
    if (results.nodeVersion) console.log(`integration: extension host ran Node ${results.nodeVersion} in VS Code ${results.vscodeVersion}`);
    const ms = Date.now() - suiteStarted;
    const failed = results.failed + (exitCode !== 0 && results.failed === 0 ? 1 : 0);
    writeResult(LAYER, { passed: results.passed, failed, skipped: results.skipped ?? 0, ms, installMs: toolchain.installMs });
    console.log(`integration suite (server start to stop) took ${(ms / 1000).toFixed(1)} s; whole layer ${secondsSince(started)} s`);
    console.log(`integration: ${results.passed} passed, ${failed} failed${results.skipped ? `, ${results.skipped} skipped` : ''}`);
    process.exitCode = failed === 0 && results.passed > 0 ? 0 : 1;
  } finally {
    rmSync(runDir, { recursive: true, force: true });
    if (vsixDir) rmSync(vsixDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`\n[vscode-harness] integration layer failed: ${err.message}`);
  writeResult(LAYER, { passed: 0, failed: 1, skipped: 0, ms: 0, error: err.message });
  console.log('integration: 0 passed, 1 failed');
  process.exitCode = 1;
});

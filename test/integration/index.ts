/**
 * Entry point of the integration layer inside the real extension host (extensionTestsPath):
 * runs every compiled *.test.js next to this file with mocha and reports the counts. The runner
 * (scripts/vscode/runIntegration.mjs) reads them from the JSON file named by
 * AGENT_MEMORY_TEST_RESULTS and, as a fallback, from the RESULT_LINE_PREFIX console line.
 */
import Mocha from 'mocha';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

export const RESULT_LINE_PREFIX = 'AGENT_MEMORY_INTEGRATION_RESULT ';
const TEST_TIMEOUT_MS = 60_000;

interface TestOutcome {
  readonly title: string;
  readonly state: 'passed' | 'failed' | 'skipped';
  readonly ms: number;
  readonly error?: string;
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: TEST_TIMEOUT_MS, color: false, reporter: 'dot' });
  const grep = process.env.AGENT_MEMORY_TEST_GREP;
  if (grep) mocha.grep(grep);
  for (const f of readdirSync(__dirname).filter((name) => name.endsWith('.test.js')).sort()) mocha.addFile(join(__dirname, f));
  const outcomes: TestOutcome[] = [];
  const started = Date.now();
  console.log(`[integration] extension host: Node ${process.version}, VS Code ${vscode.version}, pid ${process.pid}`);
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const summary = {
        passed: runner.stats?.passes ?? 0,
        failed: runner.stats?.failures ?? failures,
        skipped: runner.stats?.pending ?? 0,
        ms: Date.now() - started,
        nodeVersion: process.version,
        vscodeVersion: vscode.version,
        tests: outcomes,
      };
      const file = process.env.AGENT_MEMORY_TEST_RESULTS;
      if (file) writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
      console.log(RESULT_LINE_PREFIX + JSON.stringify({ passed: summary.passed, failed: summary.failed, skipped: summary.skipped }));
      if (failures > 0 || summary.passed === 0) reject(new Error(`${failures} integration test(s) failed, ${summary.passed} passed`));
      else resolve();
    });
    const title = (t: Mocha.Runnable) => t.titlePath().join(' › ');
    runner.on('pass', (t) => { outcomes.push({ title: title(t), state: 'passed', ms: t.duration ?? 0 }); console.log(`[integration] ✓ ${title(t)}`); });
    runner.on('fail', (t, err: Error) => {
      outcomes.push({ title: title(t), state: 'failed', ms: t.duration ?? 0, error: err.stack ?? err.message });
      console.log(`[integration] ✗ ${title(t)}: ${err.message}`);
    });
    runner.on('pending', (t) => { outcomes.push({ title: title(t), state: 'skipped', ms: 0 }); });
  });
}

// The whole test suite: type check, lint, build, then each layer in turn
// (unit in Node, integration in the real extension host, e2e in the browser workbench).
// Every layer prints "LAYER: N passed, N failed"; this script ends with the total.
// Usage: node scripts/test.mjs [--only unit,integration,e2e] [--skip-static]
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { readResult, resultsDir } = require('./testResults.cjs');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const onlyArg = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] ?? '' : '';
const only = onlyArg ? new Set(onlyArg.split(',')) : undefined;

function step(title, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${title} ===`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`=== ${title}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${secs}s ===`);
  return r.status === 0;
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
let ok = true;
if (!argv.includes('--skip-static')) {
  ok = step('type check', npx, ['tsc', '--noEmit', '-p', 'tsconfig.json']) && ok;
  ok = step('type check (core, no vscode types)', npx, ['tsc', '--noEmit', '-p', 'tsconfig.core.json']) && ok;
  ok = step('type check (webview)', npx, ['tsc', '--noEmit', '-p', 'webview/tsconfig.json']) && ok;
  ok = step('lint', npx, ['eslint', '.']) && ok;
}
ok = step('build', process.execPath, ['scripts/build.mjs']) && ok;

const layers = [
  ['unit', ['scripts/runUnit.mjs']],
  ['integration', ['scripts/vscode/runIntegration.mjs']],
  ['e2e', ['scripts/vscode/runE2e.mjs']],
];
rmSync(resultsDir, { recursive: true, force: true });
let passed = 0;
let failed = 0;
for (const [layer, args] of layers) {
  if (only && !only.has(layer)) continue;
  const layerOk = step(layer, process.execPath, args);
  const counts = readResult(layer);
  if (!counts) {
    console.log(`${layer}: no result recorded (the layer did not run to completion)`);
    failed += 1;
    ok = false;
    continue;
  }
  passed += counts.passed;
  failed += counts.failed;
  ok = ok && layerOk;
}
console.log('');
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 && passed > 0 ? 0 : 1);

// Programmatic mocha run for the unit layer (loaded with tsx so .ts test files work).
const Mocha = require('mocha');
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const { writeResult } = require('./testResults.cjs');
const { RUN_TEMP_ENV, leftoverMessage, leftoversIn } = require('./tempGuard.cjs');

// Tests and everything they start use the run's temp folder (scripts/runUnit.mjs explains why it
// is set here and not by the runner).
if (process.env[RUN_TEMP_ENV]) for (const v of ['TMPDIR', 'TMP', 'TEMP']) process.env[v] = process.env[RUN_TEMP_ENV];
const root = process.env.AGENT_MEMORY_ROOT || join(__dirname, '..');
const grep = process.argv[2] || '';
const mocha = new Mocha({ reporter: 'spec', timeout: 20000, color: !process.env.CI });
if (grep) mocha.grep(grep);
/** Every *.test.ts below dir, sorted (Node 20 has no fs.globSync). */
function testFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts')).sort().map((f) => join(dir, f));
}
for (const f of testFiles(join(root, 'test', 'unit'))) mocha.addFile(f);
const started = Date.now();
const runner = mocha.run((failures) => {
  const { passes, pending } = runner.stats;
  let failed = runner.stats.failures;
  // Like a leftover process, a leftover temp folder fails the run (scripts/tempGuard.cjs).
  const runTemp = process.env[RUN_TEMP_ENV];
  const leftover = runTemp ? leftoverMessage(runTemp, leftoversIn(runTemp)) : undefined;
  if (leftover) {
    console.log(`\n  ✗ ${leftover}`);
    failed += 1;
  }
  writeResult('unit', { passed: passes, failed, skipped: pending, ms: Date.now() - started, ...(leftover ? { error: leftover } : {}) });
  console.log(`unit: ${passes} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
  process.exitCode = failures || leftover || passes === 0 ? 1 : 0;
});

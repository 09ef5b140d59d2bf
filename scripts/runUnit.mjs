// Runs the mocha unit suite (test/unit/**/*.test.ts) in plain Node with TypeScript through tsx,
// prints a plain "unit: N passed, N failed" line and records the counts for scripts/test.mjs.
// The suite runs with a temp folder of its own (scripts/tempGuard.cjs): mochaUnit.cjs fails the
// run when a test leaves one of our folders in it, and this script removes it afterwards.
// Extra arguments are passed as a grep pattern: `npm run test:unit -- store`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { RUN_TEMP_ENV, createRunTemp, removeRunTemp } = require('./tempGuard.cjs');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const grep = process.argv.slice(2).join(' ');
const runTemp = createRunTemp('unit');
let result;
try {
  result = spawnSync(process.execPath, ['--require', 'tsx/cjs', join(root, 'scripts', 'mochaUnit.cjs'), grep], {
    cwd: root,
    stdio: 'inherit',
    // The temp variables stay the system's until mochaUnit.cjs starts: tsx (preloaded) keeps its
    // compile cache below the temp folder it sees first, so the suite's TypeScript is compiled once,
    // not on every run; mochaUnit.cjs then moves the tests and their children into the run's folder.
    env: { ...process.env, AGENT_MEMORY_ROOT: root, [RUN_TEMP_ENV]: runTemp },
  });
} finally {
  removeRunTemp(runTemp);
}
process.exit(result?.status ?? 1);

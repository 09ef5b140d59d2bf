// Runs the mocha unit suite (test/unit/**/*.test.ts) in plain Node with TypeScript through tsx,
// prints a plain "unit: N passed, N failed" line and records the counts for scripts/test.mjs.
// Extra arguments are passed as a grep pattern: `npm run test:unit -- store`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const grep = process.argv.slice(2).join(' ');
const result = spawnSync(process.execPath, ['--require', 'tsx/cjs', join(root, 'scripts', 'mochaUnit.cjs'), grep], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, AGENT_MEMORY_ROOT: root },
});
process.exit(result.status ?? 1);

// The full build: generated assets (the default embedding model, when its script exists and the
// output is stale) and the esbuild bundles. Idempotent; cheap when nothing changed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (existsSync(join(root, 'scripts', 'buildModel.mjs'))) run(['scripts/buildModel.mjs']);
run(['esbuild.mjs', ...(production ? ['--production'] : []), '--quiet']);

// First step of `npm start` and `npm test`: installs the project's npm dependencies when they are
// missing or older than package-lock.json, so both README commands work on a fresh clone.
// onnxruntime-node's install script would fetch CUDA files; its CPU binaries ship in the tarball,
// so it is skipped (ONNXRUNTIME_NODE_INSTALL=skip).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs;
if (stale) {
  console.log('Installing npm dependencies (npm ci)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
    timeout: 30 * 60_000,
  });
  if (r.status !== 0) {
    console.error('npm ci failed: check the network access to the npm registry and try again.');
    process.exit(r.status ?? 1);
  }
}

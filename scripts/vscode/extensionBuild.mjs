// Makes sure the extension's bundles exist before a layer loads it (scripts/test.mjs builds first;
// a layer started on its own builds when dist/ is missing).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runStep } from './proc.mjs';
import { repoRoot } from './toolchain.mjs';

const BUILD_TIMEOUT_MS = 10 * 60_000;

export async function ensureExtensionBuilt({ production = false, force = false } = {}) {
  const built = existsSync(join(repoRoot, 'dist', 'extension.js')) && existsSync(join(repoRoot, 'dist', 'webview', 'knowledge.js'));
  if (built && !force) return;
  await runStep(process.execPath, [join(repoRoot, 'scripts', 'build.mjs'), ...(production ? ['--production'] : [])], {
    cwd: repoRoot, timeoutMs: BUILD_TIMEOUT_MS, label: 'node scripts/build.mjs', echo: true,
  });
}

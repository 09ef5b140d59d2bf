// Compiles the integration layer for the extension host: test/integration/index.ts and every
// test/integration/*.test.ts become out/test/integration/<name>.js (cjs bundles; vscode and mocha
// stay external: the host provides vscode, mocha resolves from the repo's node_modules).
// Also used by .vscode-test.mjs users: `node scripts/vscode/buildIntegrationTests.mjs`.
import { build } from 'esbuild';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { paths, repoRoot } from './toolchain.mjs';

export const INTEGRATION_SRC = join(repoRoot, 'test', 'integration');

/**
 * Builds into outDir (default out/test/integration). Test runs pass their own folder under out/
 * so runs started at the same time in one tree never delete each other's files.
 */
export async function buildIntegrationTests(outDir = paths.integrationOut) {
  const entries = readdirSync(INTEGRATION_SRC).filter((f) => f === 'index.ts' || f.endsWith('.test.ts')).sort();
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: entries.map((f) => join(INTEGRATION_SRC, f)),
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  // Bundled core code reads the entity tagger's weights from beside its bundle, as dist/ has them
  // (esbuild.mjs; src/core/extraction/entityMentions.ts).
  copyFileSync(join(repoRoot, 'src', 'core', 'extraction', 'entityTaggerWeights.json'), join(outDir, 'entityTaggerWeights.json'));
  return { dir: outDir, index: join(outDir, 'index.js'), files: entries.length - 1 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildIntegrationTests().then((r) => console.log(`integration tests compiled: ${r.files} test files in ${r.dir}`), (err) => {
    console.error(err.message);
    process.exit(1);
  });
}

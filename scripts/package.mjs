// Builds the extension for production and packages it as a VSIX with @vscode/vsce (run by the
// cached Node 24, installed on first use). Prints the VSIX path and size.
// By default the VSIX targets this machine's platform (vsce --target, e.g. linux-x64) and leaves out
// the other platforms' onnxruntime binaries; --universal packages one VSIX for every platform.
// Usage: node scripts/package.mjs [--universal] [--fixtures]   (--fixtures: also the fake LM VSIX)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureExtensionBuilt } from './vscode/extensionBuild.mjs';
import { EXTENSION_VSIX, currentTarget, mib, packageFakeLanguageModel, packageVsix } from './vscode/vsix.mjs';
import { paths, repoRoot } from './vscode/toolchain.mjs';

/** Production build + VSIX; returns {file, bytes, seconds, target}. */
export async function packageExtension({ universal = false } = {}) {
  await ensureExtensionBuilt({ production: true, force: true });
  const target = universal ? undefined : currentTarget();
  const out = universal ? join(paths.vsixDir, 'agent-memory-universal.vsix') : EXTENSION_VSIX;
  const result = await packageVsix(repoRoot, out, { withDependencies: true, target });
  console.log(`VSIX (${target ?? 'universal'}): ${result.file.replace(`${repoRoot}/`, '')}  ${mib(result.bytes)}  (vsce ${result.seconds} s)`);
  if (target) rmSync(join(paths.vsixDir, `.vscodeignore-${target}-${process.pid}`), { force: true });
  return { ...result, target };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await packageExtension({ universal: process.argv.includes('--universal') });
    if (process.argv.includes('--fixtures')) console.log(`fixture VSIX: ${(await packageFakeLanguageModel()).replace(`${repoRoot}/`, '')}`);
  } catch (err) {
    console.error(`packaging failed: ${err.message}`);
    process.exit(1);
  }
}

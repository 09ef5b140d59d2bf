// Builds the extension for production and packages it as a VSIX with @vscode/vsce (run by the
// cached Node 24, installed on first use). Prints the VSIX path and size.
// By default the VSIX targets this machine's platform (vsce --target, e.g. linux-x64) and leaves out
// the other platforms' onnxruntime binaries; --target packages one VSIX per named platform
// (out/vsix/agent-memory-<target>.vsix); --universal packages one VSIX for every platform.
// Usage: node scripts/package.mjs [--target linux-x64,darwin-arm64,...] [--universal] [--fixtures]
//   (--fixtures: also the fake LM VSIX)
// Platform VSIXes other than this machine's carry onnxruntime-node's binary for that platform (it
// ships them all) and the platform-independent model and wasm files. transformers.js (only the
// optional downloaded models use it) ships bundled as dist/transformers.js, without onnxruntime-web
// and sharp: docs/packaging.md. scripts/vscode/vsixCheck.mjs checks a packaged VSIX.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureExtensionBuilt } from './vscode/extensionBuild.mjs';
import { clearPacked, packAssets } from './vscode/packAssets.mjs';
import { EXTENSION_VSIX, currentTarget, mib, packageFakeLanguageModel, packageVsix } from './vscode/vsix.mjs';
import { paths, repoRoot } from './vscode/toolchain.mjs';

/** Production build + VSIX; returns {file, bytes, seconds, target}. */
export async function packageExtension({ universal = false, target: wanted, build = true } = {}) {
  if (build) await ensureExtensionBuilt({ production: true, force: true });
  const target = universal ? undefined : wanted ?? currentTarget();
  const out = universal ? join(paths.vsixDir, 'agent-memory-universal.vsix')
    : target === currentTarget() ? EXTENSION_VSIX : join(paths.vsixDir, `agent-memory-${target}.vsix`);
  // A platform VSIX ships the model and its runtime library packed (lossless; unpacked on first
  // use): docs/packaging.md, "Packed files". dist/packed is removed again once the VSIX is written.
  const leaveOut = target ? await packAssets(repoRoot, target) : (clearPacked(repoRoot), []);
  let result;
  try {
    result = await packageVsix(repoRoot, out, { withDependencies: true, target, leaveOut });
  } finally {
    clearPacked(repoRoot);
  }
  console.log(`VSIX (${target ?? 'universal'}): ${result.file.replace(`${repoRoot}/`, '')}  ${mib(result.bytes)}  (vsce ${result.seconds} s)`);
  if (target) rmSync(join(paths.vsixDir, `.vscodeignore-${target}-${process.pid}`), { force: true });
  return { ...result, target };
}

/** Platforms onnxruntime-node ships binaries for, as VS Code target names. */
export const VSCODE_TARGETS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const at = process.argv.indexOf('--target');
    const targets = at >= 0 ? (process.argv[at + 1] ?? '').split(',').filter(Boolean) : [];
    const unknown = targets.filter((t) => !VSCODE_TARGETS.includes(t));
    if (at >= 0 && (targets.length === 0 || unknown.length)) throw new Error(`--target takes a comma-separated list of ${VSCODE_TARGETS.join(', ')}`);
    if (targets.length) {
      let first = true;
      for (const target of targets) { await packageExtension({ target, build: first }); first = false; }
    } else {
      await packageExtension({ universal: process.argv.includes('--universal') });
    }
    if (process.argv.includes('--fixtures')) console.log(`fixture VSIX: ${(await packageFakeLanguageModel()).replace(`${repoRoot}/`, '')}`);
  } catch (err) {
    console.error(`packaging failed: ${err.message}`);
    process.exit(1);
  }
}

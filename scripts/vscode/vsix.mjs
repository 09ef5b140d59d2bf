// Packages VSIX files with @vscode/vsce (run by the cached Node 24): the Agent Memory extension
// and the test-only fixture extensions (the fake language model).
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { HarnessError, runStep, secondsSince } from './proc.mjs';
import { TIMEOUTS, paths, repoRoot } from './toolchain.mjs';
import { ensureVsce, node24Env, withInstallLock } from './install.mjs';

export const FAKE_LM_DIR = join(repoRoot, 'test', 'fixtures', 'fakeLanguageModel');
export const FAKE_LM_VSIX = join(paths.vsixDir, 'fake-language-model.vsix');
export const EXTENSION_VSIX = join(paths.vsixDir, 'agent-memory.vsix');

export function mib(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * vsce package for the extension folder dir into outFile. withDependencies lets vsce add the
 * production node_modules (runtime deps the bundle keeps external); without, --no-dependencies.
 */
export async function packageVsix(dir, outFile, { withDependencies, target, leaveOut = [] }) {
  await withInstallLock(ensureVsce);
  mkdirSync(paths.vsixDir, { recursive: true });
  // Package under a private name, then rename: concurrent runs never see a half-written VSIX.
  const partial = outFile.replace(/\.vsix$/, `.partial-${process.pid}.vsix`);
  rmSync(partial, { force: true });
  const t = Date.now();
  const args = [paths.vsceMain, 'package', '--out', partial, '--skip-license', '--allow-missing-repository', '--no-rewrite-relative-links', '--allow-star-activation',
    ...(withDependencies ? [] : ['--no-dependencies']),
    ...(target ? ['--target', target, '--ignoreFile', targetIgnoreFile(dir, target, leaveOut)] : [])];
  await runStep(paths.nodeBin, args, {
    cwd: dir, env: node24Env(), timeoutMs: TIMEOUTS.vscePackage, label: `vsce package (${dir})`,
    hint: 'Read the vsce output above; .vscodeignore decides what goes in.',
  });
  if (!existsSync(partial)) throw new HarnessError(`vsce reported success but ${partial} does not exist.`);
  renameSync(partial, outFile);
  return { file: outFile, bytes: statSync(outFile).size, seconds: secondsSince(t) };
}

/** The VS Code target of this machine (linux-x64, darwin-arm64, win32-x64, ...). */
export function currentTarget() {
  return `${process.platform}-${process.arch}`;
}

/**
 * .vscodeignore plus the native binaries of every other platform (onnxruntime-node ships all of
 * them, about 300 MB): the ignore file of a platform-specific VSIX (vsce --target). leaveOut: more
 * paths to leave out (the originals of the files packAssets.mjs packed into dist/packed).
 */
export function targetIgnoreFile(dir, target, leaveOut = []) {
  const [os, arch] = target.split('-');
  const lines = [readFileSync(join(dir, '.vscodeignore'), 'utf8'), `# added for --target ${target}`];
  const napi = join(dir, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6');
  for (const o of existsSync(napi) ? readdirSync(napi) : []) {
    for (const a of readdirSync(join(napi, o))) {
      if (o !== os || a !== arch) lines.push(`node_modules/onnxruntime-node/bin/napi-v6/${o}/${a}/**`);
    }
  }
  for (const p of leaveOut) lines.push(p);
  mkdirSync(paths.vsixDir, { recursive: true });
  const file = join(paths.vsixDir, `.vscodeignore-${target}-${process.pid}`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** Builds (esbuild) and packages the fake language model fixture; returns the VSIX path. */
export async function packageFakeLanguageModel() {
  await build({
    entryPoints: [join(FAKE_LM_DIR, 'src', 'extension.ts')],
    outfile: join(FAKE_LM_DIR, 'dist', 'extension.js'),
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'warning',
  });
  const result = await packageVsix(FAKE_LM_DIR, FAKE_LM_VSIX, { withDependencies: false });
  return result.file;
}

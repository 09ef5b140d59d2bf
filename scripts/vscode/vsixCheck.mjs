// Checks a packaged VSIX as a user gets it (docs/packaging.md): unpacks it into a temp folder and
//  1. lists what it carries: none of the packages the extension never loads (onnxruntime-web,
//     sharp/libvips, the transformers.js npm package: it ships bundled as dist/transformers.js),
//     and onnxruntime-node binaries for the VSIX's own platform only;
//  2. ships the model and the runtime library packed (dist/packed.json; docs/packaging.md, "Packed
//     files") and not as well unpacked;
//  3. embeds with the bundled default model through the unpacked CLI (dist/cli.js, its worker and
//     the shipped onnxruntime-node), with nothing else on the module path, which unpacks the packed
//     files first: each is then in place with its SHA-256, and its packed copy gone;
//  4. embeds with a Hugging Face folder model (the tiny BERT-shaped test fixture) through the same
//     CLI: the loader a downloaded model uses (dist/transformers.js) works from the VSIX alone.
// Prints one line per check and the VSIX / installed sizes. Used by the e2e layer (runE2e.mjs)
// after it packages; by hand: node scripts/vscode/vsixCheck.mjs [out/vsix/agent-memory.vsix] [--target linux-x64]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXTENSION_VSIX, currentTarget, mib } from './vsix.mjs';
import { repoRoot } from './toolchain.mjs';

/** Packages the VSIX must not carry (docs/packaging.md). */
const NOT_SHIPPED = ['onnxruntime-web', 'sharp', '@img', '@huggingface'];

function folderBytes(dir) {
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    bytes += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return bytes;
}

function embed(extensionDir, args) {
  // cwd is the temp folder, and no NODE_PATH: modules resolve from the unpacked extension only.
  const env = { ...process.env, NODE_PATH: '', AGENT_MEMORY_MODELS: '' };
  const r = spawnSync(process.execPath, [join(extensionDir, 'dist', 'cli.js'), 'embed', '--json', ...args], { cwd: join(extensionDir, '..'), env, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`cli embed ${args.join(' ')} exited ${r.status}: ${(r.stderr || r.stdout).slice(0, 600)}`);
  return JSON.parse(r.stdout);
}

/** Unpacks and checks `file`; returns { checks: [{name, ok, detail}], vsixBytes, installedBytes }. */
export async function checkVsix(file = EXTENSION_VSIX, { target = currentTarget() } = {}) {
  const temp = mkdtempSync(join(tmpdir(), 'agent-memory-vsix-check-'));
  const checks = [];
  const check = async (name, fn) => {
    try { checks.push({ name, ok: true, detail: await fn() }); } catch (e) { checks.push({ name, ok: false, detail: e.message }); }
  };
  try {
    const unzip = spawnSync('unzip', ['-q', file, 'extension/*', '-d', temp], { encoding: 'utf8' });
    if (unzip.status !== 0) throw new Error(`unzip ${file} failed: ${unzip.stderr}`);
    const ext = join(temp, 'extension');
    const installedBytes = folderBytes(ext);
    await check('the VSIX carries no package the extension never loads', () => {
      const present = NOT_SHIPPED.filter((p) => existsSync(join(ext, 'node_modules', p)));
      if (present.length) throw new Error(`shipped: ${present.join(', ')}`);
      if (!existsSync(join(ext, 'dist', 'transformers.js'))) throw new Error('dist/transformers.js (the bundled loader of downloaded models) is missing');
      return `none of ${NOT_SHIPPED.join(', ')}`;
    });
    await check(`onnxruntime-node binaries for ${target} only`, () => {
      const napi = join(ext, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6');
      const platforms = readdirSync(napi).flatMap((os) => readdirSync(join(napi, os)).map((arch) => `${os}-${arch}`));
      if (platforms.join() !== target) throw new Error(`binaries for ${platforms.join(', ')}`);
      return platforms.join();
    });
    const manifestFile = join(ext, 'dist', 'packed.json');
    const manifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : { files: [] };
    await check('the model and the runtime library ship packed, once', () => {
      const paths = manifest.files.map((f) => f.path);
      if (!paths.some((p) => p.endsWith('model.onnx')) || !paths.some((p) => p.includes('onnxruntime-node/bin/'))) throw new Error(`dist/packed.json lists ${JSON.stringify(paths)}`);
      const twice = manifest.files.filter((f) => existsSync(join(ext, f.path))).map((f) => f.path);
      if (twice.length) throw new Error(`shipped unpacked as well: ${twice.join(', ')}`);
      const missing = manifest.files.filter((f) => !existsSync(join(ext, f.packed))).map((f) => f.packed);
      if (missing.length) throw new Error(`packed copies missing: ${missing.join(', ')}`);
      return manifest.files.map((f) => `${f.packed.split('/').pop()} (${(statSync(join(ext, f.packed)).size / 1e6).toFixed(1)} MB → ${(f.bytes / 1e6).toFixed(1)} MB)`).join(', ');
    });
    if (target === currentTarget()) {
      await check('the bundled default model embeds from the unpacked VSIX (unpacking its packed files first)', () => {
        const t = Date.now();
        const [v] = embed(ext, ['the deploy port is 8080']);
        const seconds = ((Date.now() - t) / 1000).toFixed(1);
        if (v?.length !== 512) throw new Error(`expected one 512-d vector, got ${v?.length}`);
        for (const f of manifest.files) {
          const file = join(ext, f.path);
          if (!existsSync(file)) throw new Error(`${f.path} was not unpacked`);
          const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
          if (sha !== f.sha256) throw new Error(`${f.path} unpacked with SHA-256 ${sha}, expected ${f.sha256}`);
          if (existsSync(join(ext, f.packed))) throw new Error(`the packed copy ${f.packed} was left behind`);
        }
        const t2 = Date.now();
        embed(ext, ['the deploy port is 8080']);
        const again = ((Date.now() - t2) / 1000).toFixed(1);
        return `512-d vector, first embed with unpacking ${seconds} s (the next one ${again} s); ${manifest.files.length} files unpacked with their SHA-256; installed after first use ${(folderBytes(ext) / 1e6).toFixed(1)} MB`;
      });
      await check('a Hugging Face folder model (the download path) embeds through the bundled transformers.js', async () => {
        const fixture = join(temp, 'tiny-bert-fixture');
        const { writeTinyBert } = await import(pathToFileURL(join(repoRoot, 'test', 'fixtures', 'models', 'makeTinyBert.mjs')).href);
        writeTinyBert(fixture);
        const vectors = embed(ext, ['--model', fixture, 'what port', 'the database']);
        if (vectors.length !== 2 || vectors.some((v) => v.length !== 8)) throw new Error(`expected two 8-d vectors, got ${JSON.stringify(vectors).slice(0, 80)}`);
        return 'two 8-d vectors';
      });
    }
    return { checks, vsixBytes: statSync(file).size, installedBytes };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--target');
  const target = at >= 0 ? process.argv[at + 1] : currentTarget();
  const file = process.argv.slice(2).find((a, i, all) => a.endsWith('.vsix') && all[i - 1] !== '--target') ?? EXTENSION_VSIX;
  const { checks, vsixBytes, installedBytes } = await checkVsix(file, { target });
  for (const c of checks) console.log(`  ${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`);
  console.log(`VSIX ${mib(vsixBytes)}, installed ${(installedBytes / 1e6).toFixed(1)} MB (${target})`);
  const failed = checks.filter((c) => !c.ok).length;
  console.log(`vsix: ${checks.length - failed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

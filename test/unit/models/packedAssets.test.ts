import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { MemoryError } from '../../../src/core/errors';
import { createEmbedder } from '../../../src/core/models/createEmbedder';
import { isPackedTarget, packedManifestFor, planesDecode, planesEncode, unpackAssets } from '../../../src/core/models/packedAssets';
import type { PackedFile } from '../../../src/core/models/packedAssets';
import type * as PackScript from '../../../scripts/vscode/packAssets.mjs' with { 'resolution-mode': 'import' };

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Float-like data (the exponent bytes repeat, as in model weights) of n bytes. */
function floats(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i + 4 <= n; i += 4) b.writeFloatLE((Math.sin(i) * 0.05), i);
  if (n % 4) randomBytes(n % 4).copy(b, n - (n % 4));
  return b;
}

/** An extension folder with dist/packed.json and two packed files whose targets are missing. */
function makeExtension(root: string, model: Buffer, lib: Buffer): PackedFile[] {
  mkdirSync(join(root, 'dist', 'packed'), { recursive: true });
  writeFileSync(join(root, 'dist', 'packed', 'model.onnx.planes4'), planesEncode(model));
  writeFileSync(join(root, 'dist', 'packed', 'lib.so.br'), brotliCompressSync(lib));
  const files: PackedFile[] = [
    { path: 'models/m/onnx/model.onnx', packed: 'dist/packed/model.onnx.planes4', encoding: 'planes4', bytes: model.length, sha256: sha(model) },
    { path: 'node_modules/rt/bin/lib.so', packed: 'dist/packed/lib.so.br', encoding: 'brotli', bytes: lib.length, sha256: sha(lib) },
  ];
  writeFileSync(join(root, 'dist', 'packed.json'), JSON.stringify({ version: 1, files }));
  return files;
}

const leftovers = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.tmp'));

describe('packed VSIX files (packedAssets)', () => {
  let root: string;
  let scriptPlanesEncode: typeof PackScript.planesEncode;
  before(async () => { ({ planesEncode: scriptPlanesEncode } = await import('../../../scripts/vscode/packAssets.mjs')); });
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'am-packed-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('byte planes are lossless for every length, and the packaging script writes the same layout', () => {
    for (const n of [0, 1, 3, 4, 5, 4099, 70_001]) {
      const data = floats(n);
      const planes = planesEncode(data);
      assert.deepEqual(Buffer.from(planesDecode(planes)), data, `length ${n}`);
      assert.deepEqual(Buffer.from(scriptPlanesEncode(data)), Buffer.from(planes), `script layout, length ${n}`);
    }
  });

  it('unpacks each file into place with its size and SHA-256, removes the packed copies, and does nothing the second time', async () => {
    // more than one decode step of the planes file (256 Ki words = 1 MiB) plus a tail
    const model = floats(4 * 1024 * 1024 + 4 * 300 + 2);
    const lib = randomBytes(300_000);
    makeExtension(root, model, lib);
    const manifest = join(root, 'dist', 'packed.json');
    assert.equal(isPackedTarget(manifest, join(root, 'models', 'm', 'onnx', 'model.onnx')), true);
    assert.equal(isPackedTarget(manifest, join(root, 'models', 'm', 'config.json')), false);
    assert.deepEqual(await unpackAssets(manifest), ['models/m/onnx/model.onnx', 'node_modules/rt/bin/lib.so']);
    assert.deepEqual(readFileSync(join(root, 'models', 'm', 'onnx', 'model.onnx')), model);
    assert.deepEqual(readFileSync(join(root, 'node_modules', 'rt', 'bin', 'lib.so')), lib);
    assert.equal(existsSync(join(root, 'dist', 'packed', 'model.onnx.planes4')), false);
    assert.equal(existsSync(join(root, 'dist', 'packed', 'lib.so.br')), false);
    assert.deepEqual(await unpackAssets(manifest), []);
    assert.deepEqual(leftovers(root), []);
  });

  it('identical files sharing one packed copy (macOS ships the runtime under two names) are both unpacked, the second as a hard link, and the copy goes only then', async () => {
    const model = floats(10_001);
    const lib = randomBytes(120_000);
    const files = makeExtension(root, model, lib);
    const twin: PackedFile = { ...(files[1] as PackedFile), path: 'node_modules/rt/bin/lib.1.so' };
    const manifest = join(root, 'dist', 'packed.json');
    writeFileSync(manifest, JSON.stringify({ version: 1, files: [...files, twin] }));
    // Deleting the copy after the first file it serves (as before) fails the second: "packed copy … is missing".
    assert.deepEqual(await unpackAssets(manifest), ['models/m/onnx/model.onnx', 'node_modules/rt/bin/lib.so', 'node_modules/rt/bin/lib.1.so']);
    assert.deepEqual(readFileSync(join(root, 'node_modules', 'rt', 'bin', 'lib.so')), lib);
    assert.deepEqual(readFileSync(join(root, 'node_modules', 'rt', 'bin', 'lib.1.so')), lib);
    assert.equal(statSync(join(root, 'node_modules', 'rt', 'bin', 'lib.1.so')).ino, statSync(join(root, 'node_modules', 'rt', 'bin', 'lib.so')).ino, 'one copy on disk: the twin is a hard link');
    assert.equal(existsSync(join(root, 'dist', 'packed', 'lib.so.br')), false);
    assert.deepEqual(leftovers(root), []);
  });

  it('two unpacks at once (two windows, the CLI) both succeed and leave one correct copy', async () => {
    const model = floats(100_003);
    const lib = randomBytes(200_000);
    makeExtension(root, model, lib);
    const manifest = join(root, 'dist', 'packed.json');
    await Promise.all([unpackAssets(manifest), unpackAssets(manifest), unpackAssets(manifest)]);
    assert.deepEqual(readFileSync(join(root, 'models', 'm', 'onnx', 'model.onnx')), model);
    assert.deepEqual(readFileSync(join(root, 'node_modules', 'rt', 'bin', 'lib.so')), lib);
    assert.deepEqual(leftovers(root), []);
  });

  it('a damaged packed copy is refused with a clear error and leaves no file under the real name', async () => {
    const model = floats(40_000);
    makeExtension(root, model, randomBytes(1000));
    const planes = join(root, 'dist', 'packed', 'model.onnx.planes4');
    const bytes = readFileSync(planes);
    bytes[1234] = (bytes[1234] as number) ^ 0xff;
    writeFileSync(planes, bytes);
    await assert.rejects(unpackAssets(join(root, 'dist', 'packed.json')), (e: unknown) => e instanceof MemoryError && e.code === 'E_MODEL_LOAD'
      && /models\/m\/onnx\/model\.onnx .*damaged.*SHA-256.*reinstall Agent Memory/.test(e.message));
    assert.equal(existsSync(join(root, 'models', 'm', 'onnx', 'model.onnx')), false);
    assert.equal(existsSync(planes), true, 'the packed copy stays for a reinstall to replace');
    assert.deepEqual(leftovers(root), []);
  });

  it('a truncated brotli copy and a missing packed copy get errors naming the file', async () => {
    makeExtension(root, floats(4000), randomBytes(50_000));
    const br = join(root, 'dist', 'packed', 'lib.so.br');
    writeFileSync(br, readFileSync(br).subarray(0, 1000));
    await assert.rejects(unpackAssets(join(root, 'dist', 'packed.json')), (e: unknown) => e instanceof MemoryError && /could not unpack node_modules\/rt\/bin\/lib\.so into/.test(e.message));
    rmSync(br);
    await assert.rejects(unpackAssets(join(root, 'dist', 'packed.json')), (e: unknown) => e instanceof MemoryError && /its packed copy dist\/packed\/lib\.so\.br is missing/.test(e.message));
    assert.deepEqual(leftovers(root), []);
  });

  it('refuses a manifest naming a path outside the extension folder, and a damaged manifest', async () => {
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'dist', 'packed.json'), JSON.stringify({ version: 1, files: [{ path: '../escape.so', packed: 'dist/x', encoding: 'brotli', bytes: 1, sha256: 'x' }] }));
    await assert.rejects(unpackAssets(join(root, 'dist', 'packed.json')), /outside the extension folder/);
    assert.equal(existsSync(join(dirname(root), 'escape.so')), false);
    writeFileSync(join(root, 'dist', 'packed.json'), '{"version":');
    await assert.rejects(unpackAssets(join(root, 'dist', 'packed.json')), /packed-file list .* is damaged: reinstall/);
  });

  it('without a manifest (a source checkout) there is nothing to unpack', async () => {
    assert.deepEqual(await unpackAssets(join(root, 'dist', 'packed.json')), []);
  });

  it('createEmbedder accepts the bundled model while it is still packed, and refuses it when it is neither built nor packed', () => {
    const models = join(root, 'models');
    mkdirSync(join(models, 'use-lite'), { recursive: true });
    writeFileSync(join(models, 'use-lite', 'config.json'), JSON.stringify({ model_type: 'use-lite' }));
    const config = { embeddingModel: 'use-lite', embedBatchSize: 16, intraOpThreads: 1 };
    const dirs = { bundledModelsDir: models, cacheDir: join(root, 'cache') };
    assert.throws(() => createEmbedder(config, dirs), (e: unknown) => e instanceof MemoryError && e.code === 'E_MODEL_MISSING');
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(packedManifestFor(models), JSON.stringify({ version: 1, files: [{ path: 'models/use-lite/onnx/model.onnx', packed: 'dist/packed/model.onnx.planes4', encoding: 'planes4', bytes: 4, sha256: 'x' }] }));
    const embedder = createEmbedder(config, dirs);
    assert.equal(embedder.dims, 512);
    void embedder.dispose?.();
  });
});

// Packs the two big files of a platform VSIX so that it stays under 40 MiB without losing a bit
// (docs/packaging.md, "Packed files"): the embedding model as byte planes (the zip's deflate
// compresses those to 23.8 MB instead of 25.9) and onnxruntime-node's runtime library for the
// target brotli-compressed (15.0 MB instead of 17.5 in the zip). Writes dist/packed/ and
// dist/packed.json (path, packed copy, encoding, size, SHA-256 of each file); the extension's embed
// worker unpacks them on first use (src/core/models/packedAssets.ts). Returns the original paths,
// which the target's ignore file then leaves out.
// Brotli of the 46 MB library takes about half a minute: the result is cached in out/packCache/
// under the SHA-256 of its input.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress } from 'node:zlib';

export const PACKED_DIR = join('dist', 'packed');
export const PACKED_MANIFEST = join('dist', 'packed.json');
/** The runtime's libraries above this size are packed (the small .node binding ships as is). */
const PACK_MIN_BYTES = 4 * 1024 * 1024;
/** Brotli quality 5 with a 16 MiB window: 15.0 MB in 34 s here; 7 gains 0.4 MB for four times the time. */
const BROTLI = { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 24 };
const MODEL = 'models/use-lite/onnx/model.onnx';

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

/** Byte planes with stride k (same layout as planesEncode in src/core/models/packedAssets.ts). */
export function planesEncode(data, k = 4) {
  const words = Math.floor(data.length / k);
  const out = Buffer.alloc(data.length);
  for (let p = 0; p < k; p++) for (let i = 0; i < words; i++) out[p * words + i] = data[i * k + p];
  data.copy(out, words * k, words * k);
  return out;
}

async function brotliCached(root, file, hash) {
  const cacheDir = join(root, 'out', 'packCache');
  const cached = join(cacheDir, `${hash}.q${BROTLI[constants.BROTLI_PARAM_QUALITY]}.br`);
  if (existsSync(cached)) return cached;
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  await pipeline(createReadStream(file), createBrotliCompress({ params: { ...BROTLI, [constants.BROTLI_PARAM_SIZE_HINT]: statSync(file).size } }), createWriteStream(tmp));
  renameSync(tmp, cached);
  return cached;
}

/** Removes dist/packed and its manifest (a universal VSIX ships every file as is). */
export function clearPacked(root) {
  rmSync(join(root, PACKED_DIR), { recursive: true, force: true });
  rmSync(join(root, PACKED_MANIFEST), { force: true });
}

/**
 * Packs the model and `target`'s runtime libraries (target like linux-x64) into dist/packed of the
 * extension folder `root`; returns the original paths (relative, forward slashes) to leave out.
 */
export async function packAssets(root, target) {
  clearPacked(root);
  const [os, arch] = target.split('-');
  mkdirSync(join(root, PACKED_DIR), { recursive: true });
  const files = [];
  const model = join(root, MODEL);
  if (!existsSync(model)) throw new Error(`${MODEL} is missing: build first (npm run build).`);
  const modelBytes = readFileSync(model);
  writeFileSync(join(root, PACKED_DIR, 'model.onnx.planes4'), planesEncode(modelBytes));
  files.push({ path: MODEL, packed: `${PACKED_DIR.replaceAll('\\', '/')}/model.onnx.planes4`, encoding: 'planes4', bytes: modelBytes.length, sha256: sha256(modelBytes) });
  const napi = `node_modules/onnxruntime-node/bin/napi-v6/${os}/${arch}`;
  const napiDir = join(root, napi);
  if (!existsSync(napiDir)) throw new Error(`${napi} is missing: onnxruntime-node ships no binary for ${target}.`);
  // Identical libraries under two names (onnxruntime-node's darwin-arm64 ships
  // libonnxruntime.1.30.0.dylib and libonnxruntime.1.dylib, 44.6 MB each) share one packed copy.
  const packedByHash = new Map();
  for (const name of readdirSync(napiDir).sort()) {
    const file = join(napiDir, name);
    const size = statSync(file).size;
    if (name.endsWith('.node') || size < PACK_MIN_BYTES) continue;
    const bytes = readFileSync(file);
    const hash = sha256(bytes);
    let packed = packedByHash.get(hash);
    if (!packed) {
      const packedName = `${name}.br`;
      const dest = join(root, PACKED_DIR, packedName);
      rmSync(dest, { force: true });
      writeFileSync(dest, readFileSync(await brotliCached(root, file, hash)));
      packed = `${PACKED_DIR.replaceAll('\\', '/')}/${packedName}`;
      packedByHash.set(hash, packed);
    }
    files.push({ path: `${napi}/${name}`, packed, encoding: 'brotli', bytes: size, sha256: hash });
  }
  writeFileSync(join(root, PACKED_MANIFEST), `${JSON.stringify({ version: 1, files }, null, 2)}\n`);
  return files.map((f) => f.path);
}

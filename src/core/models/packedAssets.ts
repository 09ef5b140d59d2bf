/**
 * Files a platform VSIX ships packed and unpacks on first use (docs/packaging.md, "Packed files"):
 * the embedding model as byte planes (lossless: the zip's deflate then finds the repeated exponent
 * bytes of the float weights) and onnxruntime-node's runtime library brotli-compressed. The
 * packaging step (scripts/vscode/packAssets.mjs) writes them to dist/packed/ with a manifest,
 * dist/packed.json, naming each file's place in the extension folder, its size and SHA-256.
 *
 * unpackAssets() runs in the embed worker before it loads ONNX Runtime (never on the extension
 * host's thread) and streams: bounded memory, asynchronous reads and writes. Each file is written
 * to a private temp name, checked against its size and SHA-256, then renamed into place, so a
 * crash or a concurrent unpack (another window, the CLI) never leaves a half file under the real
 * name; the packed copy is deleted once every file it serves is in place (the folder keeps one
 * copy of each file; identical files share one packed copy). A file already
 * in place is left alone: in a source checkout every target exists and nothing happens.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { link, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { MemoryError } from '../errors';

/** How a packed file is stored. */
export type PackedEncoding = 'brotli' | 'planes4';

export interface PackedFile {
  /** Where the file belongs, relative to the extension folder (forward slashes). */
  readonly path: string;
  /** The packed copy, relative to the extension folder. */
  readonly packed: string;
  readonly encoding: PackedEncoding;
  /** Size and SHA-256 (hex) of the unpacked file. */
  readonly bytes: number;
  readonly sha256: string;
}

export interface PackedManifest {
  readonly version: 1;
  readonly files: readonly PackedFile[];
}

export const PACKED_MANIFEST = 'packed.json';
/** Bytes per plane read while decoding byte planes (4 reads of this size per step; small steps keep the worker responsive). */
const PLANE_CHUNK = 1 << 18;

/**
 * Byte planes of `data` with stride `k`: byte j of every k-byte word, for j = 0..k-1, then the
 * tail that does not fill a word, as is. Lossless; planesDecode inverts it.
 */
export function planesEncode(data: Uint8Array, k = 4): Uint8Array {
  const words = Math.floor(data.length / k);
  const out = new Uint8Array(data.length);
  for (let p = 0; p < k; p++) for (let i = 0; i < words; i++) out[p * words + i] = data[i * k + p] as number;
  out.set(data.subarray(words * k), words * k);
  return out;
}

export function planesDecode(planes: Uint8Array, k = 4): Uint8Array {
  const words = Math.floor(planes.length / k);
  const out = new Uint8Array(planes.length);
  for (let p = 0; p < k; p++) for (let i = 0; i < words; i++) out[i * k + p] = planes[p * words + i] as number;
  out.set(planes.subarray(words * k), words * k);
  return out;
}

/** The manifest beside a bundle (dist/packed.json), or undefined when this build packs nothing. */
export function readPackedManifest(manifestPath: string): PackedManifest | undefined {
  if (!existsSync(manifestPath)) return undefined;
  try {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackedManifest;
    if (m.version !== 1 || !Array.isArray(m.files)) throw new Error('unknown manifest version');
    return m;
  } catch (e) {
    throw new MemoryError('E_MODEL_LOAD', `The extension's packed-file list ${manifestPath} is damaged: reinstall Agent Memory.`, { manifestPath }, { cause: e });
  }
}

/** Whether `absPath` is a file the manifest at `manifestPath` will unpack (it may not exist yet). */
export function isPackedTarget(manifestPath: string, absPath: string): boolean {
  const m = readPackedManifest(manifestPath);
  const root = dirname(dirname(manifestPath));
  return !!m?.files.some((f) => resolve(root, f.path) === resolve(absPath));
}

/** The extension folder a manifest belongs to: the manifest sits in <root>/dist. */
function rootOf(manifestPath: string): string {
  return dirname(dirname(resolve(manifestPath)));
}

function inside(root: string, rel: string): string {
  const abs = resolve(root, rel);
  if (!abs.startsWith(root + sep)) throw new MemoryError('E_MODEL_LOAD', `The packed-file list names ${rel}, outside the extension folder: reinstall Agent Memory.`);
  return abs;
}

/** Counts and hashes what passes through. */
class Tap extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

/** Decodes a planes4 file into `tmp` in steps of PLANE_CHUNK words; returns [bytes, sha256]. */
async function decodePlanesFile(src: string, tmp: string): Promise<[number, string]> {
  const input = await open(src, 'r');
  const output = await open(tmp, 'wx');
  try {
    const size = (await input.stat()).size;
    const k = 4;
    const words = Math.floor(size / k);
    const hash = createHash('sha256');
    const planes = Array.from({ length: k }, () => Buffer.allocUnsafe(PLANE_CHUNK));
    const out = Buffer.allocUnsafe(PLANE_CHUNK * k);
    for (let w = 0; w < words; w += PLANE_CHUNK) {
      const n = Math.min(PLANE_CHUNK, words - w);
      for (let p = 0; p < k; p++) {
        const { bytesRead } = await input.read(planes[p] as Buffer, 0, n, p * words + w);
        if (bytesRead !== n) throw new Error(`short read in plane ${p}`);
      }
      for (let p = 0; p < k; p++) {
        const plane = planes[p] as Buffer;
        for (let i = 0; i < n; i++) out[i * k + p] = plane[i] as number;
      }
      const chunk = out.subarray(0, n * k);
      hash.update(chunk);
      await output.write(chunk, 0, chunk.length, w * k);
    }
    const tail = size - words * k;
    if (tail > 0) {
      const t = Buffer.alloc(tail);
      await input.read(t, 0, tail, words * k);
      hash.update(t);
      await output.write(t, 0, tail, words * k);
    }
    await output.sync();
    return [size, hash.digest('hex')];
  } finally {
    await input.close();
    await output.close();
  }
}

async function decodeBrotliFile(src: string, tmp: string): Promise<[number, string]> {
  const tap = new Tap();
  await pipeline(createReadStream(src), createBrotliDecompress(), tap, createWriteStream(tmp, { flags: 'wx' }));
  return [tap.bytes, tap.hash.digest('hex')];
}

/**
 * A hard link at `tmp` to `twin`, an identical file already unpacked (same size and SHA-256 in
 * the manifest): one copy on disk for two names. False where links are not possible (another
 * file system, FAT), and the file is then decoded as usual.
 */
async function linkTwin(twin: string | undefined, tmp: string, f: PackedFile): Promise<[number, string] | undefined> {
  if (!twin) return undefined;
  try {
    await link(twin, tmp);
    return [(await stat(tmp)).size, f.sha256];
  } catch {
    await rm(tmp, { force: true }).catch(() => undefined);
    return undefined;
  }
}

async function unpackOne(root: string, f: PackedFile, twin?: string): Promise<boolean> {
  const target = inside(root, f.path);
  if (existsSync(target)) return false;
  const packed = inside(root, f.packed);
  const tmp = `${target}.unpack-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    let result: [number, string];
    // The target's folder may hold nothing else (models/use-lite/onnx), so the VSIX has no such folder.
    await mkdir(dirname(target), { recursive: true });
    try {
      result = await linkTwin(twin, tmp, f) ?? (f.encoding === 'brotli' ? await decodeBrotliFile(packed, tmp) : await decodePlanesFile(packed, tmp));
    } catch (e) {
      // Another process may have unpacked it and deleted the packed copy meanwhile.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(target)) return false;
      throw e;
    }
    const [bytes, sha256] = result;
    if (bytes !== f.bytes || sha256 !== f.sha256) {
      throw new MemoryError('E_MODEL_LOAD', `The packed copy of ${f.path} in the extension folder is damaged (${bytes} bytes, SHA-256 ${sha256.slice(0, 12)}…; expected ${f.bytes} bytes, ${f.sha256.slice(0, 12)}…): reinstall Agent Memory.`, { path: f.path });
    }
    try {
      await rename(tmp, target);
    } catch (e) {
      // Windows cannot replace a library another process has loaded: one already in place is the same file.
      if (!((await stat(target).catch(() => undefined))?.size === f.bytes)) throw e;
    }
    return true;
  } catch (e) {
    if (e instanceof MemoryError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'the folder is not writable' : code === 'ENOSPC' ? 'the disk is full' : code === 'ENOENT' && !existsSync(packed) ? `its packed copy ${f.packed} is missing` : (e as Error).message;
    throw new MemoryError('E_MODEL_LOAD', `Agent Memory could not unpack ${f.path} into ${root} (${why}). It unpacks the embedding model and runtime there once, on first use: make that folder writable or reinstall the extension.`, { path: f.path, ...(code ? { code } : {}) }, { cause: e });
  } finally {
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}

/**
 * Unpacks every file the manifest lists that is not in place yet; returns the paths it unpacked.
 * No manifest (a source checkout, a universal VSIX): nothing to do.
 */
export async function unpackAssets(manifestPath: string): Promise<string[]> {
  const manifest = readPackedManifest(manifestPath);
  if (!manifest) return [];
  const root = rootOf(manifestPath);
  const done: string[] = [];
  // Identical files (same SHA-256 and size): the second is a hard link to the first once it is in place.
  const inPlace = new Map<string, string>();
  for (const f of manifest.files) {
    const key = `${f.sha256}:${f.bytes}`;
    if (!(await unpackOne(root, f, inPlace.get(key)))) continue;
    done.push(f.path);
    if (!inPlace.has(key)) inPlace.set(key, inside(root, f.path));
  }
  // A packed copy can serve several files (identical libraries under two names, as on macOS): it
  // is deleted once every file it serves is in place, so the folder keeps one copy of each.
  for (const packed of new Set(manifest.files.map((f) => f.packed))) {
    if (manifest.files.every((f) => f.packed !== packed || existsSync(inside(root, f.path)))) await rm(inside(root, packed), { force: true }).catch(() => undefined);
  }
  return done;
}

/** The manifest of the extension whose bundled models folder is `bundledModelsDir` (<root>/models → <root>/dist/packed.json). */
export function packedManifestFor(bundledModelsDir: string): string {
  return join(bundledModelsDir, '..', 'dist', PACKED_MANIFEST);
}

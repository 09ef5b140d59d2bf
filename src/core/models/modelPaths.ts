/**
 * Where model folders live. A model setting is one of:
 * - 'use-lite' (default) → `<bundledModelsDir>/use-lite`, built by scripts/buildModel.mjs;
 * - a folder path (absolute, or starting with ./ ../ ~) → that folder;
 * - a hub id ("Xenova/all-MiniLM-L6-v2") → `<cacheDir>/models/<org>/<name>` once downloaded
 *   (modelDownload.ts), or a folder of that name under the bundled models.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_EMBEDDING_MODEL } from '../config/modelConfig';
import { MemoryError } from '../errors';

export interface ModelDirs {
  readonly bundledModelsDir: string;
  readonly cacheDir: string;
}

const HUB_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

export function isHubModelId(spec: string): boolean {
  return HUB_ID.test(spec) && !spec.includes('..');
}

/** Folder a hub model is downloaded into. */
export function downloadedModelDir(cacheDir: string, repo: string): string {
  if (!isHubModelId(repo)) throw new MemoryError('E_INVALID_INPUT', `"${repo}" is not a model id like "org/name".`);
  return join(cacheDir, 'models', ...repo.split('/'));
}

function isPathSpec(spec: string): boolean {
  return isAbsolute(spec) || /^(\.{1,2}|~)([/\\]|$)/.test(spec);
}

/** The folder for a model setting; throws E_MODEL_MISSING with a next step when there is none. */
export function resolveModelDir(spec: string, dirs: ModelDirs): string {
  const s = spec.trim() || DEFAULT_EMBEDDING_MODEL;
  if (isPathSpec(s)) {
    const dir = s.startsWith('~') ? join(homedir(), s.slice(1)) : resolve(s);
    if (!existsSync(dir)) throw new MemoryError('E_MODEL_MISSING', `The model folder ${dir} does not exist.`, { dir });
    return dir;
  }
  const candidates = isHubModelId(s) ? [downloadedModelDir(dirs.cacheDir, s), join(dirs.bundledModelsDir, ...s.split('/'))] : [join(dirs.bundledModelsDir, s), join(dirs.cacheDir, 'models', s)];
  const found = candidates.find((d) => existsSync(join(d, 'config.json')));
  if (found) return found;
  if (s === DEFAULT_EMBEDDING_MODEL) {
    throw new MemoryError('E_MODEL_MISSING', `The default embedding model is missing from ${dirs.bundledModelsDir} (the build creates it: npm run build).`, { candidates });
  }
  throw new MemoryError('E_MODEL_MISSING', `The model "${s}" is not installed. Download it first ("Memory: Download Embedding Model").`, { candidates });
}

/**
 * Opt-in download of a named Hugging Face model (e.g. "Xenova/all-MiniLM-L6-v2") into the cache,
 * in two steps so a UI can show the size first:
 *   const plan = await planModelDownload(repo, { baseUrl });      // lists files, totalBytes
 *   await downloadModel(plan, downloadedModelDir(cacheDir, repo), { onProgress, signal });
 * Uses the hub's URL layout (GET /api/models/{repo}?blobs=true, /{repo}/resolve/{revision}/{file}),
 * so any mirror with that layout works. Every file is checked: LFS files by SHA-256 against the
 * listing's lfs.sha256 (or the x-linked-etag header), small git files by their git blob id (SHA-1
 * of "blob <size>\0<bytes>"). Files land in a temporary folder that is renamed into place only when
 * all are verified; any failure or cancellation removes it. An unreachable host is E_OFFLINE.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_DOWNLOAD_TIMEOUT_MS, DEFAULT_MODEL_HUB_URL } from '../config/modelConfig';
import type { ModelConfig } from '../config/modelConfig';
import { MemoryError } from '../errors';
import { isHubModelId } from './modelPaths';

/** Files a local transformers.js model needs (fp32 ONNX), plus licence/readme when present. */
export const MODEL_DOWNLOAD_FILES = [
  'config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'vocab.txt',
  'onnx/model.onnx', 'README.md', 'LICENSE',
] as const;
const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'onnx/model.onnx'];
export const DOWNLOAD_MANIFEST = '.download.json';

export interface PlannedFile {
  readonly path: string;
  readonly size: number;
  /** SHA-256 hex for LFS files. */
  readonly sha256?: string;
  /** Git blob SHA-1 hex for small files. */
  readonly gitBlobId?: string;
}

export interface DownloadPlan {
  readonly repo: string;
  readonly revision: string;
  readonly baseUrl: string;
  readonly files: readonly PlannedFile[];
  readonly totalBytes: number;
}

export interface DownloadProgress {
  readonly file: string;
  readonly bytes: number;
  readonly totalBytes: number;
}

export interface DownloadOptions {
  readonly baseUrl?: string;
  readonly revision?: string;
  /** Per request: connect and each chunk. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly fetch?: typeof fetch;
}

/** The download options the settings give (agentMemory.models.hubUrl, models.downloadTimeoutSeconds). */
export function downloadOptionsFor(models: Pick<ModelConfig, 'hubUrl' | 'downloadTimeoutMs'>): Pick<DownloadOptions, 'baseUrl' | 'timeoutMs'> {
  return { baseUrl: models.hubUrl, timeoutMs: models.downloadTimeoutMs };
}

const OFFLINE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNRESET', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function networkError(e: unknown, url: string, signal?: AbortSignal): MemoryError {
  if (e instanceof MemoryError) return e;
  if (signal?.aborted) return new MemoryError('E_CANCELLED', 'The model download was cancelled.');
  const code = (e as { cause?: { code?: string } } | undefined)?.cause?.code ?? (e as { code?: string } | undefined)?.code;
  const host = new URL(url).host;
  if ((code && OFFLINE_CODES.has(code)) || (e as Error | undefined)?.name === 'TimeoutError') {
    return new MemoryError('E_OFFLINE', `Cannot reach ${host}: you appear to be offline or the model hub is blocked. The bundled model keeps working.`, { host, code });
  }
  return new MemoryError('E_MODEL_DOWNLOAD', `Download from ${host} failed: ${(e as Error | undefined)?.message ?? String(e)}`, { host, code });
}

/** fetch with a timeout that restarts while data flows; the returned `tick` extends it. */
async function timedFetch(fetchFn: typeof fetch, url: string, timeoutMs: number, signal?: AbortSignal): Promise<{ response: Response; tick(): void; done(): void }> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => controller.abort(signal?.reason);
  const tick = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
  };
  const done = () => { if (timer) clearTimeout(timer); signal?.removeEventListener('abort', onAbort); };
  signal?.addEventListener('abort', onAbort);
  tick();
  try {
    const response = await fetchFn(url, { signal: controller.signal, redirect: 'follow' });
    return { response, tick, done };
  } catch (e) {
    done();
    throw (controller.signal.reason as Error | undefined)?.name === 'TimeoutError' ? Object.assign(new Error('timed out'), { name: 'TimeoutError' }) : e;
  }
}

interface HubSibling { rfilename?: unknown; size?: unknown; blobId?: unknown; lfs?: { sha256?: unknown; size?: unknown } }

/** Lists the files to fetch and their total size, without downloading them. */
export async function planModelDownload(repo: string, options: DownloadOptions = {}): Promise<DownloadPlan> {
  if (!isHubModelId(repo)) throw new MemoryError('E_INVALID_INPUT', `"${repo}" is not a model id like "org/name".`);
  const baseUrl = (options.baseUrl ?? DEFAULT_MODEL_HUB_URL).replace(/\/+$/, '');
  const revision = options.revision ?? 'main';
  const url = `${baseUrl}/api/models/${repo}?blobs=true`;
  let info: { siblings?: HubSibling[] };
  try {
    const { response, done } = await timedFetch(options.fetch ?? fetch, url, options.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS, options.signal);
    try {
      if (response.status === 404 || response.status === 401) throw new MemoryError('E_NOT_FOUND', `The model "${repo}" was not found on ${new URL(baseUrl).host}.`, { repo });
      if (!response.ok) throw new MemoryError('E_MODEL_DOWNLOAD', `The model hub answered ${response.status} for "${repo}".`, { repo, status: response.status });
      info = (await response.json()) as { siblings?: HubSibling[] };
    } finally {
      done();
    }
  } catch (e) {
    throw networkError(e, url, options.signal);
  }
  const byName = new Map<string, HubSibling>();
  for (const s of Array.isArray(info.siblings) ? info.siblings : []) if (typeof s.rfilename === 'string') byName.set(s.rfilename, s);
  const missing = REQUIRED_FILES.filter((f) => !byName.has(f));
  if (missing.length > 0) {
    throw new MemoryError('E_MODEL_DOWNLOAD', `"${repo}" has no ${missing.join(', ')}; choose a model with ONNX weights (for example a Xenova/ or onnx-community/ repository).`, { repo, missing });
  }
  const files: PlannedFile[] = [];
  for (const path of MODEL_DOWNLOAD_FILES) {
    const s = byName.get(path);
    if (!s) continue;
    const size = typeof s.lfs?.size === 'number' ? s.lfs.size : s.size;
    if (typeof size !== 'number' || size < 0) throw new MemoryError('E_MODEL_DOWNLOAD', `The listing of "${repo}" gives no size for ${path}.`);
    const sha256 = typeof s.lfs?.sha256 === 'string' ? s.lfs.sha256.toLowerCase() : undefined;
    const gitBlobId = typeof s.blobId === 'string' ? s.blobId.toLowerCase() : undefined;
    if (!sha256 && !gitBlobId) throw new MemoryError('E_MODEL_DOWNLOAD', `The listing of "${repo}" gives no checksum for ${path}.`);
    files.push({ path, size, ...(sha256 ? { sha256 } : {}), ...(!sha256 && gitBlobId ? { gitBlobId } : {}) });
  }
  return { repo, revision, baseUrl, files, totalBytes: files.reduce((a, f) => a + f.size, 0) };
}

async function fetchFile(plan: DownloadPlan, file: PlannedFile, dest: string, options: DownloadOptions, report: (n: number) => void): Promise<void> {
  const url = `${plan.baseUrl}/${plan.repo}/resolve/${encodeURIComponent(plan.revision)}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
  try {
    const { response, tick, done } = await timedFetch(options.fetch ?? fetch, url, options.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS, options.signal);
    try {
      if (!response.ok || !response.body) throw new MemoryError('E_MODEL_DOWNLOAD', `Downloading ${file.path} failed (HTTP ${response.status}).`, { file: file.path, status: response.status });
      const linked = response.headers.get('x-linked-etag')?.replace(/^W\//, '').replace(/"/g, '').toLowerCase();
      const expectedSha256 = file.sha256 ?? (linked && /^[0-9a-f]{64}$/.test(linked) ? linked : undefined);
      const sha256 = createHash('sha256');
      const sha1 = createHash('sha1').update(`blob ${file.size}\0`);
      mkdirSync(dirname(dest), { recursive: true });
      const out = createWriteStream(dest);
      const closed = new Promise<void>((resolve, reject) => { out.on('close', resolve); out.on('error', reject); });
      let received = 0;
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          tick();
          received += chunk.byteLength;
          if (received > file.size) throw new MemoryError('E_MODEL_DOWNLOAD', `${file.path} is larger than the listing says.`, { file: file.path });
          sha256.update(chunk);
          sha1.update(chunk);
          if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
          report(chunk.byteLength);
        }
      } finally {
        out.end();
        await closed;
      }
      if (received !== file.size) throw new MemoryError('E_MODEL_DOWNLOAD', `${file.path} arrived incomplete (${received} of ${file.size} bytes).`, { file: file.path });
      const ok = expectedSha256 ? sha256.digest('hex') === expectedSha256 : file.gitBlobId ? sha1.digest('hex') === file.gitBlobId : false;
      if (!ok) throw new MemoryError('E_MODEL_DOWNLOAD', `${file.path} failed its checksum; the download was discarded.`, { file: file.path });
    } finally {
      done();
    }
  } catch (e) {
    throw networkError(e, url, options.signal);
  }
}

/**
 * Downloads every planned file into `targetDir` (replacing an earlier copy only on success).
 * Resolves to the folder; on failure nothing new is left on disk.
 */
export async function downloadModel(plan: DownloadPlan, targetDir: string, options: DownloadOptions = {}): Promise<string> {
  const tmp = `${targetDir}.partial-${process.pid}-${Date.now()}`;
  let bytes = 0;
  try {
    mkdirSync(tmp, { recursive: true });
    for (const file of plan.files) {
      if (options.signal?.aborted) throw new MemoryError('E_CANCELLED', 'The model download was cancelled.');
      await fetchFile(plan, file, join(tmp, ...file.path.split('/')), options, (n) => {
        bytes += n;
        options.onProgress?.({ file: file.path, bytes, totalBytes: plan.totalBytes });
      });
    }
    writeFileSync(join(tmp, DOWNLOAD_MANIFEST), JSON.stringify({ repo: plan.repo, revision: plan.revision, files: plan.files }, null, 2) + '\n');
    if (existsSync(targetDir)) rmSync(targetDir, { recursive: true, force: true });
    renameSync(tmp, targetDir);
    return targetDir;
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e instanceof MemoryError ? e : new MemoryError('E_MODEL_DOWNLOAD', `The model download failed: ${(e as Error).message}`, undefined, { cause: e });
  }
}

import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { DownloadProgress } from '../../src/core/models/modelDownload';
import { DOWNLOAD_MANIFEST } from '../../src/core/models/modelDownload';
import { downloadedModelDir } from '../../src/core/models/modelPaths';
import type { AgentMemoryApi } from '../../src/extension/extension';
import { startHubServer } from '../unit/models/hubServer';
import type { HubServer } from '../unit/models/hubServer';
import { memoryApi, setSetting } from './memoryTestKit';
import { waitFor } from './waitFor';

const REPO = 'fixture-org/tiny-download';
const COMMAND = 'agentMemory.downloadEmbeddingModel';
/** Large enough that the ONNX file arrives in several chunks (progress is reported per chunk). */
const ONNX_BYTES = 256 * 1024;

/** Tiny files in a model's layout: download/verify/cleanup only, not a loadable embedder. */
function writeFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'am-it-hub-'));
  const files: Record<string, Buffer> = {
    'config.json': Buffer.from('{"model_type":"bert","hidden_size":8}\n'),
    'tokenizer.json': Buffer.from('{"version":"1.0","model":{"type":"WordPiece","vocab":{"[UNK]":0}}}\n'),
    'README.md': Buffer.from('# tiny download fixture\n'),
    'onnx/model.onnx': randomBytes(ONNX_BYTES),
  };
  for (const [name, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
  return dir;
}

/** Records error notifications while `fn` runs (the command reports failures there, never throws). */
async function errorsDuring<T>(fn: () => Thenable<T>): Promise<{ result: T; errors: string[] }> {
  const errors: string[] = [];
  const original = vscode.window.showErrorMessage;
  (vscode.window as { showErrorMessage: unknown }).showErrorMessage = (message: string, ...rest: unknown[]) => {
    errors.push(message);
    return (original as (...a: unknown[]) => Thenable<unknown>)(message, ...rest);
  };
  try {
    return { result: await fn(), errors };
  } finally {
    (vscode.window as { showErrorMessage: unknown }).showErrorMessage = original;
  }
}

describe('Memory: Download Embedding Model against a loopback hub', function () {
  this.timeout(60_000);
  let api: AgentMemoryApi;
  let hub: HubServer;
  let fixture: string;
  let target: string;

  before(async () => {
    api = await memoryApi();
    fixture = writeFixture();
    hub = await startHubServer(REPO, fixture);
    await setSetting('models.hubUrl', hub.baseUrl);
    await waitFor('the hub url setting', () => (api.services.settings().models.hubUrl === hub.baseUrl ? true : undefined));
    target = downloadedModelDir(api.services.host.paths.cacheDir, REPO);
  });

  beforeEach(() => {
    hub.faults = {};
    hub.requests.length = 0;
    rmSync(target, { recursive: true, force: true });
  });

  after(async () => {
    rmSync(target, { recursive: true, force: true });
    await setSetting('models.hubUrl', undefined);
    await hub.close();
    rmSync(fixture, { recursive: true, force: true });
  });

  it('lists the files first, downloads with progress, verifies and installs into the cache folder', async () => {
    const progress: DownloadProgress[] = [];
    const dir = await vscode.commands.executeCommand<string | undefined>(COMMAND, { repo: REPO, confirmed: true, onProgress: (p: DownloadProgress) => progress.push(p) });
    assert.equal(dir, target);
    // The listing (sizes and checksums, what the confirmation shows) is fetched before any file.
    assert.equal(hub.requests[0], `/api/models/${REPO}`);
    assert.ok(hub.requests.slice(1).every((r) => r.startsWith(`/${REPO}/resolve/main/`)), hub.requests.join(', '));
    const total = ['config.json', 'tokenizer.json', 'README.md', 'onnx/model.onnx'].reduce((a, f) => a + readFileSync(join(fixture, f)).length, 0);
    assert.ok(progress.length > 4, `progress events: ${progress.length}`);
    assert.ok(progress.every((p) => p.totalBytes === total));
    assert.ok(progress.every((p, i) => i === 0 || p.bytes >= (progress[i - 1] as DownloadProgress).bytes));
    assert.equal(progress[progress.length - 1]?.bytes, total);
    const onnx = readFileSync(join(target, 'onnx', 'model.onnx'));
    assert.equal(createHash('sha256').update(onnx).digest('hex'), createHash('sha256').update(readFileSync(join(fixture, 'onnx', 'model.onnx'))).digest('hex'));
    const manifest = JSON.parse(readFileSync(join(target, DOWNLOAD_MANIFEST), 'utf8')) as { repo: string; files: { path: string; sha256?: string }[] };
    assert.equal(manifest.repo, REPO);
    assert.match(manifest.files.find((f) => f.path === 'onnx/model.onnx')?.sha256 ?? '', /^[0-9a-f]{64}$/);
  });

  it('discards a file that fails its SHA-256 check, leaves nothing behind and says why', async () => {
    hub.faults = { corrupt: 'onnx/model.onnx' };
    const { result, errors } = await errorsDuring(() => vscode.commands.executeCommand<string | undefined>(COMMAND, { repo: REPO, confirmed: true }));
    assert.equal(result, undefined);
    assert.equal(existsSync(target), false);
    assert.deepEqual(readdirSync(dirname(target)).filter((n) => n.includes('.partial-')), []);
    assert.equal(errors.length, 1, errors.join(' | '));
    assert.match(errors[0] ?? '', /Download Embedding Model failed: onnx\/model\.onnx failed its checksum; the download was discarded\./);
  });

  it('keeps an earlier good copy when a later download fails with an HTTP error', async () => {
    assert.equal(await vscode.commands.executeCommand<string | undefined>(COMMAND, { repo: REPO, confirmed: true }), target);
    hub.faults = { fail: 'tokenizer.json' };
    const { result, errors } = await errorsDuring(() => vscode.commands.executeCommand<string | undefined>(COMMAND, { repo: REPO, confirmed: true }));
    assert.equal(result, undefined);
    assert.match(errors[0] ?? '', /Downloading tokenizer\.json failed \(HTTP 500\)/);
    assert.ok(existsSync(join(target, 'onnx', 'model.onnx')));
    assert.deepEqual(readdirSync(dirname(target)).filter((n) => n.includes('.partial-')), []);
  });

  it('reports an unknown model (404) clearly and downloads nothing', async () => {
    const { result, errors } = await errorsDuring(() => vscode.commands.executeCommand<string | undefined>(COMMAND, { repo: 'fixture-org/no-such-model', confirmed: true }));
    assert.equal(result, undefined);
    assert.match(errors[0] ?? '', /The model "fixture-org\/no-such-model" was not found on 127\.0\.0\.1:\d+/);
    assert.ok(!hub.requests.some((r) => r.includes('/resolve/')));
    assert.equal(existsSync(downloadedModelDir(api.services.host.paths.cacheDir, 'fixture-org/no-such-model')), false);
  });
});

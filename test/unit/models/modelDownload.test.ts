import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryError } from '../../../src/core/errors';
import { DOWNLOAD_MANIFEST, downloadModel, planModelDownload } from '../../../src/core/models/modelDownload';
import { downloadedModelDir } from '../../../src/core/models/modelPaths';
import { TransformersEmbedder } from '../../../src/core/models/transformersEmbedder';
import { closedPort, startHubServer } from './hubServer';
import type { HubServer } from './hubServer';
import { tinyBertFixture } from './tinyBertFixture';

const REPO = 'fixture-org/tiny-bert';
const isCode = (code: string) => (e: unknown) => e instanceof MemoryError && e.code === code;

describe('model download from a hub-layout server (loopback only)', function () {
  this.timeout(30_000);
  let hub: HubServer;
  let fixture: string;
  let cache: string;
  before(async () => {
    fixture = await tinyBertFixture();
    hub = await startHubServer(REPO, fixture);
  });
  after(async () => { await hub.close(); });
  beforeEach(() => { cache = mkdtempSync(join(tmpdir(), 'am-dl-')); hub.faults = {}; });
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  it('reports the files and total size before downloading anything', async () => {
    const plan = await planModelDownload(REPO, { baseUrl: hub.baseUrl });
    assert.deepEqual(plan.files.map((f) => f.path).sort(), ['README.md', 'config.json', 'onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json']);
    assert.equal(plan.totalBytes, plan.files.reduce((a, f) => a + f.size, 0));
    assert.ok(plan.files.find((f) => f.path === 'onnx/model.onnx')?.sha256);
    assert.ok(!hub.requests.some((r) => r.includes('/resolve/')));
  });

  it('downloads with progress, verifies checksums, and the result loads as an embedder', async () => {
    const plan = await planModelDownload(REPO, { baseUrl: hub.baseUrl });
    const seen: number[] = [];
    const dir = await downloadModel(plan, downloadedModelDir(cache, REPO), { onProgress: (p) => seen.push(p.bytes) });
    assert.equal(seen[seen.length - 1], plan.totalBytes);
    assert.ok(seen.every((b, i) => i === 0 || b >= (seen[i - 1] as number)));
    assert.ok(readFileSync(join(dir, 'onnx', 'model.onnx')).equals(readFileSync(join(fixture, 'onnx', 'model.onnx'))));
    assert.equal(JSON.parse(readFileSync(join(dir, DOWNLOAD_MANIFEST), 'utf8')).repo, REPO);
    const e = new TransformersEmbedder({ modelDir: dir, id: REPO });
    assert.equal((await e.embed(['works offline'])).length, 1);
  });

  it('rejects a corrupted file and leaves nothing behind', async () => {
    const plan = await planModelDownload(REPO, { baseUrl: hub.baseUrl });
    hub.faults = { corrupt: 'onnx/model.onnx' };
    const target = downloadedModelDir(cache, REPO);
    await assert.rejects(downloadModel(plan, target), (e: unknown) => isCode('E_MODEL_DOWNLOAD')(e) && /checksum/.test((e as Error).message));
    assert.equal(existsSync(target), false);
    assert.deepEqual(readdirSync(join(cache, 'models', 'fixture-org')), []);
  });

  it('checks small files by git blob id too', async () => {
    const plan = await planModelDownload(REPO, { baseUrl: hub.baseUrl });
    hub.faults = { corrupt: 'config.json' };
    await assert.rejects(downloadModel(plan, downloadedModelDir(cache, REPO)), isCode('E_MODEL_DOWNLOAD'));
  });

  it('cleans up after an HTTP error and keeps an earlier good copy', async () => {
    const plan = await planModelDownload(REPO, { baseUrl: hub.baseUrl });
    const target = downloadedModelDir(cache, REPO);
    await downloadModel(plan, target);
    hub.faults = { fail: 'tokenizer.json' };
    await assert.rejects(downloadModel(plan, target), (e: unknown) => isCode('E_MODEL_DOWNLOAD')(e) && /HTTP 500/.test((e as Error).message));
    assert.ok(existsSync(join(target, 'onnx', 'model.onnx')));
    assert.deepEqual(readdirSync(join(cache, 'models', 'fixture-org')), ['tiny-bert']);
  });

  it('times out a stalled transfer and cleans up', async () => {
    const plan = await planModelDownload(REPO, { baseUrl: hub.baseUrl });
    hub.faults = { stall: 'onnx/model.onnx' };
    const target = downloadedModelDir(cache, REPO);
    await assert.rejects(downloadModel(plan, target, { timeoutMs: 200 }), isCode('E_OFFLINE'));
    assert.equal(existsSync(target), false);
  });

  it('stops when cancelled and removes the partial folder', async () => {
    const plan = await planModelDownload(REPO, { baseUrl: hub.baseUrl });
    const controller = new AbortController();
    const target = downloadedModelDir(cache, REPO);
    await assert.rejects(downloadModel(plan, target, { signal: controller.signal, onProgress: () => controller.abort() }), isCode('E_CANCELLED'));
    assert.equal(existsSync(target), false);
    assert.deepEqual(readdirSync(join(cache, 'models', 'fixture-org')), []);
  });

  it('gives a clear E_OFFLINE message when the hub is unreachable', async () => {
    const port = await closedPort();
    await assert.rejects(planModelDownload(REPO, { baseUrl: `http://127.0.0.1:${port}` }), (e: unknown) => isCode('E_OFFLINE')(e) && /offline/.test((e as Error).message));
  });

  it('reports an unknown model and a repository without ONNX weights', async () => {
    await assert.rejects(planModelDownload('fixture-org/other', { baseUrl: hub.baseUrl }), isCode('E_NOT_FOUND'));
    await assert.rejects(planModelDownload('not a repo id', { baseUrl: hub.baseUrl }), isCode('E_INVALID_INPUT'));
    const noOnnx = join(cache, 'no-onnx');
    cpSync(fixture, noOnnx, { recursive: true });
    rmSync(join(noOnnx, 'onnx'), { recursive: true });
    const other = await startHubServer('org/pytorch-only', noOnnx);
    try {
      await assert.rejects(planModelDownload('org/pytorch-only', { baseUrl: other.baseUrl }), (e: unknown) => isCode('E_MODEL_DOWNLOAD')(e) && /onnx\/model\.onnx/.test((e as Error).message));
    } finally {
      await other.close();
    }
  });
});

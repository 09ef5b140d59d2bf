import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolveModelConfig } from '../../../src/core/config/modelConfig';
import { MemoryError } from '../../../src/core/errors';
import { createEmbedder, embeddingModelId } from '../../../src/core/models/createEmbedder';
import { downloadedModelDir, resolveModelDir } from '../../../src/core/models/modelPaths';
import { WorkerEmbedder } from '../../../src/core/models/workerEmbedder';
import { ensureUseLiteModel } from './modelFixture';
import { tinyBertFixture } from './tinyBertFixture';

const isCode = (code: string) => (e: unknown) => e instanceof MemoryError && e.code === code;

describe('model settings → embedder', () => {
  let cacheDir: string;
  before(() => { cacheDir = mkdtempSync(join(tmpdir(), 'am-cache-')); });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('clamps model config values and keeps the documented defaults', () => {
    const d = resolveModelConfig();
    assert.equal(d.embeddingModel, 'use-lite');
    assert.equal(d.rerankTopN, 20);
    assert.equal(d.rerankTimeoutMs, 2000);
    assert.equal(d.crossEncoderTopN, 6);
    assert.equal(d.crossEncoderTimeoutMs, 1500);
    const c = resolveModelConfig({ embedBatchSize: 10_000, rerankTopN: -3, rerankProvider: 'bogus' as never, hubUrl: 'http://127.0.0.1:9/' });
    assert.equal(c.embedBatchSize, 256);
    assert.equal(c.rerankTopN, 1);
    assert.equal(c.rerankProvider, 'embedding');
    assert.equal(c.hubUrl, 'http://127.0.0.1:9');
  });

  it('uses the worker embedder for the bundled use-lite model', () => {
    const bundled = dirname(ensureUseLiteModel());
    const e = createEmbedder(resolveModelConfig(), { bundledModelsDir: bundled, cacheDir });
    assert.ok(e instanceof WorkerEmbedder);
    assert.equal(e.id, 'use-lite');
    assert.equal(e.dims, 512);
  });

  it('runs a downloaded hub model or a folder path through transformers.js in the worker', async () => {
    const fixture = await tinyBertFixture();
    const target = downloadedModelDir(cacheDir, 'fixture-org/tiny-bert');
    cpSync(fixture, target, { recursive: true });
    const byId = createEmbedder(resolveModelConfig({ embeddingModel: 'fixture-org/tiny-bert' }), { bundledModelsDir: '/nonexistent', cacheDir });
    assert.ok(byId instanceof WorkerEmbedder);
    assert.equal(byId.id, 'fixture-org/tiny-bert');
    assert.equal(byId.dims, 8);
    const [v] = await byId.embed(['hello']);
    assert.equal(v?.length, 8);
    await byId.dispose();
    const byPath = createEmbedder(resolveModelConfig({ embeddingModel: fixture }), { bundledModelsDir: '/nonexistent', cacheDir });
    assert.equal(byPath.id, 'tiny-bert-fixture');
  });

  it('says how to get a model that is not installed', () => {
    assert.throws(() => resolveModelDir('org/missing', { bundledModelsDir: '/nonexistent', cacheDir }), (e: unknown) => isCode('E_MODEL_MISSING')(e) && /Download/.test((e as Error).message));
    assert.throws(() => resolveModelDir('use-lite', { bundledModelsDir: '/nonexistent', cacheDir }), (e: unknown) => isCode('E_MODEL_MISSING')(e) && /build/.test((e as Error).message));
    assert.throws(() => downloadedModelDir(cacheDir, '../etc'), isCode('E_INVALID_INPUT'));
  });

  it('stores hub ids and bundled names as the model id, folder names for paths', () => {
    assert.equal(embeddingModelId('Xenova/all-MiniLM-L6-v2', '/x/y'), 'Xenova/all-MiniLM-L6-v2');
    assert.equal(embeddingModelId('use-lite', '/x/use-lite'), 'use-lite');
    assert.equal(embeddingModelId('/models/bge-small', '/models/bge-small'), 'bge-small');
  });
});

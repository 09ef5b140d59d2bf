import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelWorkerClient } from '../../../src/core/models/modelWorkerClient';

const SLOW_LOAD_WORKER = { path: join(__dirname, '..', '..', 'fixtures', 'models', 'slowLoadModelWorker.mjs'), execArgv: [] };

describe('model worker client: dispose', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'am-worker-dispose-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lets a model load in flight finish before it terminates the worker (terminating native model code aborts the process)', async () => {
    const client = new ModelWorkerClient({ kind: 'use-lite', modelDir: dir, worker: SLOW_LOAD_WORKER });
    const loading = client.start();
    await new Promise((r) => setTimeout(r, 50));
    await client.dispose();
    await loading;
    assert.equal(readFileSync(join(dir, 'worker.log'), 'utf8'), 'loaded\n', 'the worker answered its load before it was terminated');
    assert.equal(client.started, false);
  });

  it('terminates an idle worker at once, and a new request starts a fresh one', async () => {
    const client = new ModelWorkerClient({ kind: 'use-lite', modelDir: dir, worker: SLOW_LOAD_WORKER });
    await client.start();
    await client.dispose();
    assert.equal(client.started, false);
    rmSync(join(dir, 'worker.log'));
    await client.start();
    assert.ok(existsSync(join(dir, 'worker.log')), 'a fresh worker loaded the model again');
    await client.dispose();
  });
});

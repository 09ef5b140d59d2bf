import { strict as assert } from 'node:assert';
import { dirname } from 'node:path';
import { cliModelDirs, packageRoot } from '../../../src/cli/cliModelDirs';
import { runCli } from '../../../src/cli/run';
import { parseArgs } from '../../../src/cli/args';
import { ROOT, ensureUseLiteModel } from './modelFixture';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; } });
  return { code, out, err };
}

describe('agent-memory embed', function () {
  this.timeout(60_000);
  let models: string;
  before(() => { models = dirname(ensureUseLiteModel()); });

  it('prints a JSON array with one normalised 512-d vector per text, in order', async () => {
    const r = await cli(['embed', '--json', '--models', models, 'the deploy port', 'a cat on a mat', 'the deploy port']);
    assert.equal(r.code, 0, r.err);
    const vectors = JSON.parse(r.out) as number[][];
    assert.equal(vectors.length, 3);
    for (const v of vectors) {
      assert.equal(v.length, 512);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
    }
    assert.deepEqual(vectors[0], vectors[2]);
    assert.notDeepEqual(vectors[0], vectors[1]);
  });

  it('is a usage error without texts, and a clear error for a missing models folder', async () => {
    assert.equal((await cli(['embed', '--json'])).code, 2);
    const missing = await cli(['embed', '--json', '--models', '/nonexistent/models', 'x']);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /default embedding model is missing/);
  });

  it('finds models via --models, then AGENT_MEMORY_MODELS, then the package root', () => {
    assert.equal(cliModelDirs(parseArgs(['--models', '/m']), {}).bundledModelsDir, '/m');
    assert.equal(cliModelDirs(parseArgs([]), { AGENT_MEMORY_MODELS: '/e' }).bundledModelsDir, '/e');
    assert.equal(cliModelDirs(parseArgs([]), {}).bundledModelsDir, `${ROOT}/models`);
    assert.equal(packageRoot(), ROOT);
  });
});

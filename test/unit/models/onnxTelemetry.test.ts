import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ONNX_TELEMETRY_OPT_OUT } from '../../../src/core/models/onnxTelemetry';
import { makeTempDir } from '../helpers/tempDir';
import { ensureUseLiteModel } from './modelFixture';

const ROOT = join(__dirname, '..', '..', '..');
/** Where onnxruntime-node 1.30 keeps its device id and queued telemetry events. */
const TELEMETRY_DIR = join('.cache', 'Microsoft', 'DeveloperTools', '.onnxruntime');
/** Variables under which the runtime suppresses telemetry by itself (CI detection): removed, so the child runs as on a user's machine. */
const CI_VARIABLES = ['CI', 'TF_BUILD', 'GITHUB_ACTIONS', 'GITLAB_CI', 'CIRCLECI', 'TRAVIS', 'JENKINS_URL', 'CODEBUILD_BUILD_ID', 'BUILDKITE', 'TEAMCITY_VERSION', 'APPVEYOR', 'BITBUCKET_BUILD_NUMBER', 'SYSTEM_TEAMFOUNDATIONCOLLECTIONURI', 'ORT_RUNNING_UNIT_TESTS'];

/** Runs the child with its own home folder and a user's environment; returns that home. */
function runChild(home: string, mode: 'engine' | 'bare'): void {
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
  for (const name of [...CI_VARIABLES, ...Object.keys(ONNX_TELEMETRY_OPT_OUT)]) delete env[name];
  const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'onnxTelemetryChild.ts'), mode, ensureUseLiteModel()], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /done/);
}

describe('ONNX Runtime telemetry stays off (src/core/models/onnxTelemetry.ts)', function () {
  this.timeout(180_000);
  let tmp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { tmp = makeTempDir(); });
  afterEach(() => tmp.cleanup());

  it('the bare runtime, told nothing, writes a device id and an event queue (why the opt-out exists)', () => {
    // If this fails, the runtime no longer does so: revisit onnxTelemetry.ts and the models README.
    const home = join(tmp.dir, 'bare');
    runChild(home, 'bare');
    assert.ok(existsSync(join(home, TELEMETRY_DIR, 'deviceid')), 'device id written');
  });

  it('embedding through the model worker, as the engine does, leaves no telemetry state behind', () => {
    const home = join(tmp.dir, 'engine');
    runChild(home, 'engine');
    assert.equal(existsSync(join(home, '.cache', 'Microsoft')), false, 'nothing under ~/.cache/Microsoft');
  });
});

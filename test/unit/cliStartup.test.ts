/**
 * What a CLI command loads: `stats` opens the store and counts, so it must not load the PostgreSQL
 * client, ONNX Runtime, transformers.js or the entity tagger's weights (docs/store.md, "Where the
 * 100k open goes": `pg` alone was ~45 ms of every CLI start, compiling the inlined weights ~15 ms).
 * Run in a child process so the suite's own imports do not count.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { makeTempDir } from './helpers/tempDir';

const ROOT = join(__dirname, '..', '..');

const CHILD = `
const { runCli } = require(${JSON.stringify(join(ROOT, 'src', 'cli', 'run.ts'))});
const out = [];
runCli(['stats', '--json', '--store', process.argv[1]], { stdout: (s) => out.push(s), stderr: (s) => out.push(s) }).then((code) => {
  const loaded = Object.keys(require.cache).map((k) => /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)[\\\\/]/.exec(k)?.[1]).filter(Boolean);
  const weights = Object.keys(require.cache).filter((k) => k.endsWith('entityTaggerWeights.json'));
  process.stdout.write(JSON.stringify({ code, out: out.join(''), packages: [...new Set(loaded)].sort(), weights }));
});
`;

describe('CLI start-up: modules a command does not need', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(() => { temp.cleanup(); });

  it('stats loads neither pg, nor ONNX Runtime, nor transformers.js, nor the tagger weights', () => {
    const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', CHILD, join(temp.dir, 'store')], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { code: number; out: string; packages: string[]; weights: string[] };
    assert.equal(report.code, 0, report.out);
    assert.match(report.out, /"memories": 0/);
    assert.ok(report.packages.includes('fts5-sql-bundle'), `the store's engine is loaded: ${report.packages.join(', ')}`);
    for (const pkg of ['pg', 'pg-pool', 'pg-protocol', 'onnxruntime-node', '@huggingface/transformers']) {
      assert.ok(!report.packages.includes(pkg), `${pkg} was loaded by stats (${report.packages.join(', ')})`);
    }
    assert.deepEqual(report.weights, [], 'the entity tagger weights are read on first use, not with the module');
  });
});

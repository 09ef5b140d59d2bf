import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureUseLiteModel } from './modelFixture';

const FILES = ['onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json', 'README.md', 'LICENSE'];

function build(out: string, ...flags: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [join(ROOT, 'scripts', 'buildModel.mjs'), '--out', out, ...flags], { cwd: ROOT, encoding: 'utf8' });
}

describe('scripts/buildModel.mjs', function () {
  this.timeout(60_000);
  let tmp: string;
  before(() => { tmp = mkdtempSync(join(tmpdir(), 'am-buildmodel-')); });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('regenerates the model folder byte for byte (two builds, identical files)', () => {
    const a = join(tmp, 'a');
    const b = join(tmp, 'b');
    assert.equal(build(a).status, 0);
    assert.equal(build(b, '--force').status, 0);
    for (const f of FILES) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), `${f} differs`);
    const shipped = ensureUseLiteModel();
    for (const f of FILES) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(shipped, f))), `${f} differs from models/use-lite`);
  });

  it('skips the work when the stamp matches the inputs', () => {
    const out = join(tmp, 'c');
    assert.equal(build(out).status, 0);
    const again = build(out);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /up to date/);
  });

  it('writes a Hugging Face layout with an Apache-2.0 licence note', () => {
    const dir = ensureUseLiteModel();
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    assert.equal(config.agent_memory.dims, 512);
    const tokenizer = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8'));
    assert.equal(tokenizer.model.type, 'Unigram');
    assert.equal(tokenizer.model.vocab.length, 8000);
    assert.match(readFileSync(join(dir, 'README.md'), 'utf8'), /Apache License 2\.0/);
    assert.match(readFileSync(join(dir, 'LICENSE'), 'utf8'), /Apache License/);
  });
});

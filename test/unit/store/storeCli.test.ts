import { strict as assert } from 'node:assert';
import { statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { makeTempDir } from '../helpers/tempDir';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; } });
  return { code, out, err };
}

describe('cli store check and store recover', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => { temp = makeTempDir(); });
  afterEach(() => temp.cleanup());

  it('finds a cut journal, recovers it with the exact loss, and is clean afterwards', async () => {
    for (let i = 0; i < 4; i++) assert.equal((await cli(['--store', temp.dir, 'remember', `cli store memory ${i}`])).code, 0);
    assert.equal((await cli(['--store', temp.dir, 'store', 'check'])).code, 0);
    const journal = join(temp.dir, 'journal.00000001');
    truncateSync(journal, statSync(journal).size - 10);
    const check = await cli(['--store', temp.dir, 'store', 'check']);
    assert.equal(check.code, 1);
    assert.match(check.out, /DAMAGE {2}journal\.00000001: .*incomplete record/);
    assert.match(check.out, /1 acknowledged transaction\(s\) are missing/);
    assert.match(check.out, /agent-memory store recover/);
    const recover = await cli(['--store', temp.dir, 'store', 'recover', '--json']);
    assert.equal(recover.code, 0, recover.out + recover.err);
    const report = JSON.parse(recover.out) as { recovery: { lostRecords: number; lossExact: boolean; damagedFiles: string[] }; check: { ok: boolean } };
    assert.equal(report.recovery.lostRecords, 1);
    assert.equal(report.recovery.lossExact, true);
    assert.equal(report.recovery.damagedFiles.length, 1);
    assert.equal(report.check.ok, true);
    const again = await cli(['--store', temp.dir, 'store', 'recover']);
    assert.match(again.out, /Nothing to recover/);
  });

  it('rejects an unknown subcommand and a missing store folder clearly', async () => {
    assert.equal((await cli(['--store', temp.dir, 'store', 'fix'])).code, 2);
    const missing = await cli(['--store', join(temp.dir, 'nope'), 'store', 'check']);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /No memory store at/);
  });
});

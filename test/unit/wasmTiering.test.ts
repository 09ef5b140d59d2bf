/**
 * Which CLI commands run the SQLite engine on baseline wasm code only (src/cli/wasmTiering.ts):
 * short commands skip the optimising re-compilation they waited for at exit; recall, ingest and
 * the other long or statement-heavy commands keep it.
 */
import { strict as assert } from 'node:assert';
import { runsOnBaselineWasm } from '../../src/cli/wasmTiering';

describe('CLI: wasm tiering per command', () => {
  it('short commands run on baseline code, wherever the global flags stand', () => {
    for (const argv of [['stats'], ['--store', '/tmp/x', 'stats', '--json'], ['--set', 'a=b', 'get', 'ID'], ['pin', 'Redis'], ['version']]) {
      assert.equal(runsOnBaselineWasm(argv), true, argv.join(' '));
    }
  });

  it('recall, ingest, maintenance and the other heavy commands keep the optimised code', () => {
    for (const argv of [['recall', '--stdin'], ['recall', 'stats'], ['--store', 'stats', 'recall', 'q'], ['ingest', 'f.jsonl'], ['maintain'], ['export'], ['forget', 'ID'], ['store', 'check'], ['stats', '--bogus'], []]) {
      assert.equal(runsOnBaselineWasm(argv), false, argv.join(' '));
    }
  });
});

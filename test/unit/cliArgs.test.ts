import { strict as assert } from 'node:assert';
import { parseArgs, intFlag } from '../../src/cli/args';
import { runCli } from '../../src/cli/run';

describe('cli arguments', () => {
  it('parses flags with values, boolean flags and positionals', () => {
    const a = parseArgs(['--store', '/tmp/s', 'recall', '--json', '--limit=5', 'what', 'db']);
    assert.deepEqual(a.flags, { store: '/tmp/s', json: true, limit: '5' });
    assert.deepEqual(a.positionals, ['recall', 'what', 'db']);
  });

  it('rejects a flag that is missing its value', () => {
    assert.throws(() => parseArgs(['--store']), /--store needs a value/);
  });

  it('range-checks integer flags', () => {
    assert.equal(intFlag(parseArgs(['--limit', '7']), 'limit', 1, 100), 7);
    assert.throws(() => intFlag(parseArgs(['--limit', '0']), 'limit', 1, 100), /from 1 to 100/);
  });

  it('exits 2 on an unknown command and on usage errors', async () => {
    const err: string[] = [];
    const io = { stdout: () => undefined, stderr: (s: string) => { err.push(s); } };
    assert.equal(await runCli(['frobnicate'], io), 2);
    assert.match(err.join(''), /unknown command 'frobnicate'/);
    assert.equal(await runCli(['--store'], io), 2);
  });

  it('refuses an unknown flag without swallowing the next argument', () => {
    assert.throws(() => parseArgs(['recall', '--bogus', 'x', 'pnpm']), /unknown option --bogus/);
    assert.throws(() => parseArgs(['recall', '--bogus=x', 'pnpm']), /unknown option --bogus/);
    assert.throws(() => parseArgs(['recall', '--json=yes', 'pnpm']), /--json takes no value/);
    assert.deepEqual(parseArgs(['remember', '--', '--bogus', 'x']).positionals, ['remember', '--bogus', 'x']);
  });

  it('exits 2 on an unknown flag or a flag the command does not take, before touching a store', async () => {
    const err: string[] = [];
    const io = { stdout: () => undefined, stderr: (s: string) => { err.push(s); } };
    assert.equal(await runCli(['--store', '/nonexistent/never-created', 'recall', '--bogus', 'x', 'pnpm'], io), 2);
    assert.match(err.join(''), /unknown option --bogus/);
    err.length = 0;
    assert.equal(await runCli(['--store', '/nonexistent/never-created', 'get', '--limit', '3', 'id'], io), 2);
    assert.match(err.join(''), /get does not take --limit/);
  });
});

import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from '../../../src/cli/args';
import { makeRecallCommand, formatResults } from '../../../src/cli/commands/recall';
import { runCli } from '../../../src/cli/run';
import { fakeEmbedder } from './fakeEmbedder';
import { toResult } from '../../../src/core/recall/recallService';
import { cand } from './candidateFixture';

interface Captured { out: string[]; err: string[]; io: { stdout(s: string): void; stderr(s: string): void } }
function capture(): Captured {
  const out: string[] = [], err: string[] = [];
  return { out, err, io: { stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } } };
}

describe('recall CLI', () => {
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'am-recall-cli-'));
    for (const text of ['We decided to use PostgreSQL for the API database.', 'The deploy port for staging is 8443.', 'Prefer tabs over spaces in Makefiles.']) {
      const c = capture();
      assert.equal(await runCli(['--store', dir, 'remember', '--type', 'decision', text], c.io), 0, c.err.join(''));
    }
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });
  const cmd = makeRecallCommand({ embedder: () => fakeEmbedder() });
  const run = async (argv: string[], input?: string): Promise<Captured & { code: number }> => {
    const c = capture();
    const command = input === undefined ? cmd : makeRecallCommand({ embedder: () => fakeEmbedder(), input: () => Readable.from([input]) });
    const code = await command(parseArgs(['--store', dir, ...argv]), c.io);
    return { ...c, code };
  };

  it('prints a JSON array of {id, sourceId, content, score, relevance, type, createdAt}', async () => {
    const r = await run(['--json', '--limit', '2', 'which database does the API use']);
    assert.equal(r.code, 0);
    const arr = JSON.parse(r.out.join('')) as Array<Record<string, unknown>>;
    assert.match(String(arr[0]?.content), /PostgreSQL/);
    assert.deepEqual(Object.keys(arr[0]!).sort(), ['content', 'createdAt', 'id', 'relevance', 'score', 'sourceId', 'type']);
    // relevance is the score over the best score of the recall, on 0–1, whatever the scores' size.
    assert.equal(arr[0]?.relevance, 1);
    for (const x of arr) assert.ok(Math.abs((x.relevance as number) - (x.score as number) / (arr[0]?.score as number)) < 1e-3, JSON.stringify(x));
  });

  it('keeps relevance on 0–1 when ranking steps lift a score above 1', () => {
    const c = cand('a', 1.11214, { content: 'Decision: move the reading list to SQLite.' });
    const top = toResult(c, false, 1.11214), other = toResult(cand('b', 0.55607), false, 1.11214);
    assert.deepEqual([top.score, top.relevance, other.score, other.relevance], [1.1121, 1, 0.5561, 0.5]);
    assert.equal(toResult(cand('z', 0), false, 0).relevance, 0, 'an empty recall has no best to compare with');
  });

  it('prints the score breakdown with --explain', async () => {
    const r = await run(['--explain', '--only', 'lexical', 'deploy port staging']);
    const out = r.out.join('');
    assert.match(out, /- Found because it shares 3 of 3 words with the question\./);
    assert.match(out, /Relevance 1\.00 of 1/);
    assert.match(out, /How to read this/);
    const why = out.split('\n').filter((l) => l.startsWith('   - '));
    assert.ok(why.length > 0 && why.every((l) => !/[0-9a-f]{8}-[0-9a-f]{4}-/.test(l)), 'no raw id in the explanation');
  });

  it('answers one JSON line per --stdin request, errors included, in one process', async () => {
    const r = await run(['--stdin'], '{"query":"deploy port","limit":1}\nnot json\n{"query":"tabs Makefiles","only":"lexical"}\n{"query":""}\n');
    const lines = r.out.join('').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 4);
    assert.match(lines[0][0].content, /8443/);
    assert.equal(lines[1].error.code, 'E_INVALID_INPUT');
    assert.match(lines[2][0].content, /tabs/);
    assert.equal(lines[3].error.code, 'E_INVALID_INPUT');
  });

  it('is registered in the command table and reports usage errors with exit 2', async () => {
    const c = capture();
    assert.equal(await runCli(['--store', dir, 'recall'], c.io), 2);
    assert.match(c.err.join(''), /recall needs a query/);
    const d = capture();
    assert.equal(await runCli(['--store', dir, 'recall', '--only', 'both', 'x'], d.io), 2);
    const e = capture();
    assert.equal(await runCli(['--store', dir, 'recall', '--only', 'lexical', '--json', 'deploy port'], e.io), 0, e.err.join(''));
    assert.match(e.out.join(''), /8443/);
  });

  it('says so when nothing matched', () => {
    assert.equal(formatResults([], false), 'No memories matched.\n');
  });
});

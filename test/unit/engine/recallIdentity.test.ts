import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { parseArgs } from '../../../src/cli/args';
import { makeRecallCommand } from '../../../src/cli/commands/recall';
import { runCli } from '../../../src/cli/run';
import { systemClock } from '../../../src/core/clock';
import { defaultEngineSettings } from '../../../src/core/engine/engineConfig';
import { MemoryEngine } from '../../../src/core/engine/memoryEngine';
import { noProgress } from '../../../src/core/hostContext';
import { silentLogger } from '../../../src/core/logger';
import type { RecallResult } from '../../../src/core/recall/recallTypes';
import { readMemorySettings } from '../../../src/core/config/memorySettings';
import { makeTempDir } from '../helpers/tempDir';
import { fakeEmbedder } from '../recall/fakeEmbedder';

const MEMORIES = [
  'We decided to use PostgreSQL for the orders API database.',
  'The staging deploy listens on port 8443 behind the gateway.',
  'Redis caches each reading list page for ten minutes.',
  'Invoices are rendered to PDF by the billing worker.',
  'The orders API paginates with an opaque cursor, never with offsets.',
  'We moved the search index from Elasticsearch to SQLite FTS5.',
];
const QUERIES = ['which database does the orders API use', 'does the orders API page with a cursor', 'what caches reading lists', 'search index'];

interface Row { readonly id: string; readonly score: number }
const rows = (r: readonly RecallResult[]): Row[] => r.map((x) => ({ id: x.id, score: x.score }));

function capture(): { out: string[]; err: string[]; io: { stdout(s: string): void; stderr(s: string): void } } {
  const out: string[] = [], err: string[] = [];
  return { out, err, io: { stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } } };
}

/** Same ids in the same order, same scores (the clock moves between the two recalls, so to 1e-9). */
function assertSameRecall(cli: readonly Row[], engine: readonly Row[], query: string): void {
  assert.ok(engine.length > 0, `"${query}" recalls something`);
  assert.deepEqual(cli.map((r) => r.id), engine.map((r) => r.id), `ids and order for "${query}"`);
  cli.forEach((r, i) => assert.ok(Math.abs(r.score - (engine[i] as Row).score) < 1e-9, `score of result ${i + 1} for "${query}": cli ${r.score}, engine ${(engine[i] as Row).score}`));
}

/**
 * The "Done when": the CLI and the extension give identical recall results for the same
 * store and settings, because both run the one engine. The extension's side is an engine on the
 * settings the extension reads (every VS Code setting at its default); the CLI's side is the
 * recall command on the same store folder.
 */
describe('recall identity: CLI and engine on the same store and settings', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let storeDir: string;
  const host = (dir: string) => ({ paths: { storeDir: dir, bundledModelsDir: join(tmp.dir, 'models'), cacheDir: join(tmp.dir, 'cache') }, logger: silentLogger, clock: systemClock, llm: undefined, progress: noProgress });

  before(async () => {
    tmp = makeTempDir('am-identity-');
    storeDir = join(tmp.dir, 'store');
    const engine = await MemoryEngine.open(host(storeDir), readMemorySettings(() => undefined), { mode: 'onDemand', embedder: () => fakeEmbedder(512) });
    try {
      for (const content of MEMORIES) await engine.remember({ content, type: 'decision' });
      await engine.settle();
      assert.equal(engine.status().pendingJobs, 0, 'settle() leaves no job pending');
    } finally {
      await engine.close();
    }
  });
  after(() => tmp.cleanup());

  it('the settings the extension reads with nothing set are the defaults the CLI runs on', () => {
    const cli = defaultEngineSettings();
    const extension = readMemorySettings(() => undefined);
    assert.deepEqual({ ...extension, storePath: '' }, { ...cli, storePath: '' });
  });

  it('gives the same ids, order and scores through the recall command and through an engine', async () => {
    const engine = await MemoryEngine.open(host(storeDir), readMemorySettings(() => undefined), { mode: 'onDemand', embedder: () => fakeEmbedder(512) });
    try {
      for (const query of QUERIES) {
        const fromEngine = rows(await engine.recall({ query }, { track: false }));
        const c = capture();
        assert.equal(await makeRecallCommand({ embedder: () => fakeEmbedder(512) })(parseArgs(['--store', storeDir, '--json', query]), c.io), 0, c.err.join(''));
        assertSameRecall(rows(JSON.parse(c.out.join('')) as RecallResult[]), fromEngine, query);
      }
    } finally {
      await engine.close();
    }
  });

  it('gives the same keyword results through run() (the agent-memory binary) and an engine', async () => {
    const engine = await MemoryEngine.open(host(storeDir), readMemorySettings(() => undefined), { mode: 'onDemand', embedder: () => undefined });
    try {
      for (const query of QUERIES) {
        const fromEngine = rows(await engine.recall({ query, only: 'lexical' }, { track: false }));
        const c = capture();
        assert.equal(await runCli(['--store', storeDir, 'recall', '--json', '--only', 'lexical', query], c.io), 0, c.err.join(''));
        assertSameRecall(rows(JSON.parse(c.out.join('')) as RecallResult[]), fromEngine, query);
      }
    } finally {
      await engine.close();
    }
  });
});

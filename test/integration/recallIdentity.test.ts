import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentMemoryApi } from '../../src/extension/extension';
import type { RecallResult } from '../../src/core/recall/recallTypes';
import { EXTENSION_ID, memoryApi, restoreDefaultStore, useFreshStore } from './memoryTestKit';

const MEMORIES = [
  'We decided to use PostgreSQL for the orders API database.',
  'The staging deploy listens on port 8443 behind the gateway.',
  'Redis caches each reading list page for ten minutes.',
  'Invoices are rendered to PDF by the billing worker.',
  'The orders API paginates with an opaque cursor, never with offsets.',
  'We moved the search index from Elasticsearch to SQLite FTS5.',
];
const QUERIES = ['which database does the orders API use', 'does the orders API page with a cursor', 'what caches reading lists', 'search index'];
/**
 * Scores agree to this: the CLI runs its embedding model with one intra-op thread (a CLI policy,
 * see src/cli/commands/recall.ts), so a query vector may differ in its last float bits.
 */
const SCORE_TOLERANCE = 1e-6;

/** The built CLI (dist/cli.js of the extension under test) on the same store folder. */
function cliRecall(storeDir: string, query: string): Promise<RecallResult[]> {
  const cli = join(vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath ?? '', 'dist', 'cli.js');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, '--store', storeDir, 'recall', '--json', query], { timeout: 60_000, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`agent-memory recall failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as RecallResult[]);
    });
  });
}

/** The "Done when": the CLI and the extension give identical recall results for the same store and settings. */
describe('Recall identity: the extension and the CLI', () => {
  let api: AgentMemoryApi;
  let storeDir: string;

  before(async () => {
    api = await memoryApi();
    storeDir = (await useFreshStore(api, 'identity')).store.dir;
  });

  after(async () => {
    await restoreDefaultStore();
  });

  it('recalls the same ids, in the same order, with the same scores through the Recall command and dist/cli.js', async function () {
    this.timeout(180_000);
    const engine = await api.services.runtime();
    for (const content of MEMORIES) await engine.remember({ content, type: 'decision' });
    await engine.settle();
    assert.equal(engine.status().pendingJobs, 0, 'settle() leaves no job pending');
    for (const query of QUERIES) {
      const fromExtension = await vscode.commands.executeCommand<RecallResult[] | undefined>('agentMemory.recall', query, { showPicker: false });
      assert.ok(fromExtension && fromExtension.length > 0, `the extension recalls something for "${query}"`);
      const fromCli = await cliRecall(storeDir, query);
      assert.deepEqual(fromCli.map((r) => r.id), fromExtension.map((r) => r.id), `ids and order for "${query}"`);
      fromCli.forEach((r, i) => {
        const other = (fromExtension[i] as RecallResult).score;
        assert.ok(Math.abs(r.score - other) < SCORE_TOLERANCE, `score of result ${i + 1} for "${query}": cli ${r.score}, extension ${other}`);
      });
    }
  });
});

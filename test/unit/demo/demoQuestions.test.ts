/**
 * The seeded demo store (test/fixtures/demoWorkspace/.agent-memory-seed.jsonl, what `npm start`
 * opens) answers its own questions with the current fact first, without a language model: the
 * store is built exactly as scripts/launch.mjs builds it (`agent-memory ingest` with the bundled
 * embedding model), then queried through `agent-memory recall --json`.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import type { CliIo } from '../../../src/cli/run';
import { DEFAULT_CONTRADICTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { DEFAULT_GRAPH_CONFIG } from '../../../src/core/config/graphConfig';
import { seededRng } from '../../../src/core/consolidation/cluster';
import { findDuplicatesAndConflicts } from '../../../src/core/consolidation/duplicatesAndConflicts';
import { silentLogger } from '../../../src/core/logger';
import type { RecallResult } from '../../../src/core/recall/recallTypes';
import { openStore } from '../../../src/core/store/openStore';
import { ensureUseLiteModel, ROOT } from '../models/modelFixture';

const SEED = join(ROOT, 'test', 'fixtures', 'demoWorkspace', '.agent-memory-seed.jsonl');

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } };
}

describe('seeded demo store: currentness without a language model', function () {
  this.timeout(120_000);
  let dir: string;

  const cli = async (argv: string[]): Promise<string> => {
    const o = io();
    const code = await runCli(['--store', dir, ...argv], o);
    assert.equal(code, 0, o.err.join(''));
    return o.out.join('');
  };
  const recall = async (query: string): Promise<RecallResult[]> => JSON.parse(await cli(['recall', '--json', '--explain', query])) as RecallResult[];

  before(async () => {
    ensureUseLiteModel();
    dir = mkdtempSync(join(tmpdir(), 'am-demo-questions-'));
    assert.match(await cli(['ingest', SEED]), /"ingested":60/);
    // The README's CLI example, remembered into the demo store.
    const readme = join(dir, 'readme-example.jsonl');
    writeFileSync(readme, `${JSON.stringify({ content: 'We chose pnpm workspaces over yarn', type: 'decision', project: 'web' })}\n`);
    assert.match(await cli(['ingest', readme]), /"ingested":1/);
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  it('"how do we store the reading list?" → the SQLite decision first; the JSON file decision marked superseded by it', async () => {
    const r = await recall('how do we store the reading list?');
    assert.match(r[0]?.content ?? '', /move the reading list from the JSON file to SQLite/);
    assert.equal(r[0]?.currentness, undefined);
    const stale = r.find((x) => /single JSON file/.test(x.content));
    assert.ok(stale, 'the superseded decision is still recalled');
    assert.equal(stale.currentness?.status, 'superseded');
    assert.equal(stale.currentness?.replacementId, r[0]?.id);
    assert.ok(stale.explain?.notes.some((n) => n.startsWith('[currentness] superseded by: Decision: move the reading list')));
    assert.ok(!stale.explain?.boosts.some((b) => b.stage === 'currentness'), 'a stale memory gets no currentness boost');
  });

  it('"which port does the server listen on?" → the current port (4310) first; port 8080 marked superseded', async () => {
    const r = await recall('which port does the server listen on?');
    assert.match(r[0]?.content ?? '', /4310/);
    const stale = r.find((x) => x.content === 'The server listens on port 8080.');
    assert.equal(stale?.currentness?.status, 'superseded');
    assert.match(stale?.currentness?.replacement ?? '', /127\.0\.0\.1:4310/);
  });

  it('"what is the short book threshold?" → 220 pages first', async () => {
    const r = await recall('what is the short book threshold?');
    assert.match(r[0]?.content ?? '', /SHORT_BOOK_PAGES is 220/);
  });

  it('a historical question still finds the old decision first', async () => {
    const r = await recall('how did we store the reading list before?');
    assert.match(r[0]?.content ?? '', /single JSON file/);
    assert.equal(r[0]?.currentness?.status, 'superseded');
  });

  it('the README example "which package manager do we use?" → "We chose pnpm workspaces over yarn" first', async () => {
    const r = await recall('which package manager do we use?');
    assert.equal(r[0]?.content, 'We chose pnpm workspaces over yarn');
  });

  it('maintenance proposes the demo conflicts (JSON file vs SQLite, port 8080 vs 4310) without a language model', async () => {
    const store = await openStore({ dir });
    try {
      const model = store.read((db) => db.get<{ model_id: string; dimensions: number }>('SELECT model_id, dimensions FROM embeddings LIMIT 1'));
      assert.ok(model);
      const r = await findDuplicatesAndConflicts({ store, modelId: model.model_id, dims: model.dimensions, llm: undefined, graph: DEFAULT_GRAPH_CONFIG, contradiction: DEFAULT_CONTRADICTION_CONFIG, logger: silentLogger, rng: seededRng(1) });
      const content = new Map(store.read((db) => db.all<{ id: string; content: string }>('SELECT id, content FROM memories')).map((m) => [m.id, m.content]));
      const pairs = r.conflicts.map((c) => `${content.get(c.olderId)} => ${content.get(c.newerId)} (${c.reason})`);
      assert.ok(pairs.some((p) => /single JSON file.*=> Decision: move the reading list.*\(decision_change\)/.test(p)), pairs.join('\n'));
      assert.ok(pairs.some((p) => /^The server listens on port 8080\. => Port 8080 clashed.*\(value_change\)/.test(p)), pairs.join('\n'));
    } finally {
      await store.close();
    }
  });
});

/**
 * Settings whose behaviour shows through the CLI commands, which run on the same table-driven
 * configuration as the extension (`--set KEY=VALUE`, src/cli/cliSettings.ts): each test runs a
 * command with and without the setting and compares what it did.
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from '../../../src/cli/args';
import { makeFetchCommand } from '../../../src/cli/commands/fetch';
import { makeRecallCommand } from '../../../src/cli/commands/recall';
import { makeRememberCommand } from '../../../src/cli/commands/remember';
import type { CliCommand } from '../../../src/cli/run';
import { runCli } from '../../../src/cli/run';
import { createStreamLogger } from '../../../src/core/logger';
import type { Embedder } from '../../../src/core/models/embedder';
import { openStore } from '../../../src/core/store/openStore';
import { makeTempDir } from '../helpers/tempDir';
import { fakeEmbedder } from '../recall/fakeEmbedder';
import { settingContract } from './contractRegistry';

interface Out { code: number; out: string; err: string }
const io = (out: string[], err: string[]) => ({ stdout: (s: string) => { out.push(s); }, stderr: (s: string) => { err.push(s); } });

async function command(cmd: CliCommand, argv: string[]): Promise<Out> {
  const out: string[] = [], err: string[] = [];
  const code = await cmd(parseArgs(argv), io(out, err));
  return { code, out: out.join(''), err: err.join('') };
}
async function cli(...argv: string[]): Promise<Out> {
  const out: string[] = [], err: string[] = [];
  const code = await runCli(argv, io(out, err));
  return { code, out: out.join(''), err: err.join('') };
}

const fake = (): Embedder => ({ ...fakeEmbedder(), dispose: async () => undefined });
/** remember that waits for embedding (fake embedder) and extraction, as the CLI does by default. */
const rememberFake = makeRememberCommand({ embedder: fake, llm: () => undefined });
const recallFake = makeRecallCommand({ embedder: fake });

async function jobTypes(store: string): Promise<Record<string, number>> {
  const durable = await openStore({ dir: store, logger: createStreamLogger('error') });
  try {
    const rows = durable.read((db) => db.all<{ job_type: string; n: number }>('SELECT job_type, COUNT(*) AS n FROM memory_jobs GROUP BY job_type'));
    return Object.fromEntries(rows.map((r) => [r.job_type, r.n]));
  } finally {
    await durable.close();
  }
}

describe('settings contract: through the CLI', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let store: string;
  beforeEach(() => { temp = makeTempDir('am-contract-cli-'); store = join(temp.dir, 'store'); });
  afterEach(() => temp.cleanup());

  const seed = async (...texts: string[]): Promise<void> => {
    for (const t of texts) {
      const r = await command(rememberFake, ['--store', store, t]);
      assert.equal(r.code, 0, r.err);
    }
  };

  settingContract('graph.enabled', 'off, a remembered memory queues no extraction (no graph work)', async () => {
    assert.equal((await cli('--store', store, 'remember', '--no-wait', 'We deploy the API with Helm.')).code, 0);
    assert.equal((await cli('--store', store, '--set', 'graph.enabled=false', 'remember', '--no-wait', 'We deploy the web app with Vercel.')).code, 0);
    assert.equal((await jobTypes(store)).extract, 1);
  });

  settingContract('models.rerankProvider', "'none' skips the head reranker, so recall scores change", async () => {
    await seed('We chose PostgreSQL for the billing database.', 'The billing service sends invoices on Mondays.', 'Billing runs on Kubernetes.');
    // The rerank stage is off by default (docs/recall-design.md, "Sixth round"); the provider acts when it is on.
    const on = await command(recallFake, ['--store', store, '--set', 'search.rerankEnabled=true', '--json', 'which database does billing use']);
    const off = await command(recallFake, ['--store', store, '--set', 'search.rerankEnabled=true', '--set', 'models.rerankProvider=none', '--json', 'which database does billing use']);
    assert.equal(on.code, 0, on.err);
    assert.notEqual(off.out, on.out);
  });

  settingContract('extraction.aliases', 'an alias names the entity extraction records', async () => {
    await command(rememberFake, ['--store', store, '--set', 'extraction.aliases={"Pg":"PostgreSQL"}', 'We store invoices in Pg since March.']);
    const entities = await cli('--store', store, 'entities', '--json');
    assert.match(entities.out, /PostgreSQL/);
    const plain = join(temp.dir, 'plain');
    await command(rememberFake, ['--store', plain, 'We store invoices in Pg since March.']);
    assert.doesNotMatch((await cli('--store', plain, 'entities', '--json')).out, /PostgreSQL/);
  });

  settingContract('sessions.maxInjectTokens', '0 injects nothing at session start', async () => {
    await seed('The staging deploy port is 8443.', 'Deploys to staging run from the main branch.');
    const start = async (...pre: string[]): Promise<unknown[]> => {
      const r = await cli('--store', store, ...pre, 'session', 'start', '--query', 'staging deploy port', '--json');
      assert.equal(r.code, 0, r.err);
      return (JSON.parse(r.out) as { injected: unknown[] }).injected;
    };
    assert.ok((await start()).length > 0, 'the default injects the matching memories');
    assert.equal((await start('--set', 'sessions.maxInjectTokens=0')).length, 0);
  });

  settingContract('feedback.enabled', 'off, ending a session runs no feedback', async () => {
    await seed('The staging deploy port is 8443.');
    const end = async (...pre: string[]): Promise<string> => {
      const key = `k-${pre.length}`;
      assert.equal((await cli('--store', store, ...pre, 'session', 'start', '--session', key, '--query', 'staging port')).code, 0);
      await cli('--store', store, ...pre, 'session', 'turn', key, 'What is the staging deploy port? It is 8443, from memory.');
      const r = await cli('--store', store, ...pre, 'session', 'end', key, '--json');
      assert.equal(r.code, 0, r.err);
      return JSON.stringify((JSON.parse(r.out) as { feedback?: unknown }).feedback ?? null);
    };
    const on = await end();
    const off = await end('--set', 'feedback.enabled=false');
    assert.notEqual(off, on);
  });

  settingContract('fetch.allowPrivateAddresses', 'on, fetching a loopback address is allowed', async () => {
    const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('The internal wiki says staging uses port 8443.'); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wiki.txt`;
      const fetchCmd = makeFetchCommand({ embedder: () => undefined, llm: () => undefined });
      await assert.rejects(command(fetchCmd, ['--store', store, '--no-wait', url]), /Refusing to fetch 127\.0\.0\.1/);
      const allowed = await command(fetchCmd, ['--store', store, '--set', 'fetch.allowPrivateAddresses=true', '--no-wait', url]);
      assert.equal(allowed.code, 0, allowed.err);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  settingContract('capture.maxMemoriesPerTranscript', 'caps the memories one imported transcript creates', async () => {
    const file = join(__dirname, '..', '..', 'fixtures', 'transcripts', 'claude-session.jsonl');
    const created = async (dir: string, ...pre: string[]): Promise<number> => {
      const r = await cli('--store', dir, ...pre, 'import', file, '--no-wait', '--json');
      assert.equal(r.code, 0, r.err);
      return (JSON.parse(r.out) as { memoriesCreated: number }).memoriesCreated;
    };
    const all = await created(store);
    const capped = await created(join(temp.dir, 'capped'), '--set', 'capture.maxMemoriesPerTranscript=1');
    const none = await created(join(temp.dir, 'none'), '--set', 'capture.maxMemoriesPerTranscript=0');
    assert.ok(capped < all, `capped ${capped}, uncapped ${all}`);
    assert.ok(none < capped, `0 gives ${none}`);
  });

  settingContract('capture.maxTurnChars', 'an imported turn longer than it is cut', async () => {
    const file = join(temp.dir, 'long.jsonl');
    writeFileSync(file, JSON.stringify({ role: 'user', content: `We decided to keep the audit log. ${'x'.repeat(1000)}`, sessionId: 'long-1' }) + '\n');
    const longest = async (dir: string, ...pre: string[]): Promise<number> => {
      assert.equal((await cli('--store', dir, ...pre, 'import', file, '--format', 'jsonl', '--no-wait')).code, 0);
      const durable = await openStore({ dir, logger: createStreamLogger('error') });
      try {
        return durable.read((db) => db.get<{ n: number }>('SELECT MAX(LENGTH(text)) AS n FROM session_turns')?.n ?? 0);
      } finally {
        await durable.close();
      }
    };
    assert.ok((await longest(store)) > 1000);
    assert.ok((await longest(join(temp.dir, 'short'), '--set', 'capture.maxTurnChars=200')) < 300);
  });

  /** Aspect weights after one session whose transcript talks about the remembered facts. */
  const weightsAfterSession = async (dir: string, ...pre: string[]): Promise<number[]> => {
    for (const t of ['The billing service uses PostgreSQL for invoices.', 'The billing service sends invoices every Monday.']) {
      assert.equal((await command(rememberFake, ['--store', dir, t])).code, 0);
    }
    assert.equal((await cli('--store', dir, ...pre, 'session', 'start', '--session', 's1', '--query', 'billing service invoices PostgreSQL')).code, 0);
    await cli('--store', dir, ...pre, 'session', 'turn', 's1', 'The billing service uses PostgreSQL for invoices, and sends invoices every Monday.');
    // a keyword recall inside the session is what confirms the memories' aspects
    assert.equal((await cli('--store', dir, ...pre, 'recall', '--session', 's1', '--only', 'lexical', 'billing service PostgreSQL invoices')).code, 0);
    const end = await cli('--store', dir, ...pre, 'session', 'end', 's1', '--json');
    assert.equal(end.code, 0, end.err);
    const durable = await openStore({ dir, logger: createStreamLogger('error') });
    try {
      return durable.read((db) => db.all<{ w: number }>('SELECT weight AS w FROM entity_aspects ORDER BY id').map((r) => Number(r.w.toFixed(6))));
    } finally {
      await durable.close();
    }
  };

  settingContract('feedback.ftsWeightDelta', 'sets how much a session that used an aspect raises its weight', async () => {
    const plain = await weightsAfterSession(store);
    assert.ok(plain.some((w) => w > 0.5), `weights after the session: ${plain.join(', ')}`);
    assert.notDeepEqual(await weightsAfterSession(join(temp.dir, 'big'), '--set', 'feedback.ftsWeightDelta=0.3'), plain);
  });

  settingContract('feedback.maxAspectWeight', 'caps how high feedback raises an aspect weight', async () => {
    const capped = await weightsAfterSession(store, '--set', 'feedback.ftsWeightDelta=0.3', '--set', 'feedback.maxAspectWeight=0.6');
    assert.ok(capped.every((w) => w <= 0.6) && capped.some((w) => w === 0.6), `weights ${capped.join(', ')}`);
  });
});

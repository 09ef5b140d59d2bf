import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from '../../../src/cli/args';
import { envVarFor } from '../../../src/cli/cliSettings';
import { EDITOR_ONLY_SETTINGS } from '../../../src/cli/editorOnlySettings';
import { envSecretStore } from '../../../src/cli/envSecrets';
import { cliStoreDir } from '../../../src/cli/openCliStore';
import { LLM_API_KEY_SECRET } from '../../../src/core/llm/configuredLlm';
import { teamPasswordSecretKey } from '../../../src/core/team/teamSecret';
import { runCli } from '../../../src/cli/run';
import { SETTINGS } from '../../../src/core/config/settingsTable';
import { createStreamLogger } from '../../../src/core/logger';
import { openStore } from '../../../src/core/store/openStore';
import { makeTempDir } from '../helpers/tempDir';

interface Out { code: number; out: string; err: string }
async function cli(...argv: string[]): Promise<Out> {
  const out: string[] = [], err: string[] = [];
  const code = await runCli(argv, { stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } });
  return { code, out: out.join(''), err: err.join('') };
}

/** Runs `fn` with environment variables set, restoring them afterwards. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try { return await fn(); } finally {
    for (const [k, v] of Object.entries(before)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
  }
}

describe('CLI configuration (--set, AGENT_MEMORY_<KEY>, <store>/config.json, config command)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let store: string;
  beforeEach(() => { temp = makeTempDir('am-cli-settings-'); store = join(temp.dir, 'store'); });
  afterEach(() => temp.cleanup());

  const get = async (key: string, ...pre: string[]): Promise<{ value: unknown; source: string }> => {
    const r = await cli('--store', store, ...pre, 'config', 'get', key, '--json');
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out) as { value: unknown; source: string };
  };

  it('maps a key to its environment variable', () => {
    assert.equal(envVarFor('models.rerankTopN'), 'AGENT_MEMORY_MODELS_RERANKTOPN');
    assert.equal(envVarFor('llm.openaiCompatible.baseUrl'), 'AGENT_MEMORY_LLM_OPENAICOMPATIBLE_BASEURL');
  });

  it('takes --set over the environment over config.json over the default, and says where each value came from', async () => {
    assert.deepEqual(await get('search.topK'), { key: 'search.topK', value: 20, source: 'default' });
    const set = await cli('--store', store, 'config', 'set', 'agentMemory.search.topK', '30');
    assert.equal(set.code, 0, set.err);
    assert.deepEqual(JSON.parse(readFileSync(join(store, 'config.json'), 'utf8')), { 'search.topK': 30 });
    assert.deepEqual(await get('search.topK'), { key: 'search.topK', value: 30, source: 'config.json' });
    await withEnv({ AGENT_MEMORY_SEARCH_TOPK: '40' }, async () => {
      assert.deepEqual(await get('search.topK'), { key: 'search.topK', value: 40, source: 'env AGENT_MEMORY_SEARCH_TOPK' });
      assert.deepEqual(await get('search.topK', '--set', 'search.topK=50', '--set', 'search.limit=3'), { key: 'search.topK', value: 50, source: '--set' });
      assert.deepEqual(await get('search.limit', '--set', 'search.topK=50', '--set', 'search.limit=3'), { key: 'search.limit', value: 3, source: '--set' });
      const again = await cli('--store', store, 'config', 'set', 'search.topK', '31');
      assert.match(again.err, /env AGENT_MEMORY_SEARCH_TOPK overrides config\.json for search\.topK \(now 40\)/);
    });
    const list = await cli('--store', store, 'config', 'list');
    assert.match(list.out, /^search\.topK = 31 {2}\(config\.json\)$/m);
    assert.match(list.out, /^search\.alpha = 0\.5 {2}\(default\)$/m);
    assert.equal(list.out.trim().split('\n').length, SETTINGS.length, 'one line per setting');
    assert.equal((await cli('--store', store, 'config', 'unset', 'search.topK')).code, 0);
    assert.deepEqual(await get('search.topK'), { key: 'search.topK', value: 20, source: 'default' });
    assert.deepEqual(JSON.parse(readFileSync(join(store, 'config.json'), 'utf8')), {});
  });

  it('refuses an unknown key or a bad value with exit 2, in every layer, naming the key and what it accepts', async () => {
    const unknown = await cli('--store', store, '--set', 'search.nope=1', 'stats');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown setting 'search\.nope' in --set/);
    const bad = await cli('--store', store, 'config', 'set', 'search.topK', '900');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /agentMemory\.search\.topK must be a whole number from 1 to 500 \(got 900\)/);
    assert.equal(existsSync(join(store, 'config.json')), false, 'nothing written for a bad value');
    const badSet = await cli('--store', store, '--set', 'graph.enabled=maybe', 'config', 'list');
    assert.equal(badSet.code, 2);
    assert.match(badSet.err, /agentMemory\.graph\.enabled must be true or false \(got 'maybe'\) in --set/);
    assert.equal((await cli('--store', store, '--set', 'search.topK', 'stats')).code, 2, '--set without =');
    await withEnv({ AGENT_MEMORY_MODELS_RERANKPROVIDER: 'magic' }, async () => {
      const env = await cli('--store', store, 'stats');
      assert.equal(env.code, 2);
      assert.match(env.err, /agentMemory\.models\.rerankProvider must be one of 'none', 'embedding', 'crossEncoder', 'llm' \(got 'magic'\) in the environment variable AGENT_MEMORY_MODELS_RERANKPROVIDER/);
    });
    assert.equal((await cli('--store', store, 'config', 'get', 'search.topK')).code, 0);
    mkdirSync(store, { recursive: true });
    writeFileSync(join(store, 'config.json'), '{"search.limit": 0}');
    const file = await cli('--store', store, 'stats');
    assert.equal(file.code, 2);
    assert.match(file.err, /agentMemory\.search\.limit must be a whole number from 1 to 50 \(got 0\) in .*config\.json/);
    writeFileSync(join(store, 'config.json'), '{"search.limit": 5, "search.bogus": true}');
    assert.match((await cli('--store', store, 'config', 'list')).err, /unknown setting 'search\.bogus' in .*config\.json/);
    writeFileSync(join(store, 'config.json'), '{not json');
    const broken = await cli('--store', store, 'config', 'list');
    assert.equal(broken.code, 2);
    assert.match(broken.err, /config\.json is not valid JSON/);
    assert.equal((await cli('--store', store, 'config', 'frobnicate')).code, 2);
  });

  it('never writes a secret to disk and says where it goes', async () => {
    const r = await cli('--store', store, 'config', 'set', 'llm.openaiCompatible.apiKey', 'sk-test-123');
    assert.equal(r.code, 2);
    assert.match(r.err, /is a secret and is never written to disk: .*AGENT_MEMORY_LLM_KEY/);
    assert.equal(existsSync(join(store, 'config.json')), false);
    assert.equal((await cli('--store', store, '--set', 'team.password=x', 'config', 'list')).code, 2);
  });

  it('runs store commands on the resolved configuration: search.limit and graph.enabled reach recall and remember', async () => {
    for (const text of ['The staging deploy port is 8443.', 'The production deploy port is 443.', 'The deploy port for previews is 3000.']) {
      assert.equal((await cli('--store', store, 'remember', '--no-wait', text)).code, 0);
    }
    const all = await cli('--store', store, 'recall', '--json', '--only', 'lexical', 'deploy port');
    assert.equal((JSON.parse(all.out) as unknown[]).length, 3, all.err);
    const limited = await cli('--store', store, '--set', 'search.limit=1', 'recall', '--json', '--only', 'lexical', 'deploy port');
    assert.equal((JSON.parse(limited.out) as unknown[]).length, 1, limited.err);
    assert.equal((await cli('--store', store, 'config', 'set', 'graph.enabled', 'false')).code, 0);
    assert.equal((await cli('--store', store, 'remember', '--no-wait', 'The review app port is 5173.')).code, 0);
    const durable = await openStore({ dir: store, logger: createStreamLogger('error') });
    try {
      const kinds = durable.read((db) => db.all<{ job_type: string; n: number }>('SELECT job_type, COUNT(*) AS n FROM memory_jobs GROUP BY job_type ORDER BY job_type'));
      const extract = kinds.find((k) => k.job_type === 'extract');
      assert.equal(extract?.n, 3, 'only the memories remembered with the graph on queued extraction');
    } finally {
      await durable.close();
    }
  });

  it('labels every setting the CLI does not act on in config list, and docs/configuration.md lists them', async () => {
    const r = await cli('--store', store, 'config', 'list');
    assert.equal(r.code, 0, r.err);
    const lines = new Map(r.out.trim().split('\n').map((l) => [l.split(' = ')[0] as string, l]));
    for (const key of Object.keys(EDITOR_ONLY_SETTINGS)) {
      assert.ok(SETTINGS.some((s) => s.key === key), `${key} is a setting`);
      assert.match(lines.get(key) ?? '', /\(default; editor only: .+\)$/, key);
    }
    assert.match(lines.get('search.topK') ?? '', /\(default\)$/, 'a setting the CLI honours carries no label');
    assert.match(lines.get('llm.provider') ?? '', /only available in VS Code/);
    const json = JSON.parse((await cli('--store', store, 'config', 'get', 'tools.confirmWrites', '--json')).out) as { cli?: string };
    assert.match(json.cli ?? '', /^editor only: /);
    const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'configuration.md'), 'utf8');
    for (const key of Object.keys(EDITOR_ONLY_SETTINGS)) assert.ok(doc.includes(`\`${key}\``) || doc.includes(`\`${key.split('.').pop() ?? ''}\``), `docs/configuration.md names ${key}`);
  });

  it('takes the store folder from store.path (--set or AGENT_MEMORY_STORE_PATH) when no --store is given', async () => {
    const viaSet = join(temp.dir, 'via-set');
    const viaEnv = join(temp.dir, 'via-env');
    await withEnv({ AGENT_MEMORY_STORE: '' }, async () => {
      assert.equal(cliStoreDir(parseArgs(['--set', `store.path=${viaSet}`, 'stats'])), viaSet);
      await withEnv({ AGENT_MEMORY_STORE_PATH: viaEnv }, async () => {
        assert.equal(cliStoreDir(parseArgs(['stats'])), viaEnv);
        assert.equal(cliStoreDir(parseArgs(['--store', store, 'stats'])), store, '--store comes first');
      });
    });
  });

  it('reads secrets from the environment only, and never stores one', async () => {
    const secrets = envSecretStore({ AGENT_MEMORY_LLM_KEY: 'sk-env', PGPASSWORD: 'pw-env' });
    assert.equal(await secrets.get(LLM_API_KEY_SECRET), 'sk-env');
    assert.equal(await secrets.get(teamPasswordSecretKey('postgresql://alice@db.example.com:5432/team')), 'pw-env');
    assert.equal(await envSecretStore({}).get(LLM_API_KEY_SECRET), undefined);
    await assert.rejects(secrets.set(LLM_API_KEY_SECRET, 'x'), /never stores secrets: set the AGENT_MEMORY_LLM_KEY environment variable/);
  });
});

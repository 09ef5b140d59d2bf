import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFetchCommand } from '../../../src/cli/commands/fetch';
import { makeIngestCommand } from '../../../src/cli/commands/ingest';
import { runCli } from '../../../src/cli/run';
import type { CliIo } from '../../../src/cli/run';
import { parseArgs } from '../../../src/cli/args';
import { fakeEmbedder } from '../memory/fakeEmbedder';

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } };
}

describe('graph CLI: ingest, entities, graph, forget, fetch', () => {
  let dir: string;
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((_q, s) => { s.setHeader('content-type', 'text/html'); s.end('<title>Guide</title><p>The Indexer uses Redis for queues.</p>'); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'am-graph-cli-')); });
  afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

  const ingest = async (lines: object[], extra: string[] = []) => {
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const o = io();
    const code = await makeIngestCommand({ embedder: () => fakeEmbedder(512, 'use-lite'), llm: () => undefined })(parseArgs(['--store', dir, file, ...extra]), o);
    return { code, o };
  };
  const cli = async (...argv: string[]) => { const o = io(); const code = await runCli(['--store', dir, ...argv], o); return { code, o, json: () => JSON.parse(o.out.join('')) as unknown }; };

  it('ingest prints {ingested, duplicates, ms} after embedding and extracting everything', async () => {
    const { code, o } = await ingest([{ content: 'The API uses PostgreSQL.', createdAt: '2025-01-01T00:00:00Z' }, { content: 'The API uses PostgreSQL' }, { content: 'We migrated the API to MongoDB.', createdAt: '2025-02-01T00:00:00Z' }]);
    assert.equal(code, 0, o.err.join(''));
    const out = JSON.parse(o.out.join('')) as { ingested: number; duplicates: number; ms: number };
    assert.deepEqual([out.ingested, out.duplicates, typeof out.ms], [2, 1, 'number']);
    const stats = await cli('stats', '--json');
    assert.equal(stats.code, 0);
    const graph = (await cli('graph', 'api', '--json')).json() as { aspects: { attributes: { content: string; status: string }[] }[]; relations: { type: string; other: { name: string } }[] };
    const attrs = graph.aspects.flatMap((a) => a.attributes).map((a) => [a.content, a.status]);
    assert.deepEqual(attrs, [['The API uses PostgreSQL.', 'superseded'], ['We migrated the API to MongoDB.', 'active']]);
    assert.deepEqual(graph.relations.map((r) => `${r.type} ${r.other.name}`).sort(), ['uses MongoDB', 'uses PostgreSQL']);
  });

  it('ingest --no-wait leaves the jobs queued', async () => {
    const { code } = await ingest([{ content: 'The API uses PostgreSQL.' }], ['--no-wait']);
    assert.equal(code, 0);
    assert.deepEqual((await cli('entities', '--json')).json(), [], 'extraction has not run yet');
  });

  it('entities --json lists {id, name, canonicalName, type, mentions, pinned}', async () => {
    await ingest([{ content: 'The API uses PostgreSQL.' }, { content: 'The API caches in Redis.' }]);
    const list = (await cli('entities', '--json')).json() as { name: string; canonicalName: string; type: string; mentions: number; pinned: boolean; id: string }[];
    const api = list.find((e) => e.name === 'API');
    assert.ok(api && typeof api.id === 'string');
    assert.deepEqual({ ...api, id: undefined }, { id: undefined, name: 'API', canonicalName: 'api', type: 'concept', mentions: 2, pinned: false });
    assert.equal(list[0]?.name, 'API', 'most mentioned first');
  });

  it('graph reports an unknown entity with exit code 1 and a clear message', async () => {
    const r = await cli('graph', 'Nothing');
    assert.equal(r.code, 1);
    assert.match(r.o.err.join(''), /No entity named 'Nothing'/);
  });

  it('forget ID hard-deletes a memory; an unknown id exits 1', async () => {
    await ingest([{ content: 'The API uses PostgreSQL.', sourceId: 'src-1' }]);
    const hits = (await cli('recall', '--only', 'lexical', '--json', 'PostgreSQL')).json() as { id: string }[];
    assert.equal(hits.length, 1);
    const r = await cli('forget', hits[0]?.id ?? '', '--json');
    assert.equal(r.code, 0, r.o.err.join(''));
    assert.equal((r.json() as { vectorsRemoved: number }).vectorsRemoved, 1);
    assert.deepEqual((await cli('entities', '--json')).json(), []);
    assert.equal((await cli('forget', 'missing')).code, 1);
  });

  it('fetch refuses loopback by default and remembers the page with --allow-private', async () => {
    const url = `http://127.0.0.1:${port}/guide`;
    const fetch = makeFetchCommand({ embedder: () => fakeEmbedder(512, 'use-lite'), llm: () => undefined });
    const refused = io();
    assert.equal(await runCliWith(fetch, ['--store', dir, url], refused), 1);
    assert.match(refused.err.join(''), /Refusing to fetch.*pass --allow-private, or --set fetch\.allowPrivateAddresses=true/);
    const ok = io();
    assert.equal(await runCliWith(fetch, ['--store', dir, '--allow-private', url, '--json'], ok), 0, ok.err.join(''));
    const out = JSON.parse(ok.out.join('')) as { title: string; duplicate: boolean };
    assert.deepEqual([out.title, out.duplicate], ['Guide', false]);
    const g = (await cli('graph', 'Indexer', '--json')).json() as { relations: { other: { name: string } }[] };
    assert.deepEqual(g.relations.map((r) => r.other.name), ['Redis']);
  });
});

async function runCliWith(command: (a: ReturnType<typeof parseArgs>, io: CliIo) => Promise<number>, argv: string[], o: CliIo): Promise<number> {
  try { return await command(parseArgs(argv), o); } catch (e) { o.stderr(e instanceof Error ? e.message : String(e)); return 1; }
}

import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveSearchConfig } from '../../../src/core/config/searchConfig';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { recall, recallDetailed } from '../../../src/core/recall/recallService';
import { trackedRecall } from '../../../src/core/sessions/recallTracking';
import { isMemoryError } from '../../../src/core/errors';
import { fakeEmbedder } from './fakeEmbedder';
import { insertMemory, insertVector, seed } from './recallDb';

const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
const lexicalOnly = resolveSearchConfig({ vector: { enabled: false } });

describe('recall service (in-memory store)', () => {
  let store: MemoryStore;
  const emb = fakeEmbedder();
  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    await seed(store, (w) => {
      insertMemory(w, { id: 'port', content: 'The deploy port for the staging server is 8443.' });
      insertMemory(w, { id: 'cfg', content: 'The config file lives in settings/app.yaml and is loaded at startup.' });
      insertMemory(w, { id: 'both', content: 'Set the deploy port in the config file before release.' });
      insertMemory(w, { id: 'zh', content: '客必得的账号已经关联到任务系统里了' });
      insertMemory(w, { id: 'gone', content: 'The deploy port used to be 8080.' });
      insertMemory(w, { id: 'other', content: 'The deploy port of project B is 9000.', project: 'B' });
      w.run("UPDATE memories SET is_deleted = 1 WHERE id = 'gone'");
    });
  });
  afterEach(async () => { await store.close(); });

  it('finds a sentence-like question by term probing, most terms first', async () => {
    const r = await recall(store, { query: 'What is the deploy port in the config file?' }, { clock, config: lexicalOnly });
    assert.equal(r[0]?.id, 'both');
    assert.ok(r.every((x) => x.explain !== undefined));
  });

  it('requires both terms of a two-term query (majority-hit rule)', async () => {
    const r = await recall(store, { query: 'port, config' }, { clock, config: lexicalOnly });
    assert.deepEqual(r.map((x) => x.id), ['both']);
  });

  it('probes CJK terms inside sentences after stripping the question shell', async () => {
    const r = await recall(store, { query: '客必得 账号 关联 任务好了吗？' }, { clock, config: lexicalOnly });
    assert.deepEqual(r.map((x) => x.id), ['zh']);
    assert.equal(r[0]?.explain?.termsHit, 4);
  });

  it('never returns deleted memories and honours the project filter', async () => {
    const all = await recall(store, { query: 'deploy port' }, { clock, config: lexicalOnly });
    assert.ok(!all.some((x) => x.id === 'gone'));
    const b = await recall(store, { query: 'deploy port', project: 'B' }, { clock, config: lexicalOnly });
    assert.deepEqual(b.map((x) => x.id), ['other']);
  });

  it('survives hostile query strings without FTS errors', async () => {
    const hostile = ['"', '""', "'", 'AND', 'OR NOT', 'NEAR(a b)', 'content:port', 'port*', '^port', '(port', 'port)', '{port}',
      'a:b:c', '-port', '+port', 'port" OR "1"="1', "'; DROP TABLE memories; --", '\u0000port', '* * *', 'NOT port', '"port', 'port AND',
      '🙂 port', 'col:"x"', 'port\u200b config', '[port]', 'port\\', 'x'.repeat(3000)];
    for (const q of hostile) {
      const r = await recall(store, { query: q }, { clock, config: lexicalOnly });
      assert.ok(Array.isArray(r), q);
    }
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories'))?.n, 6);
  });

  it('rejects an empty query and a bad limit with a coded error', async () => {
    await assert.rejects(recall(store, { query: '  ' }, { clock }), (e) => isMemoryError(e, 'E_INVALID_INPUT'));
    await assert.rejects(recall(store, { query: 'x', limit: 0 }, { clock }), (e) => isMemoryError(e, 'E_INVALID_INPUT'));
    await assert.rejects(recall(store, { query: 'x', since: 'yesterday' }, { clock }), /since must be an ISO date/);
  });

  it('runs the vector arm alone and picks up new vectors incrementally', async () => {
    await seed(store, (w) => { for (const id of ['port', 'cfg']) insertVector(w, id, emb.vector(id === 'port' ? 'deploy port staging server 8443' : 'config file settings app yaml'), emb.id); });
    const r1 = await recall(store, { query: 'staging server', only: 'vector', limit: 1 }, { clock, embedder: emb });
    assert.equal(r1[0]?.id, 'port');
    await seed(store, (w) => insertVector(w, 'zh', emb.vector('staging server staging server'), emb.id));
    const r2 = await recall(store, { query: 'staging server', only: 'vector', limit: 1 }, { clock, embedder: emb });
    assert.equal(r2[0]?.id, 'zh');
    assert.deepEqual(r2[0]?.explain?.sources, ['vector']);
  });

  it('keeps working lexically when the embedder fails', async () => {
    const broken = { id: 'broken', dims: 4, embed: async (): Promise<Float32Array[]> => { throw new Error('model missing'); } };
    const out = await recallDetailed(store, { query: 'deploy port config' }, { clock, embedder: broken });
    assert.equal(out.items[0]?.id, 'both');
    assert.match(out.notes.join(), /embedding failed/);
  });

  it('lets a hint lift its memory and caps a hint-only match', async () => {
    await seed(store, (w) => {
      insertMemory(w, { id: 'spotify', content: 'We listen to Spotify while pairing.' });
      w.run("INSERT INTO memory_hints (memory_id, hint, created_at) VALUES ('spotify', 'which music streaming service do we use?', '2026-01-01')");
    });
    const r = await recall(store, { query: 'music streaming service' }, { clock, config: lexicalOnly });
    assert.equal(r[0]?.id, 'spotify');
    assert.ok(r[0]!.score <= 0.75 + 0.02, String(r[0]!.score));
    assert.deepEqual(r[0]?.explain?.sources, ['hint']);
  });

  it('updates access counts without touching the FTS index', async () => {
    const pages = (): string => store.read((db) => db.all<{ id: number; block: Uint8Array }>('SELECT id, block FROM memories_fts_data ORDER BY id')
      .map((r) => `${r.id}:${Buffer.from(r.block).toString('hex')}`).join('|'));
    const before = pages();
    const out = await trackedRecall(store, { query: 'deploy port config file' }, { clock, config: lexicalOnly });
    assert.equal(store.read((db) => db.get<{ n: number }>("SELECT access_count AS n FROM memories WHERE id = 'both'"))?.n, 0, 'not written on the answer path');
    assert.equal(await out.recorded, true);
    const row = store.read((db) => db.get<{ access_count: number; last_accessed: string }>("SELECT access_count, last_accessed FROM memories WHERE id = 'both'"));
    assert.equal(row?.access_count, 1);
    assert.equal(row?.last_accessed, '2026-06-01T00:00:00.000Z');
    assert.equal(pages(), before);
  });

  it('records session rows with source, rank, was_injected and fts_hit_count', async () => {
    await trackedRecall(store, { query: 'deploy port', session: 's1', limit: 1, injected: true }, { clock, config: lexicalOnly });
    await trackedRecall(store, { query: 'deploy port', session: 's1', limit: 1 }, { clock, config: lexicalOnly });
    await store.flushDeferred();
    const rows = store.read((db) => db.all<{ memory_id: string; source: string; rank: number; was_injected: number; fts_hit_count: number }>(
      "SELECT memory_id, source, rank, was_injected, fts_hit_count FROM session_memories WHERE session_key = 's1' ORDER BY rank"));
    assert.equal(rows[0]?.rank, 0);
    assert.equal(rows[0]?.source, 'lexical');
    assert.equal(rows[0]?.was_injected, 1);
    assert.equal(rows[0]?.fts_hit_count, 2);
    assert.ok(rows.slice(1).every((r) => r.source === 'fts_only' && r.was_injected === 0));
    assert.ok(rows.some((r) => r.memory_id === 'port' || r.memory_id === 'both'));
  });

  it('does not record anything when tracking is off', async () => {
    const out = await trackedRecall(store, { query: 'deploy port', session: 's2' }, { clock, config: lexicalOnly, track: false });
    assert.equal(await out.recorded, true);
    await store.flushDeferred();
    assert.equal(store.read((db) => db.get<{ n: number }>("SELECT COUNT(*) AS n FROM session_memories"))?.n, 0);
  });

  it('recall alone records nothing: it returns what a tracked recall would record', async () => {
    const out = await recallDetailed(store, { query: 'deploy port', session: 's3', injected: true }, { clock, config: lexicalOnly });
    assert.ok(out.bookkeeping && out.bookkeeping.results.length > 0);
    assert.equal(out.bookkeeping.session, 's3');
    assert.equal(out.bookkeeping.injected, true);
    await store.flushDeferred();
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_memories'))?.n, 0);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT SUM(access_count) AS n FROM memories'))?.n, 0);
  });

  it('applies the filter hook on the over-fetched pool before slicing', async () => {
    const top = await recall(store, { query: 'deploy port', limit: 1 }, { clock, config: lexicalOnly, track: false });
    const visible = new Set([top[0]!.id]);
    const plain = await recall(store, { query: 'deploy port', limit: 1, filter: (c) => !visible.has(c.id) }, { clock, config: lexicalOnly, track: false });
    const wide = await recall(store, { query: 'deploy port', limit: 1, overFetch: 5, filter: (c) => !visible.has(c.id) }, { clock, config: lexicalOnly, track: false });
    assert.equal(plain.length, 0);
    assert.equal(wide.length, 1);
    assert.notEqual(wide[0]?.id, top[0]!.id);
  });
});

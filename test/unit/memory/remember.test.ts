import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { resolveChunkingConfig } from '../../../src/core/config/ingestConfig';
import { isMemoryError } from '../../../src/core/errors';
import { countJobs } from '../../../src/core/jobs/jobQueue';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import type { RememberDeps } from '../../../src/core/memory/remember';
import { contentHash, getMemory } from '../../../src/core/memory/memoryRecords';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

describe('remember() write path', () => {
  let store: MemoryStore;
  let clock: ManualClock;
  let deps: RememberDeps;
  beforeEach(async () => { clock = new ManualClock(); store = await openMemoryStore({ clock }); deps = defaultRememberDeps(clock); });

  it('stores a memory with its normalised hash and enqueues embed and extract jobs', async () => {
    const r = await remember(store, { content: 'We use pnpm.  ', project: 'p' }, deps);
    assert.equal(r.duplicate, false);
    const m = store.read((db) => getMemory(db, r.id));
    assert.equal(m?.content, 'We use pnpm.');
    assert.equal(m?.contentHash, contentHash('we use pnpm'), 'the hash is of the normalised text');
    assert.equal(m?.extractionStatus, 'pending');
    const jobs = store.read((db) => db.all<{ job_type: string }>('SELECT job_type FROM memory_jobs WHERE memory_id = ? ORDER BY job_type', [r.id]));
    assert.deepEqual(jobs.map((j) => j.job_type), ['embed', 'extract']);
  });

  it('enqueues hints only when enabled, and no extract job when extraction is off', async () => {
    const r = await remember(store, { content: 'x y z' }, { ...deps, enqueue: { embed: true, extract: false, hints: true } });
    const jobs = store.read((db) => db.all<{ job_type: string }>('SELECT job_type FROM memory_jobs WHERE memory_id = ? ORDER BY job_type', [r.id]));
    assert.deepEqual(jobs.map((j) => j.job_type), ['embed', 'hints']);
    assert.equal(store.read((db) => getMemory(db, r.id))?.extractionStatus, 'none');
  });

  it('dedups by source id first, then idempotency key, then content hash', async () => {
    const a = await remember(store, { content: 'first text', sourceId: 's1', idempotencyKey: 'k1' }, deps);
    assert.equal((await remember(store, { content: 'other text', sourceId: 's1' }, deps)).dedupedBy, 'source_id');
    const byKey = await remember(store, { content: 'other text', idempotencyKey: 'k1' }, deps);
    assert.deepEqual([byKey.id, byKey.dedupedBy], [a.id, 'idempotency_key']);
    const byHash = await remember(store, { content: 'FIRST   text!' }, deps);
    assert.deepEqual([byHash.id, byHash.dedupedBy], [a.id, 'content_hash']);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories'))?.n, 1);
    assert.equal(store.read((db) => countJobs(db)).pending, 2, 'duplicates enqueue nothing');
  });

  it('keeps memories of different projects apart when deduplicating', async () => {
    const a = await remember(store, { content: 'same text', project: 'a' }, deps);
    const b = await remember(store, { content: 'same text', project: 'b' }, deps);
    assert.notEqual(a.id, b.id);
  });

  it('redacts secrets before storing, hashing or enqueueing anything', async () => {
    const r = await remember(store, { content: 'Connect with postgres://app:hunter2@db/main and api_key=abc123' }, deps);
    assert.deepEqual([...r.redacted].sort(), ['connection-string', 'secret-assignment']);
    const dump = JSON.stringify(store.read((db) => db.all('SELECT * FROM memories')));
    assert.ok(!dump.includes('hunter2') && !dump.includes('abc123'), dump);
    const again = await remember(store, { content: 'Connect with postgres://app:hunter2@db/main and api_key=abc123' }, deps);
    assert.equal(again.dedupedBy, 'content_hash');
  });

  it('chunks long content, links the chunks to one chunk group and keys them <key>:chunk:<n>', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence ${i} describes part of a long design note about the store.`).join(' ');
    const r = await remember(store, { content: text, idempotencyKey: 'doc', sourceId: 'file.md' }, { ...deps, chunking: resolveChunkingConfig({}) });
    assert.ok(r.chunkIds.length > 1);
    const rows = store.read((db) => db.all<{ idempotency_key: string; source_id: string }>('SELECT idempotency_key, source_id FROM memories ORDER BY created_at, rowid'));
    assert.deepEqual(rows.map((x) => x.idempotency_key), r.chunkIds.map((_, i) => `doc:chunk:${i}`));
    assert.deepEqual(rows.map((x) => x.source_id), r.chunkIds.map((_, i) => `file.md:chunk:${i}`));
    const group = store.read((db) => db.all<{ memory_id: string; mention_text: string; confidence: number }>(
      "SELECT m.memory_id, m.mention_text, m.confidence FROM memory_entity_mentions m JOIN entities e ON e.id = m.entity_id WHERE e.entity_type = 'chunk_group'"));
    assert.equal(group.length, r.chunkIds.length);
    assert.ok(group.every((g) => g.mention_text === 'chunk' && g.confidence === 1));
    const retry = await remember(store, { content: text, idempotencyKey: 'doc' }, deps);
    assert.deepEqual([retry.duplicate, retry.id], [true, r.id]);
    const retryBySource = await remember(store, { content: text, sourceId: 'file.md' }, deps);
    assert.deepEqual([retryBySource.duplicate, retryBySource.id], [true, r.id]);
  });

  it('rejects empty content and a bad createdAt with coded errors, writing nothing', async () => {
    await assert.rejects(remember(store, { content: '   ' }, deps), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
    await assert.rejects(remember(store, { content: 'x', createdAt: 'yesterday' }, deps), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
    await assert.rejects(remember(store, { content: 'x', importance: 7 }, deps), (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT'));
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories'))?.n, 0);
  });

  it('keeps a source createdAt', async () => {
    const r = await remember(store, { content: 'old fact', createdAt: '2025-03-01T10:00:00Z' }, deps);
    assert.equal(store.read((db) => getMemory(db, r.id))?.createdAt, '2025-03-01T10:00:00.000Z');
  });
});

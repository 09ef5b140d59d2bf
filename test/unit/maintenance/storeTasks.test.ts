import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { deadJobsTask, integrityCheckTask, rebuildFtsTask } from '../../../src/core/maintenance/storeTasks';
import type { MaintenanceTaskContext } from '../../../src/core/maintenance/maintenanceTypes';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

describe('maintenance: store and job tasks', () => {
  let store: MemoryStore;
  let ctx: MaintenanceTaskContext;
  const clock = new ManualClock(Date.UTC(2026, 5, 1));

  beforeEach(async () => {
    store = await openMemoryStore({ clock });
    ctx = { store, clock, logger: silentLogger };
  });
  afterEach(() => store.close());

  async function rememberText(content: string): Promise<string> {
    return (await remember(store, { content }, defaultRememberDeps(clock))).id;
  }

  function jobs(memoryId: string): { id: string; job_type: string; status: string; attempts: number }[] {
    return store.read((db) => db.all('SELECT id, job_type, status, attempts FROM memory_jobs WHERE memory_id = ? ORDER BY job_type', [memoryId]));
  }

  it('retries a dead job of a live memory from scratch and clears one whose memory is gone', async () => {
    const live = await rememberText('We deploy the API with blue-green releases.');
    const gone = await rememberText('The staging cluster runs on three nodes.');
    await store.write('test', (db) => {
      db.run("UPDATE memory_jobs SET status = 'dead', attempts = 5, error = 'boom' WHERE memory_id IN (?, ?) AND job_type = 'embed'", [live, gone]);
      db.run("DELETE FROM memory_jobs WHERE memory_id = ? AND job_type <> 'embed'", [gone]);
      db.run('UPDATE memories SET is_deleted = 1 WHERE id = ?', [gone]);
    });
    const result = await deadJobsTask(10).step(ctx, null);
    assert.deepEqual(result.summary, { jobsRetried: 1, jobsCleared: 1 });
    assert.equal(result.cursor, null);
    const embed = jobs(live).find((j) => j.job_type === 'embed');
    assert.deepEqual({ status: embed?.status, attempts: embed?.attempts }, { status: 'pending', attempts: 0 });
    assert.deepEqual(jobs(gone), []);
  });

  it('clears a dead job when the same job is already pending again', async () => {
    const id = await rememberText('The billing service depends on the Stripe API.');
    await store.write('test', (db) => {
      const embed = db.get<{ id: string }>("SELECT id FROM memory_jobs WHERE memory_id = ? AND job_type = 'embed'", [id]);
      db.run("INSERT INTO memory_jobs (id, memory_id, job_type, status, attempts, max_attempts, created_at, updated_at) VALUES ('dead-1', ?, 'embed', 'dead', 5, 5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')", [id]);
      assert.ok(embed);
    });
    const result = await deadJobsTask(10).step(ctx, null);
    assert.deepEqual(result.summary, { jobsRetried: 0, jobsCleared: 1 });
    assert.equal(jobs(id).filter((j) => j.job_type === 'embed').length, 1);
  });

  it('asks for another step while a full batch of dead jobs was handled', async () => {
    for (const text of ['one fact about caching', 'two facts about queues', 'three facts about logs']) await rememberText(text);
    await store.write('test', (db) => db.run("UPDATE memory_jobs SET status = 'dead' WHERE job_type = 'embed'"));
    const first = await deadJobsTask(2).step(ctx, null);
    assert.equal(first.processed, 2);
    assert.equal(first.cursor, 'more');
    const second = await deadJobsTask(2).step(ctx, first.cursor);
    assert.equal(second.processed, 1);
    assert.equal(second.cursor, null);
  });

  it('leaves consistent FTS indexes alone and rebuilds one that drifted from its table', async () => {
    const id = await rememberText('Redis holds the session cache for the web app.');
    const untouched = await rebuildFtsTask().step(ctx, null);
    assert.equal(untouched.summary.indexesRebuilt, 0);
    const hits = (): number => store.read((db) => db.all("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'redis'").length);
    assert.equal(hits(), 1);
    await store.write('test', (db) => {
      const row = db.get<{ rowid: number; content: string }>('SELECT rowid, content FROM memories WHERE id = ?', [id]);
      assert.ok(row);
      db.run("INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', ?, ?)", [row.rowid, row.content]);
    });
    assert.equal(hits(), 0);
    const rebuilt = await rebuildFtsTask().step(ctx, null);
    assert.deepEqual(rebuilt.summary, { indexesRebuilt: 1, rebuilt: 'memories_fts' });
    assert.equal(hits(), 1);
  });

  it('reports a clean store as ok and counts rows that point at missing memories', async () => {
    await rememberText('Never commit .env.local files.');
    const clean = await integrityCheckTask().step(ctx, null);
    assert.equal(clean.summary.result, 'ok');
    assert.equal(clean.summary.orphanRows, 0);
    await store.write('test', (db) => db.run(
      "INSERT INTO memory_jobs (id, memory_id, job_type, status, attempts, max_attempts, created_at, updated_at) VALUES ('orphan', 'no-such-memory', 'embed', 'completed', 1, 5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')"));
    const dirty = await integrityCheckTask().step(ctx, null);
    assert.equal(dirty.summary.result, 'problems found');
    assert.equal(dirty.summary.orphanRows, 1);
  });
});

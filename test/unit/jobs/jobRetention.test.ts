import { strict as assert } from 'node:assert';
import { ManualClock } from '../../../src/core/clock';
import { DEFAULT_JOBS_CONFIG } from '../../../src/core/config/jobsConfig';
import { COMPLETED_JOBS_KEPT, completeJob, countJobs, enqueueJob, failJob, leaseJobs, pruneDeadJobs } from '../../../src/core/jobs/jobQueue';
import { MIGRATIONS } from '../../../src/core/store/migrations';
import { openMemoryStore } from '../../../src/core/store/memoryStore';
import { RETENTION_MIGRATION_VERSION } from '../../../src/core/store/schema/retentionSchema';
import { COMPACT_TABLES_MIGRATION_VERSION } from '../../../src/core/store/schema/compactTablesSchema';
import type { MemoryStore } from '../../../src/core/store/storeTypes';

const cfg = { ...DEFAULT_JOBS_CONFIG, maxAttempts: 1 };

async function runJobs(store: MemoryStore, clock: ManualClock, type: string, count: number, outcome: 'complete' | 'fail', from = 0): Promise<void> {
  let n = from;
  for (let i = 0; i < count; i++) {
    await store.write('t', (db) => {
      const id = enqueueJob(db, { type, memoryId: `m${n}` }, clock.now(), () => `${type}-${n}`, cfg).id;
      n++;
      leaseJobs(db, { owner: 'w', types: [type], limit: 1, nowMs: clock.now(), leaseMs: cfg.leaseMs });
      if (outcome === 'complete') completeJob(db, id, 'w', { ok: true }, clock.now());
      else failJob(db, id, 'w', 'boom', clock.now(), cfg);
    });
    clock.advance(1_000);
  }
}

describe('memory_jobs retention', () => {
  it('keeps only the most recent completed jobs, all hints markers, and every failure up to the bound', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const store = await openMemoryStore({ clock });
    await runJobs(store, clock, 'embed', COMPLETED_JOBS_KEPT + 60, 'complete');
    await runJobs(store, clock, 'hints', 30, 'complete');
    await runJobs(store, clock, 'extract', 5, 'fail');
    const c = store.read((db) => countJobs(db));
    assert.equal(c.dead, 5, 'failures are kept for diagnosis');
    assert.equal(store.read((db) => countJobs(db, ['hints'])).completed, 30, 'hints markers are never pruned');
    assert.equal(store.read((db) => countJobs(db, ['embed'])).completed, COMPLETED_JOBS_KEPT, 'the window holds the most recent completions (markers not counted)');
    const newest = store.read((db) => db.get<{ id: string }>("SELECT id FROM memory_jobs WHERE job_type = 'embed' ORDER BY completed_at DESC LIMIT 1"))?.id;
    assert.equal(newest, `embed-${COMPLETED_JOBS_KEPT + 59}`);
    assert.equal(await store.write('t', (db) => pruneDeadJobs(db, 2)), 3);
    assert.deepEqual(store.read((db) => db.all<{ id: string }>("SELECT id FROM memory_jobs WHERE status = 'dead' ORDER BY failed_at").map((r) => r.id)), ['extract-3', 'extract-4']);
    await store.close();
  });

  it('migration 25 prunes a store written before retention existed', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    // Written before retention (25) and before graph_ops lost its id column (28).
    const store = await openMemoryStore({ clock, migrations: MIGRATIONS.filter((m) => m.version !== RETENTION_MIGRATION_VERSION && m.version !== COMPACT_TABLES_MIGRATION_VERSION) });
    await store.write('old', (db) => {
      for (let i = 0; i < 1_000; i++) {
        db.run("INSERT INTO memory_jobs (id, memory_id, job_type, status, attempts, max_attempts, completed_at, created_at, updated_at) VALUES (?, ?, 'extract', 'completed', 1, 3, ?, ?, ?)",
          [`j${i}`, `m${i}`, new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
      }
      for (let i = 0; i < 6_000; i++) db.run("INSERT INTO graph_ops (id, op, target_kind, target_id, actor, details, created_at) VALUES (?, 'entity_confirm', 'entity', 'e', 'test', '{}', '2026-01-01T00:00:00.000Z')", [`g${i}`]);
    });
    const migration = MIGRATIONS.find((m) => m.version === RETENTION_MIGRATION_VERSION);
    assert.ok(migration);
    await store.write('migrate', (db) => migration.up({ ...db, all: db.all.bind(db), get: db.get.bind(db), run: db.run.bind(db), hasTable: db.hasTable.bind(db), addColumnIfMissing: () => false, nowIso: '2026-01-02T00:00:00.000Z' }));
    assert.equal(store.read((db) => countJobs(db)).completed, COMPLETED_JOBS_KEPT);
    assert.equal(store.read((db) => db.get<{ n: number }>('SELECT COUNT(*) AS n FROM graph_ops'))?.n, 5_000);
    await store.close();
  });
});

import { strict as assert } from 'node:assert';
import { resolveFeedbackConfig } from '../../../src/core/config/feedbackConfig';
import { DEFAULT_CONTRADICTION_CONFIG } from '../../../src/core/config/extractionConfig';
import { resolveGraphConfig } from '../../../src/core/config/graphConfig';
import { resolveHintsConfig } from '../../../src/core/config/hintsConfig';
import { resolveJobsConfig } from '../../../src/core/config/jobsConfig';
import { resolveMaintenanceConfig } from '../../../src/core/config/maintenanceConfig';
import { isMemoryError } from '../../../src/core/errors';
import { FeedbackTelemetry } from '../../../src/core/feedback/feedbackTelemetry';
import { silentLogger } from '../../../src/core/logger';
import { acquireLease } from '../../../src/core/maintenance/maintenanceLease';
import { createMaintenanceRegistry } from '../../../src/core/maintenance/maintenanceTasks';
import type { MaintenanceDeps } from '../../../src/core/maintenance/maintenanceTasks';
import { MaintenanceService } from '../../../src/core/maintenance/maintenanceService';
import type { MaintenanceTask } from '../../../src/core/maintenance/maintenanceTypes';
import type { ManualClock } from '../../../src/core/clock';
import type { MemoryStore } from '../../../src/core/store/storeTypes';
import { addAspect, addAttribute, addEntity, addMemory, openTestStore } from '../feedback/graphFixture';
import { seqId } from '../sessions/sessionFixture';

const DAY = 86_400_000;

function deps(over: Partial<MaintenanceDeps> = {}): MaintenanceDeps {
  return {
    feedback: resolveFeedbackConfig(), hints: resolveHintsConfig({ enabled: true }), jobs: resolveJobsConfig(), graph: resolveGraphConfig(),
    contradiction: DEFAULT_CONTRADICTION_CONFIG, maintenance: resolveMaintenanceConfig({ batchSize: 2 }), graphEnabled: true, telemetry: new FeedbackTelemetry(), newId: seqId, ...over,
  };
}

function service(store: MemoryStore, clock: ManualClock, registry: readonly MaintenanceTask[], owner = 'w1') {
  return new MaintenanceService({ store, clock, logger: silentLogger, config: resolveMaintenanceConfig(), registry, owner, newId: seqId });
}

describe('maintenance', () => {
  it('runs all tasks into one report: decay, propagation of orphaned attributes, hints backfill', async () => {
    const { store, clock } = await openTestStore();
    const start = clock.now();
    const ids = await store.write('t', (db) => {
      const e = addEntity(db, start, 'Legacy');
      const a = addAspect(db, start, e, 'old', 0.5);
      const m = addMemory(db, start);
      const gone = addMemory(db, start);
      const t = addAttribute(db, start, e, a, gone);
      addMemory(db, start); addMemory(db, start);
      db.run('UPDATE memories SET is_deleted = 1 WHERE id = ?', [gone]);
      return { a, m, t };
    });
    clock.advance(15 * DAY);
    const d = deps();
    const report = await service(store, clock, createMaintenanceRegistry(d)).run();
    assert.deepEqual(report.tasks.map((t) => [t.task, t.status]), [
      ['decay-aspects', 'completed'], ['propagate-memory-status', 'completed'], ['backfill-hints', 'completed'], ['merge-entities', 'completed'],
      ['retry-dead-jobs', 'completed'], ['rebuild-fts', 'completed'], ['integrity-check', 'completed'],
    ]);
    assert.equal(report.tasks[6]?.summary.result, 'ok');
    assert.equal(report.tasks[0]?.summary.aspectsDecayed, 1);
    assert.equal(report.tasks[1]?.summary.attributesSuperseded, 1);
    assert.equal(report.tasks[2]?.summary.jobsEnqueued, 3, 'three live memories, in batches of 2');
    assert.equal(store.read((db) => db.get<{ status: string }>('SELECT status FROM entity_attributes WHERE id = ?', [ids.t]))?.status, 'superseded');
    assert.deepEqual([d.telemetry.snapshot().feedbackDecayedAspects, d.telemetry.snapshot().feedbackPropagatedAttributes], [1, 1]);
    await store.close();
  });

  it('runs only the named tasks and rejects unknown ones', async () => {
    const { store, clock } = await openTestStore();
    const s = service(store, clock, createMaintenanceRegistry(deps()));
    const r = await s.run(['decay-aspects']);
    assert.deepEqual(r.tasks.map((t) => t.task), ['decay-aspects']);
    await assert.rejects(s.run(['nope']), (e: unknown) => isMemoryError(e, 'E_USAGE'));
    await store.close();
  });

  it('never runs in two windows at once', async () => {
    const { store, clock } = await openTestStore();
    await store.write('lease', (db) => acquireLease(db, 'other-window', clock.now(), 60_000));
    const s = service(store, clock, createMaintenanceRegistry(deps()));
    await assert.rejects(s.run(), (e: unknown) => isMemoryError(e, 'E_STORE_LOCKED'));
    assert.equal(await s.runIfDue(), undefined);
    clock.advance(61_000);
    assert.equal((await s.run()).tasks.length, createMaintenanceRegistry(deps()).length, 'an expired lease is taken over');
    await store.close();
  });

  it('resumes an interrupted task from its saved cursor', async () => {
    const { store, clock } = await openTestStore();
    let calls = 0;
    const seen: (string | null)[] = [];
    const flaky: MaintenanceTask = {
      id: 'count', title: 'Count to three',
      async step(_ctx, cursor) {
        seen.push(cursor);
        calls++;
        if (calls === 2) throw new Error('window closed');
        const n = Number(cursor ?? 0) + 1;
        return { cursor: n >= 3 ? null : String(n), processed: 1, total: 3, summary: { counted: 1 } };
      },
    };
    const s = service(store, clock, [flaky]);
    const first = await s.run();
    assert.equal(first.tasks[0]?.status, 'failed');
    await store.write('simulate crash', (db) => db.run("UPDATE maintenance_runs SET status = 'running', cursor = '1' WHERE task = 'count'"));
    const second = await s.run();
    assert.equal(second.tasks[0]?.resumed, true);
    assert.equal(second.tasks[0]?.status, 'completed');
    assert.equal(second.tasks[0]?.summary.counted, 3);
    assert.deepEqual(seen, [null, '1', '1', '2']);
    await store.close();
  });

  it('runs on schedule once per interval', async () => {
    const { store, clock } = await openTestStore();
    const s = service(store, clock, createMaintenanceRegistry(deps()));
    assert.ok(await s.runIfDue());
    clock.advance(DAY / 2);
    assert.equal(await s.runIfDue(), undefined);
    clock.advance(DAY / 2 + 1);
    assert.ok(await s.runIfDue());
    await store.close();
  });
});

describe('maintenance lease renewal', () => {
  it('keeps the lease alive across a long multi-step run', async () => {
    const { store, clock } = await openTestStore();
    const slow: MaintenanceTask = {
      id: 'slow', title: 'Slow',
      async step(_ctx, cursor) {
        clock.advance(20 * 60_000);
        const n = Number(cursor ?? 0) + 1;
        return { cursor: n >= 3 ? null : String(n), processed: 1, summary: {} };
      },
    };
    const other = service(store, clock, [slow], 'w2');
    let otherRan: boolean | undefined;
    const wrapped: MaintenanceTask = { ...slow, async step(ctx, cursor) {
      const r = await slow.step(ctx, cursor);
      if (cursor === '1') otherRan = await other.run().then(() => true, () => false);
      return r;
    } };
    await service(store, clock, [wrapped], 'w1').run();
    assert.equal(otherRan, false, 'after 40 minutes (lease 30) the renewed lease still keeps the other window out');
    await store.close();
  });
});

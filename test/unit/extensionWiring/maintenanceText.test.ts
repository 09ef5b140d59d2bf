import { strict as assert } from 'node:assert';
import { maintenanceHeadline, maintenanceReportMarkdown, taskPhrases } from '../../../src/extension/commands/maintenanceText';
import type { MaintenanceReport, TaskReport } from '../../../src/core/maintenance/maintenanceTypes';

const task = (task: string, summary: TaskReport['summary'], status: TaskReport['status'] = 'completed', title = task): TaskReport =>
  ({ task, title, status, resumed: false, processed: 1, total: null, summary });
const report = (tasks: TaskReport[], unknownTasks: string[] = []): MaintenanceReport =>
  ({ runId: 'run-1', startedAt: '2026-12-01T02:00:00.000Z', finishedAt: '2026-12-01T02:00:03.000Z', tasks, unknownTasks });

describe('maintenance summary for people', () => {
  it('says what happened in words, skipping what did nothing', () => {
    const r = report([
      task('decay-aspects', { aspectsDecayed: 3 }),
      task('find-duplicates-conflicts', { scanned: 40, mergeProposals: 2, conflictProposals: 0, clusters: 2 }),
      task('compact-store', { snapshotTaken: 1, snapshotSeq: 367, journalGenerationBefore: 1, journalGenerationAfter: 2 }),
      task('rebuild-fts', { indexesRebuilt: 0, note: 'every index matches its table' }),
      task('integrity-check', { result: 'ok', sqliteProblems: 0, foreignKeyViolations: 0, orphanRows: 0 }),
    ]);
    assert.equal(maintenanceHeadline(r), 'Maintenance: 3 aspects decayed, 2 possible duplicates, store compacted, nothing to repair.');
  });

  it('uses the singular, names failures and problems, and says when nothing needed doing', () => {
    assert.deepEqual(taskPhrases(task('decay-aspects', { aspectsDecayed: 1 })), ['1 aspect decayed']);
    assert.deepEqual(taskPhrases(task('reembed-stale', { embedded: 1, remaining: 0 })), ['1 memory re-embedded']);
    assert.deepEqual(taskPhrases(task('retry-dead-jobs', { jobsRetried: 2, jobsCleared: 1 })), ['2 failed jobs retried', '1 failed job cleared']);
    assert.deepEqual(taskPhrases(task('integrity-check', { result: 'problems found', sqliteProblems: 1 })), ['integrity problems found']);
    assert.deepEqual(taskPhrases(task('decay-aspects', {}, 'failed', 'Decay aspect weights')), ['decay aspect weights failed']);
    assert.equal(maintenanceHeadline(report([task('integrity-check', { result: 'ok' }), task('compact-store', { snapshotTaken: 1 })])),
      'Maintenance: store compacted, nothing to repair.', 'the integrity verdict comes last, whatever the task order');
    assert.equal(maintenanceHeadline(report([task('decay-aspects', { aspectsDecayed: 0 })])), 'Maintenance: nothing needed doing.');
    assert.equal(maintenanceHeadline(report([], ['nope'])), 'Maintenance: unknown task nope.');
    assert.equal(maintenanceHeadline(report([])), 'Maintenance: no task ran.');
  });

  it('writes the full report with every counter in words', () => {
    const md = maintenanceReportMarkdown(report([
      task('compact-store', { snapshotTaken: 1, snapshotSeq: 367 }, 'completed', 'Compact the store'),
      task('custom-task', { widgets: 4 }, 'failed', 'Custom'),
    ]));
    assert.match(md, /^# Maintenance report\n\nMaintenance: store compacted, custom failed\.\n/);
    assert.match(md, /## Compact the store\n\n- status: completed\n- items processed: 1\n- snapshots taken: 1\n- snapshot position: 367\n/);
    assert.match(md, /## Custom\n\n- status: failed\n- items processed: 1\n- widgets: 4\n/);
  });

  it('names every merge and conflict (which, into what, why, with dates), with no raw key or run id', () => {
    const md = maintenanceReportMarkdown({ ...report([
      task('merge-entities', { entitiesMerged: 2, merged: '"shelf.server" (file) merged into "shelf/server.py" (file): a module and its file\n"Mark-as-read route" (symbol) merged into "mark as read" (symbol): the same name with a kind word ("route")' }, 'completed', 'Merge duplicate entities'),
      task('find-duplicates-conflicts', { scanned: 60, mergeProposals: 0, conflictProposals: 1, clusters: 5, conflicts: '"The server listens on port 8080." (2026-06-02) ⟷ newer "… now listens on 127.0.0.1:4310" (2026-08-29) — value change' }),
    ]), runId: 'manual:178bee27-0000-4000-8000-000000000000' });
    assert.match(maintenanceHeadline(report([task('merge-entities', { entitiesMerged: 2 })])), /2 entities merged/);
    assert.match(md, /- merged:\n {2}- "shelf\.server" \(file\) merged into "shelf\/server\.py" \(file\): a module and its file\n {2}- "Mark-as-read route"/);
    assert.match(md, /- possible conflicts \(older ⟷ newer\):\n {2}- "The server listens on port 8080\." \(2026-06-02\) ⟷ newer/);
    assert.match(md, /Run by hand, 2026-12-01 02:00–02:00 UTC\./);
    assert.doesNotMatch(md, /entitiesMerged|conflictProposals|manual:|178bee27/);
  });
});

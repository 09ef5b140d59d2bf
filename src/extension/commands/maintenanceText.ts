/**
 * What a person reads after maintenance (vscode-free, unit-tested): a one-line headline for the
 * notification ("3 aspects decayed, 2 possible duplicates, nothing to repair") and the full report
 * as Markdown for the read-only "Show Report" document. Task summaries are the counters the tasks
 * return (src/core/maintenance/*Tasks.ts); unknown counters still appear in the full report.
 */
import type { MaintenanceReport, SummaryValue, TaskReport } from '../../core/maintenance/maintenanceTypes';

const n = (v: SummaryValue | undefined): number => (typeof v === 'number' ? v : 0);
const count = (v: number, one: string, many = `${one}s`): string => `${v.toLocaleString('en-US')} ${v === 1 ? one : many}`;

/** The phrases one task contributes to the headline; [] when it did nothing worth saying. */
export function taskPhrases(t: TaskReport): string[] {
  if (t.status === 'failed') return [`${t.title.toLowerCase()} failed`];
  if (t.status === 'cancelled') return [`${t.title.toLowerCase()} cancelled`];
  const s = t.summary;
  const out: string[] = [];
  const add = (v: number, one: string, many?: string): void => { if (v > 0) out.push(count(v, one, many)); };
  switch (t.task) {
    case 'decay-aspects': add(n(s.aspectsDecayed), 'aspect decayed', 'aspects decayed'); break;
    case 'propagate-memory-status': add(n(s.attributesSuperseded), 'attribute superseded', 'attributes superseded'); break;
    case 'backfill-hints': add(n(s.jobsEnqueued), 'hint job queued', 'hint jobs queued'); break;
    case 'reembed-stale': add(n(s.embedded), 'memory re-embedded', 'memories re-embedded'); break;
    case 'find-duplicates-conflicts':
      add(n(s.mergeProposals), 'possible duplicate', 'possible duplicates');
      add(n(s.conflictProposals), 'possible conflict', 'possible conflicts');
      break;
    case 'merge-entities': add(n(s.entitiesMerged), 'entity merged', 'entities merged'); break;
    case 'compact-store': if (n(s.snapshotTaken) > 0) out.push('store compacted'); break;
    case 'retry-dead-jobs':
      add(n(s.jobsRetried), 'failed job retried', 'failed jobs retried');
      add(n(s.jobsCleared), 'failed job cleared', 'failed jobs cleared');
      break;
    case 'rebuild-fts': add(n(s.indexesRebuilt), 'search index rebuilt', 'search indexes rebuilt'); break;
    case 'integrity-check': out.push(s.result === 'ok' ? 'nothing to repair' : 'integrity problems found'); break;
    default: break;
  }
  return out;
}

/** "Maintenance: 3 aspects decayed, 2 possible duplicates, nothing to repair." */
export function maintenanceHeadline(r: MaintenanceReport): string {
  // What changed first, the integrity verdict ("nothing to repair") last.
  const ordered = [...r.tasks.filter((t) => t.task !== 'integrity-check'), ...r.tasks.filter((t) => t.task === 'integrity-check')];
  const phrases = ordered.flatMap(taskPhrases);
  if (r.unknownTasks.length) phrases.push(`unknown ${r.unknownTasks.length === 1 ? 'task' : 'tasks'} ${r.unknownTasks.join(', ')}`);
  const body = phrases.length ? phrases.join(', ') : r.tasks.length ? 'nothing needed doing' : 'no task ran';
  return `Maintenance: ${body}.`;
}

const KEY_LABELS: Readonly<Record<string, string>> = {
  aspectsDecayed: 'aspects decayed', attributesSuperseded: 'attributes superseded', jobsEnqueued: 'jobs queued',
  embedded: 're-embedded', remaining: 'still to embed', model: 'model', scanned: 'memories scanned', mergeProposals: 'possible duplicates',
  conflictProposals: 'possible conflicts', clusters: 'clusters', snapshotTaken: 'snapshots taken', snapshotSeq: 'snapshot position',
  journalGenerationBefore: 'journal generation before', journalGenerationAfter: 'journal generation after', jobsRetried: 'failed jobs retried',
  jobsCleared: 'failed jobs cleared', indexesRebuilt: 'search indexes rebuilt', rebuilt: 'rebuilt', note: 'note', result: 'result',
  sqliteProblems: 'SQLite problems', foreignKeyViolations: 'foreign key violations', orphanRows: 'orphan rows', firstProblem: 'first problem', skipped: 'skipped',
  entitiesMerged: 'entities merged', merged: 'merged', conflicts: 'possible conflicts (older ⟷ newer)', duplicates: 'possible duplicates',
};

/** A counter no table names, in words: `entitiesMerged` → "entities merged" (never a raw key). */
export function keyLabel(k: string): string {
  return KEY_LABELS[k] ?? k.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** When a run happened, without its internal id ("manual:…"): "2026-12-02 03:31–03:31 UTC". */
function runWhen(r: MaintenanceReport): string {
  const day = r.startedAt.slice(0, 10);
  const t = (iso: string): string => iso.slice(11, 16);
  return `${day} ${t(r.startedAt)}–${r.finishedAt.slice(0, 10) === day ? t(r.finishedAt) : `${r.finishedAt.slice(0, 10)} ${t(r.finishedAt)}`} UTC`;
}

/** The report tab's title: "Maintenance Report, 2026-12-02 03:31 UTC" (documentPanels.ts). */
export function maintenanceReportTitle(r: MaintenanceReport): string {
  return `Maintenance Report, ${r.startedAt.slice(0, 10)} ${r.startedAt.slice(11, 16)} UTC`;
}

/** The full report as Markdown: the headline, then one section per task with every counter. */
export function maintenanceReportMarkdown(r: MaintenanceReport): string {
  const out = ['# Maintenance report', '', maintenanceHeadline(r), '', `${r.runId.startsWith('manual:') ? 'Run by hand' : 'Scheduled run'}, ${runWhen(r)}.`, ''];
  for (const t of r.tasks) {
    out.push(`## ${t.title}`, '', `- status: ${t.status}${t.resumed ? ' (continued an interrupted run)' : ''}`, `- items processed: ${t.processed}${t.total !== null ? ` of ${t.total}` : ''}`);
    for (const [k, v] of Object.entries(t.summary)) {
      // Named changes and proposals (one per line) become a list under their label.
      if (typeof v === 'string' && v.includes('\n')) out.push(`- ${keyLabel(k)}:`, ...v.split('\n').map((line) => `  - ${line}`));
      else if (typeof v === 'string' && (k === 'merged' || k === 'conflicts' || k === 'duplicates')) out.push(`- ${keyLabel(k)}:`, `  - ${v}`);
      else out.push(`- ${keyLabel(k)}: ${v}`);
    }
    if (t.error) out.push(`- error: ${t.error}`);
    out.push('');
  }
  if (r.unknownTasks.length) out.push(`Unknown tasks (not run): ${r.unknownTasks.join(', ')}`, '');
  return out.join('\n');
}

/**
 * Memory: Run Maintenance — a quick pick of the registry's tasks plus "Run all", run with a
 * cancellable progress notification, ending with a short human summary and a "Show Report" action
 * that opens the full report read-only (maintenanceText.ts; the full summary is also logged).
 */
import * as vscode from 'vscode';
import { MemoryError } from '../../core/errors';
import type { MaintenanceReport, TaskReport } from '../../core/maintenance/maintenanceTypes';
import type { Services } from '../host/services';
import type { MemoryDocuments } from '../documents/memoryDocuments';
import { registerSafe } from './commandUtil';
import { maintenanceHeadline, maintenanceReportMarkdown, maintenanceReportTitle } from './maintenanceText';
import { registerReview } from '../review/registerReview';
import type { Review } from '../review/registerReview';

export const RUN_ALL = 'all';
const SHOW_REPORT = 'Show Report';

export function taskSummary(t: TaskReport): string {
  const summary = Object.entries(t.summary).map(([k, v]) => `${k} ${v}`).join(', ');
  return `${t.title}: ${t.status}${t.resumed ? ' (resumed)' : ''}, ${t.processed} processed${summary ? ` (${summary})` : ''}${t.error ? ` — ${t.error}` : ''}`;
}

export function reportSummary(r: MaintenanceReport): string {
  const failed = r.tasks.filter((t) => t.status === 'failed').length;
  return `Maintenance finished: ${r.tasks.length} task${r.tasks.length === 1 ? '' : 's'}${failed ? `, ${failed} failed` : ''}. ${r.tasks.map(taskSummary).join('; ')}`;
}

/**
 * Runs maintenance. `which` is RUN_ALL, a task id, or an array of ids; without it a quick pick asks.
 * Returns the report (for callers and tests).
 */
export async function runMaintenance(services: Services, docs: MemoryDocuments, which?: unknown, review?: Review): Promise<MaintenanceReport | undefined> {
  const rt = await services.runtime();
  const tasks = rt.loop.maintenance.tasks();
  let ids: string[] | undefined;
  if (which === RUN_ALL) ids = [];
  else if (typeof which === 'string') ids = [which];
  else if (Array.isArray(which) && which.every((x) => typeof x === 'string')) ids = which as string[];
  else {
    const items = [{ label: '$(run-all) Run all', description: `${tasks.length} tasks`, id: RUN_ALL }, ...tasks.map((t) => ({ label: t.title, description: t.id, id: t.id }))];
    const pick = await vscode.window.showQuickPick(items, { title: 'Run memory maintenance' });
    if (!pick) return undefined;
    ids = pick.id === RUN_ALL ? [] : [pick.id];
  }
  const total = ids.length || tasks.length;
  const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Memory maintenance', cancellable: true }, async (progress, token) => {
    const sub = token.onCancellationRequested(() => rt.loop.maintenance.dispose());
    try {
      return await rt.loop.maintenance.run(ids ?? [], {
        // A task announces its start with "Title…": each start advances the bar by one task's share.
        progress: { report: (u) => progress.report({ ...(u.message ? { message: u.message } : {}), ...(u.message?.endsWith('…') ? { increment: 100 / Math.max(1, total) } : {}) }) },
      });
    } finally {
      sub.dispose();
      if (token.isCancellationRequested) rt.loop.maintenance.startSchedule();
    }
  });
  if (!report) throw new MemoryError('E_INTERNAL', 'Maintenance ended without a report.');
  services.logger.info(reportSummary(report));
  const markdown = maintenanceReportMarkdown(report);
  // The conflicts to resolve and the changes to undo are read afresh whenever the report is shown
  // and after each answer (src/extension/review).
  const conflictIds = review ? rt.conflicts().map((c) => c.id) : [];
  const live = review ? (): Promise<string> => review.sections(report.runId, conflictIds) : undefined;
  const failed = report.tasks.some((t) => t.status === 'failed');
  const show = failed ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  // Not awaited: the command resolves with the report while the notification waits for the user.
  void show(maintenanceHeadline(report), SHOW_REPORT).then((pick) => {
    if (pick === SHOW_REPORT) void docs.showReport(maintenanceReportTitle(report), markdown, live);
  });
  return report;
}

export function registerMaintenanceCommand(context: vscode.ExtensionContext, services: Services, docs: MemoryDocuments): void {
  const review = registerReview(context, services, docs);
  registerSafe(context, services, 'agentMemory.runMaintenance', 'Run Maintenance', (which?: unknown) => runMaintenance(services, docs, which, review));
}

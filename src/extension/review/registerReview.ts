/**
 * Resolving conflicts and undoing maintenance changes from the editor (issue #27):
 * *Memory: Resolve Conflicts…* and *Memory: Undo a Maintenance Change…* (a quick pick when called
 * without arguments), the command links of the maintenance report (reviewText.ts, REPORT_LINKS
 * below), and the live review sections of a report.
 */
import * as vscode from 'vscode';
import { CONFLICT_CHOICES, conflictById } from '../../core/consolidation/conflictRecords';
import type { ConflictChoice, ConflictRecord } from '../../core/consolidation/conflictRecords';
import { MemoryError } from '../../core/errors';
import type { MemoryDocuments } from '../documents/memoryDocuments';
import type { Services } from '../host/services';
import { registerSafe } from '../commands/commandUtil';
import { changesMarkdown, conflictsMarkdown } from './reviewText';
import type { ReviewLinks } from './reviewText';

export const RESOLVE_CONFLICT_COMMAND = 'agentMemory.resolveConflict';
export const UNDO_CHANGE_COMMAND = 'agentMemory.undoMaintenanceChange';

const snippet = (s: string, n = 80): string => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};

const CHOICE_LABELS: Readonly<Record<ConflictChoice, string>> = { 'keep-newer': 'Keep newer', 'keep-older': 'Keep older', 'both-true': 'Both are true' };

export interface Review {
  /** The live review sections of the report of run `runId` (re-read whenever the report is shown or refreshed). */
  sections(runId: string, conflictIds: readonly string[]): Promise<string>;
}

/**
 * The report's links are command links: the report renders in a document tab of ours
 * (documents/documentPanels.ts) that runs only Agent Memory's own commands.
 */
const commandLink = (command: string, args: readonly string[]): string => `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
const REPORT_LINKS: ReviewLinks = {
  conflict: (id, choice) => commandLink(RESOLVE_CONFLICT_COMMAND, [id, choice]),
  undo: (id) => commandLink(UNDO_CHANGE_COMMAND, [id]),
};

/** Registers the commands; `docs` refreshes open reports after an answer. */
export function registerReview(context: vscode.ExtensionContext, services: Services, docs: MemoryDocuments): Review {
  const resolveNow = async (conflictId: string, answer: ConflictChoice): Promise<string> => {
    const r = await (await services.runtime()).resolveConflict(conflictId, answer);
    await docs.refreshReports();
    void vscode.window.showInformationMessage(r.message);
    return r.message;
  };
  const undoNow = async (changeId: string): Promise<string> => {
    const c = await (await services.runtime()).undoMaintenanceChange(changeId);
    await docs.refreshReports();
    const message = `Undone: "${c.subject}" is its own entity again (no longer merged into "${c.target ?? '?'}").`;
    void vscode.window.showInformationMessage(message);
    return message;
  };

  const resolve = async (id?: unknown, choice?: unknown): Promise<string | undefined> => {
    const rt = await services.runtime();
    let conflictId = typeof id === 'string' ? id : undefined;
    if (!conflictId) {
      const open = rt.conflicts();
      if (!open.length) { void vscode.window.showInformationMessage('No conflicts to resolve. Run Maintenance → "Find duplicates and conflicts" to look for them.'); return undefined; }
      const pick = await vscode.window.showQuickPick(open.map((c) => ({
        label: snippet(c.newer.content), description: `${c.reason}, ${c.newer.createdAt.slice(0, 10)}`, detail: `was: ${snippet(c.older.content, 120)} (${c.older.createdAt.slice(0, 10)})`, id: c.id,
      })), { title: 'Resolve a conflict: the newer memory, and the older one it conflicts with', matchOnDetail: true });
      if (!pick) return undefined;
      conflictId = pick.id;
    }
    let answer = typeof choice === 'string' && (CONFLICT_CHOICES as readonly string[]).includes(choice) ? (choice as ConflictChoice) : undefined;
    if (typeof choice === 'string' && !answer) throw new MemoryError('E_INVALID_INPUT', `Unknown answer '${choice}': use keep-newer, keep-older or both-true.`);
    if (!answer) {
      const c = rt.store.read((db) => conflictById(db, conflictId as string));
      if (!c) throw new MemoryError('E_NOT_FOUND', 'This conflict is no longer listed; run maintenance again to see the current ones.');
      const pick = await vscode.window.showQuickPick(CONFLICT_CHOICES.map((k) => ({ label: CHOICE_LABELS[k], description: describe(k, c), choice: k })), { title: 'Which one holds?' });
      if (!pick) return undefined;
      answer = pick.choice;
    }
    return resolveNow(conflictId, answer);
  };

  const undo = async (id?: unknown): Promise<string | undefined> => {
    const rt = await services.runtime();
    let changeId = typeof id === 'string' ? id : undefined;
    if (!changeId) {
      const changes = rt.maintenanceChanges({ limit: 200 }).filter((c) => c.undoable);
      if (!changes.length) { void vscode.window.showInformationMessage('No maintenance change can be undone (changes can be undone for 7 days after the run that made them).'); return undefined; }
      const pick = await vscode.window.showQuickPick(changes.map((c) => ({ label: `"${c.subject}" merged into "${c.target ?? '?'}"`, description: c.createdAt.slice(0, 10), detail: c.why, id: c.id })), { title: 'Undo a maintenance change' });
      if (!pick) return undefined;
      changeId = pick.id;
    }
    return undoNow(changeId);
  };

  registerSafe(context, services, RESOLVE_CONFLICT_COMMAND, 'Resolve Conflicts', resolve);
  registerSafe(context, services, UNDO_CHANGE_COMMAND, 'Undo a Maintenance Change', undo);

  return {
    async sections(runId, conflictIds) {
      const links = REPORT_LINKS;
      const rt = await services.runtime();
      // The conflicts this report listed (answered ones say how), then any found since.
      const listed = rt.store.read((db) => conflictIds.map((id) => conflictById(db, id)).filter((c): c is ConflictRecord => c !== undefined));
      const seen = new Set(listed.map((c) => c.id));
      const conflicts = [...listed, ...rt.conflicts().filter((c) => !seen.has(c.id))];
      return [...conflictsMarkdown(conflicts, links), ...changesMarkdown(rt.maintenanceChanges({ runId }), links)].join('\n');
    },
  };
}

function describe(k: ConflictChoice, c: ConflictRecord): string {
  if (k === 'keep-newer') return `"${snippet(c.newer.content, 50)}" (${c.newer.createdAt.slice(0, 10)}) is current`;
  if (k === 'keep-older') return `"${snippet(c.older.content, 50)}" (${c.older.createdAt.slice(0, 10)}) is current`;
  return 'both stay current; this pair is not proposed again';
}

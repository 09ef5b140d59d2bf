/**
 * Resolving conflicts and undoing maintenance changes from the editor (issue #27):
 * *Memory: Resolve Conflicts…* and *Memory: Undo a Maintenance Change…* (a quick pick when called
 * without arguments), the links of the maintenance report (reviewText.ts, reportLinks below), and
 * the live review sections of a report.
 */
import * as vscode from 'vscode';
import { CONFLICT_CHOICES, conflictById } from '../../core/consolidation/conflictRecords';
import type { ConflictChoice, ConflictRecord } from '../../core/consolidation/conflictRecords';
import { MemoryError, userMessage } from '../../core/errors';
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
  /** The live review sections of the report at `reportPath` of run `runId` (re-read whenever the report is shown). */
  sections(runId: string, conflictIds: readonly string[], reportPath: string): Promise<string>;
}

/**
 * The report's links are relative document links (`../review/<report>/conflict/<choice>/<id>.md`):
 * VS Code's Markdown preview hands only those to the extension (it ignores `command:` links, and in
 * the browser the workbench ignores the extension's own `<scheme>://` URIs in a webview), and opens
 * them as documents of this extension (memoryDocuments.ts#setReviewAction), which act once.
 */
function reportLinks(reportPath: string): ReviewLinks {
  const report = /\/report\/([^/]+)\.md$/.exec(reportPath)?.[1] ?? '0';
  return {
    // The answer is the file name, so the preview's tab reads "Preview keep-newer.md".
    conflict: (id, choice) => `../review/${report}/conflict/${encodeURIComponent(id)}/${choice}.md`,
    undo: (id) => `../review/${report}/change/${encodeURIComponent(id)}/undo.md`,
  };
}

const REVIEW_PATH_RE = /^\/review\/([^/]+)\/(?:conflict|change)\/([^/]+)\/(keep-newer|keep-older|both-true|undo)\.md$/;

/** Registers the commands and the URI handler; `docs` refreshes open reports after an answer. */
export function registerReview(context: vscode.ExtensionContext, services: Services, docs: MemoryDocuments): Review {
  const resolveNow = async (conflictId: string, answer: ConflictChoice): Promise<string> => {
    const r = await (await services.runtime()).resolveConflict(conflictId, answer);
    docs.refreshReports();
    void vscode.window.showInformationMessage(r.message);
    return r.message;
  };
  const undoNow = async (changeId: string): Promise<string> => {
    const c = await (await services.runtime()).undoMaintenanceChange(changeId);
    docs.refreshReports();
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

  // A report link, opened as a document: the answer or the undo, and the way back to the report.
  docs.setReviewAction(async (path) => {
    const m = REVIEW_PATH_RE.exec(path);
    if (!m) return `Unknown Agent Memory link: ${path}\n`;
    const back = `[Back to the maintenance report](../../../../report/${m[1] ?? '0'}.md)`;
    const id = decodeURIComponent(m[2] ?? '');
    const answer = m[3] === 'undo' ? undefined : (m[3] as ConflictChoice);
    try {
      const said = answer ? await resolveNow(id, answer) : await undoNow(id);
      return `# ${answer ? 'Conflict resolved' : 'Change undone'}\n\n${said}\n\n${back}\n`;
    } catch (e) {
      services.logger.warn(`${answer ? 'Resolve Conflicts' : 'Undo a Maintenance Change'}: ${userMessage(e)}`);
      return `# Nothing was changed\n\n${userMessage(e)}\n\n${back}\n`;
    }
  });

  registerSafe(context, services, RESOLVE_CONFLICT_COMMAND, 'Resolve Conflicts', resolve);
  registerSafe(context, services, UNDO_CHANGE_COMMAND, 'Undo a Maintenance Change', undo);

  return {
    async sections(runId, conflictIds, reportPath) {
      const links = reportLinks(reportPath);
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

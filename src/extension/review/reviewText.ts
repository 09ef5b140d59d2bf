/**
 * The maintenance report's review sections as Markdown (vscode-free, unit-tested): the conflicts to
 * resolve, each as the two memories side by side with their dates and three links (Keep newer,
 * Keep older, Both are true), and every change maintenance made (which entity, into what, why)
 * with an Undo link while its window is open (docs/maintenance.md). The links are command links
 * (registerReview.ts#REPORT_LINKS), run by the report's document tab.
 */
import type { ConflictChoice, ConflictRecord } from '../../core/consolidation/conflictRecords';
import type { MaintenanceChange } from '../../core/maintenance/maintenanceUndo';
import { UNDO_WINDOW_DAYS } from '../../core/maintenance/maintenanceUndo';

export interface ReviewLinks {
  conflict(id: string, choice: ConflictChoice): string;
  undo(changeId: string): string;
}

/** Text safe inside a Markdown table cell: one line, pipes escaped, cut. */
function cell(s: string, max = 240): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return cut.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/([*_`[\]<>])/g, '\\$1');
}

const day = (iso: string | null): string => (iso ?? '').slice(0, 10);
const CHOICE_WORDS: Readonly<Record<ConflictChoice, string>> = { 'keep-newer': 'kept the newer one', 'keep-older': 'kept the older one', 'both-true': 'both are true' };
const CURRENT_WORDS: Readonly<Record<ConflictRecord['current'], string>> = { newer: 'recall treats the newer one as current', older: 'recall treats the older one as current', both: 'recall treats both as current' };

/** "## Conflicts to resolve": open ones with their three answers, answered ones with the answer. */
export function conflictsMarkdown(conflicts: readonly ConflictRecord[], links: ReviewLinks): string[] {
  if (conflicts.length === 0) return [];
  const open = conflicts.filter((c) => c.status === 'open').length;
  const out = ['## Conflicts to resolve', '', open
    ? `${open} ${open === 1 ? 'pair of memories says' : 'pairs of memories say'} different things. Pick what holds; the answer shows in the next recall. *Both are true* also stops this pair (and copies of the same two statements) from being proposed again.`
    : 'Every conflict of this run is answered.', ''];
  conflicts.forEach((c, i) => {
    out.push(`### ${i + 1}. ${c.reason[0]?.toUpperCase() ?? ''}${c.reason.slice(1)}`, '',
      `| Older (${day(c.older.createdAt)}) | Newer (${day(c.newer.createdAt)}) |`, '|---|---|', `| ${cell(c.older.content)} | ${cell(c.newer.content)} |`, '');
    if (c.status === 'open') {
      out.push(`Now ${CURRENT_WORDS[c.current]}. [Keep newer](${links.conflict(c.id, 'keep-newer')}) · [Keep older](${links.conflict(c.id, 'keep-older')}) · [Both are true](${links.conflict(c.id, 'both-true')})`, '');
    } else {
      out.push(`Resolved on ${day(c.resolvedAt)}: ${CHOICE_WORDS[c.status]}.`, '');
    }
  });
  return out;
}

/** "## Changes maintenance made": each merge by name, into what, why, and whether it can be undone. */
export function changesMarkdown(changes: readonly MaintenanceChange[], links: ReviewLinks): string[] {
  if (changes.length === 0) return [];
  const out = ['## Changes maintenance made', '', `Each can be undone for ${UNDO_WINDOW_DAYS} days (*Memory: Undo a Maintenance Change…* lists them too).`, ''];
  for (const c of changes) {
    const what = `"${cell(c.subject, 120)}" merged into "${cell(c.target ?? '?', 120)}": ${cell(c.why, 200)}.`;
    const state = c.undoneAt ? `Undone on ${day(c.undoneAt)}.` : c.undoable ? `[Undo](${links.undo(c.id)}) (until ${day(c.undoUntil)})` : `Can no longer be undone (the window closed on ${day(c.undoUntil)}).`;
    out.push(`- ${what} ${state}`);
  }
  out.push('');
  return out;
}

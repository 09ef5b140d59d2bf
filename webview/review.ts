/**
 * The review part of the Knowledge panel (issue #27): the conflicts maintenance proposed, each as
 * the two memories side by side with their dates and three answers (Keep newer, Keep older, Both
 * are true), and notices for entities the list showed that were merged into another one ("X was
 * merged into Y", Y a link). The host side is src/extension/knowledge/reviewController.ts.
 */
import { h } from './dom';
import type { ConflictChoiceView, ConflictView, MergedAwayView } from '../src/shared/knowledgeProtocolTypes';

export interface ReviewEvents {
  resolve(id: string, choice: ConflictChoiceView): void;
  openEntity(id: string): void;
}

const day = (iso: string): string => iso.slice(0, 10);

const CURRENT: Readonly<Record<ConflictView['current'], string>> = {
  newer: 'Recall treats the newer one as current.',
  older: 'Recall treats the older one as current.',
  both: 'Recall treats both as current.',
};

function side(label: 'Older' | 'Newer', s: ConflictView['older'], current: boolean): HTMLElement {
  return h('div', { class: `conflict-side${current ? ' current' : ''}` },
    h('div', { class: 'conflict-when' }, `${label} · ${day(s.createdAt)}`, current ? h('span', { class: 'badge' }, 'current') : null),
    h('p', { class: 'conflict-text' }, s.content));
}

export class ReviewPane {
  readonly element: HTMLElement;
  private readonly notices = h('div', { class: 'merged-notices', 'aria-live': 'polite' });
  private readonly conflictsBox = h('details', { class: 'card conflicts', hidden: true });
  private readonly merged = new Map<string, MergedAwayView>();

  constructor(private readonly events: ReviewEvents) {
    this.element = h('div', { class: 'review' }, this.notices, this.conflictsBox);
  }

  setConflicts(list: readonly ConflictView[], notice: string | null): void {
    const wasOpen = (this.conflictsBox as HTMLDetailsElement).open;
    const count = list.length;
    const summary = h('summary', { class: 'conflicts-summary' },
      count ? `${count} ${count === 1 ? 'conflict' : 'conflicts'} to review` : 'No conflicts to review');
    const items = list.map((c) => {
      const question = `${c.reason[0]?.toUpperCase() ?? ''}${c.reason.slice(1)}: which one holds?`;
      return h('section', { class: 'conflict', 'aria-label': `Conflict: ${c.newer.content.slice(0, 80)}` },
        h('p', { class: 'conflict-q' }, question, ' ', h('span', { class: 'meta' }, CURRENT[c.current])),
        h('div', { class: 'conflict-pair' }, side('Older', c.older, c.current === 'older'), side('Newer', c.newer, c.current === 'newer')),
        h('div', { class: 'conflict-actions' },
          this.button('Keep newer', c.id, 'keep-newer', 'The newer memory is current; the older one becomes history'),
          this.button('Keep older', c.id, 'keep-older', 'The older memory is current; the newer one becomes history'),
          this.button('Both are true', c.id, 'both-true', 'Both stay current; this pair (and copies of these two statements) is not proposed again')));
    });
    const note = notice ? h('p', { class: 'conflict-notice', role: 'status' }, notice) : null;
    this.conflictsBox.replaceChildren(summary, note ?? '', ...items);
    this.conflictsBox.hidden = count === 0 && !notice;
    // Closed at first (a one-line summary above the list); a person opens it, and it stays open.
    (this.conflictsBox as HTMLDetailsElement).open = wasOpen || notice !== null;
  }

  addMergedAway(items: readonly MergedAwayView[]): void {
    for (const m of items) this.merged.set(m.id, m);
    this.renderNotices();
  }

  private renderNotices(): void {
    this.notices.replaceChildren(...[...this.merged.values()].map((m) => {
      const dismiss = h('button', { type: 'button', class: 'link dismiss', title: 'Dismiss', 'aria-label': `Dismiss the note about ${m.name}` }, '×');
      dismiss.addEventListener('click', () => { this.merged.delete(m.id); this.renderNotices(); });
      const into = h('button', { type: 'button', class: 'link' }, m.intoName);
      into.addEventListener('click', () => this.events.openEntity(m.intoId));
      return h('p', { class: 'merged-notice' }, `"${m.name}" was merged into `, into, ` (${day(m.at)}).`, ' ', dismiss);
    }));
  }

  private button(label: string, id: string, choice: ConflictChoiceView, title: string): HTMLButtonElement {
    const b = h('button', { type: 'button', class: choice === 'keep-newer' ? 'button' : 'button secondary', title }, label);
    b.addEventListener('click', () => {
      b.disabled = true;
      this.events.resolve(id, choice);
    });
    return b;
  }
}

/** The overview cards: knowledge stats (counts, seed 003 feedback stats, telemetry) and focal entities. */
import { fmtDate, fmtWeight, h, pinIcon } from './dom';
import type { FocalResolution, KnowledgeStats } from '../src/shared/knowledgeProtocolTypes';

function statGrid(label: string, items: readonly (readonly [string, string, string?])[]): HTMLElement {
  return h('dl', { class: 'stat-grid', 'aria-label': label }, ...items.flatMap(([name, value, title]) => [
    h('dt', { title }, name),
    h('dd', {}, value),
  ]));
}

const n = (v: number): string => v.toLocaleString('en-US');

export function renderStats(root: HTMLElement, stats: KnowledgeStats | undefined): void {
  const heading = h('h2', { id: 'stats-h' }, 'Knowledge stats');
  if (!stats) {
    root.replaceChildren(heading, h('p', { class: 'empty' }, 'Loading…'));
    return;
  }
  const c = stats.counts;
  const f = stats.feedback;
  const counts = statGrid('Counts', [
    ['Memories', n(c.memories)], ['Entities', n(c.entities)], ['Pinned', n(c.pinned)], ['Aspects', n(c.aspects)],
    ['Attributes', n(c.attributes)], ['Constraints', n(c.constraints)], ['Relations', n(c.relations)],
  ]);
  const feedback = c.aspects === 0
    ? h('p', { class: 'empty' }, 'No aspects yet, so no feedback: aspect weights move once sessions confirm memories (FTS hits) or decay them.')
    : statGrid('Aspect feedback', [
      ['Updated by feedback (7 days)', n(f.aspectsUpdatedLast7Days), 'Aspects whose weight changed in the last 7 days'],
      ['Average weight', f.avgAspectWeight === null ? '—' : fmtWeight(f.avgAspectWeight)],
      ['At maximum weight', n(f.aspectsAtMax), 'Aspects at the ceiling (1.0)'],
      ['At minimum weight', n(f.aspectsAtMin), 'Aspects at the floor (0.1)'],
    ]);
  const t = stats.telemetry;
  const telemetry = t === null
    ? h('p', { class: 'empty' }, 'No session has ended in this window yet, so the feedback loop has not reported.')
    : statGrid('Feedback telemetry', [
      ['Aspects updated', n(t.feedbackAspectsUpdated), 'feedbackAspectsUpdated'],
      ['FTS confirmations', n(t.feedbackFtsConfirmations), 'feedbackFtsConfirmations'],
      ['Decayed aspects', n(t.feedbackDecayedAspects), 'feedbackDecayedAspects'],
      ['Propagated attributes', n(t.feedbackPropagatedAttributes), 'feedbackPropagatedAttributes'],
      ['Last run', fmtDate(t.lastRunAt)],
    ]);
  root.replaceChildren(heading,
    counts,
    h('h3', {}, 'Aspect weights'), feedback,
    h('h3', {}, 'Feedback loop (this window)'), telemetry);
}

export function renderFocal(root: HTMLElement, focal: FocalResolution | null | undefined, openEntity: (id: string) => void): void {
  const heading = h('h2', { id: 'focal-h' }, 'Focal entities');
  if (focal === undefined) {
    root.replaceChildren(heading, h('p', { class: 'empty' }, 'Loading…'));
    return;
  }
  if (focal === null) {
    root.replaceChildren(heading, h('p', { class: 'empty' }, 'No focal entities resolved yet. They are chosen at the start of a session: pinned entities always, then the checkpoint, the project path or the query.'));
    return;
  }
  const list = focal.entities.length
    ? h('ul', { class: 'focal-list' }, ...focal.entities.map((e) => {
      const link = h('button', { class: 'link', type: 'button', title: `Open ${e.name}` }, e.name);
      link.addEventListener('click', () => openEntity(e.id));
      return h('li', {}, link, e.pinned ? h('span', { class: 'badge accent', title: 'Included because it is pinned' }, pinIcon(true), 'pinned') : null);
    }))
    : h('p', { class: 'empty' }, 'The last resolution found no focal entities.');
  const pinnedCount = focal.entities.filter((e) => e.pinned).length;
  root.replaceChildren(heading,
    h('p', { class: 'meta' }, `Source: `, h('span', { class: 'badge' }, focal.source), ` · ${pinnedCount} pinned · ${fmtDate(focal.resolvedAt)}`),
    list);
}

/**
 * The recall playground: run a query against memory and see, per result, why it was recalled
 * (channel scores, boosts, penalties, notes).
 */
import { fmtDate, h } from './dom';
import { weightBar } from './entityDetail';
import type { ExplainScore, RecallResultView } from '../src/shared/knowledgeProtocolTypes';
import type { RecallState } from './viewState';
import { teamBadge } from './teamBadge';

export type PlaygroundStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly query: string }
  | { readonly kind: 'done'; readonly result: RecallState }
  | { readonly kind: 'error'; readonly message: string };

export function renderPlaygroundResults(root: HTMLElement, status: PlaygroundStatus): void {
  if (status.kind === 'idle') {
    root.replaceChildren(h('p', { class: 'empty' }, 'Ask a question the way an agent would, for example "how do we run the tests?", to see what memory returns and why.'));
    return;
  }
  if (status.kind === 'running') {
    root.replaceChildren(h('p', { class: 'empty' }, `Recalling “${status.query}”…`));
    return;
  }
  if (status.kind === 'error') {
    root.replaceChildren(h('p', { class: 'error', role: 'alert' }, status.message));
    return;
  }
  const r = status.result;
  const summary = h('p', { class: 'meta' }, `${r.results.length} result${r.results.length === 1 ? '' : 's'} for “${r.query}” in ${r.tookMs} ms`);
  if (!r.results.length) {
    root.replaceChildren(summary, h('p', { class: 'empty' }, 'Nothing matched. Memory only finds what was remembered: try other words, or remember something first.'));
    return;
  }
  const top = Math.max(...r.results.map((x) => x.score), 1e-9);
  root.replaceChildren(summary, h('ol', { class: 'results' }, ...r.results.map((x, i) => resultItem(x, i, top))));
}

function resultItem(x: RecallResultView, i: number, top: number): HTMLElement {
  return h('li', { class: 'result' },
    h('div', { class: 'result-head' },
      h('span', { class: 'rank' }, `#${i + 1}`),
      weightBar(x.score / top, 'score relative to the best result'),
      h('span', { class: 'score', title: 'final score' }, x.score.toFixed(3)),
      h('span', { class: 'badge' }, x.memoryType),
      teamBadge(x.team),
      x.stale ? h('span', { class: 'badge stale', title: staleTitle(x.stale) }, x.stale.status === 'superseded' ? 'superseded' : 'partly superseded') : null,
      h('span', { class: 'muted small' }, fmtDate(x.createdAt))),
    h('div', { class: 'result-content' }, x.content),
    x.stale?.replacement ? h('p', { class: 'stale-note small' }, `Superseded by: ${x.stale.replacement}`) : null,
    explainBlock(x));
}

function staleTitle(stale: NonNullable<RecallResultView['stale']>): string {
  const what = stale.status === 'superseded' ? 'A newer memory replaces this one' : 'Part of this memory was replaced by a newer one';
  return stale.replacement ? `${what}: ${stale.replacement}` : `${what}.`;
}

function explainBlock(x: RecallResultView): HTMLElement {
  const e = x.explain;
  if (!e) return h('p', { class: 'muted small' }, 'No explanation recorded for this result.');
  const rows = (title: string, items: readonly ExplainScore[]): HTMLElement | null => items.length
    ? h('div', { class: 'explain-group' }, h('h4', {}, title), h('table', { class: 'explain' },
      h('tbody', {}, ...items.map((s) => h('tr', {}, h('th', { scope: 'row' }, s.name), h('td', {}, fmtExplain(s)))))))
    : null;
  const details = h('details', { class: 'why' },
    h('summary', {}, 'Why was this recalled?'),
    rows('Channels', e.channels),
    rows('Boosts', e.boosts),
    rows('Penalties', e.penalties),
    e.notes.length ? h('ul', { class: 'notes' }, ...e.notes.map((note) => h('li', {}, note))) : null,
    !e.channels.length && !e.boosts.length && !e.penalties.length && !e.notes.length ? h('p', { class: 'muted small' }, 'The breakdown is empty.') : null);
  return details;
}

/** Channel scores as numbers, deltas signed ("+0.150"), factors as multipliers ("×0.50"). */
export function fmtExplain(s: ExplainScore): string {
  if (s.op === 'multiply') return `×${s.value.toFixed(2)}`;
  if (s.op === 'add') return `${s.value >= 0 ? '+' : '−'}${Math.abs(s.value).toFixed(3)}`;
  return s.value.toFixed(3);
}

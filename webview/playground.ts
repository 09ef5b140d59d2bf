/**
 * The recall playground: run a query against memory and see, per result, why it was recalled in
 * plain words (the lines of src/core/recall/explainText.ts), with off-topic results held back.
 */
import { fmtDate, h } from './dom';
import { weightBar } from './entityDetail';
import { EXPLAIN_LEGEND, RELEVANCE_FLOOR } from '../src/shared/explainLegend';
import type { ExplainScore, RecallResultView } from '../src/shared/knowledgeProtocolTypes';
import type { RecallState } from './viewState';
import { teamBadge } from './teamBadge';

export type PlaygroundStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly query: string }
  | { readonly kind: 'done'; readonly result: RecallState }
  | { readonly kind: 'error'; readonly message: string };

/**
 * `focusId`: a memory whose explanation to open, mark and scroll to (the "why?" of a @memory
 * answer); when that memory is not among the results, a line says so.
 */
export function renderPlaygroundResults(root: HTMLElement, status: PlaygroundStatus, focusId?: string): void {
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
  // Off-topic fillers stay out of the list (src/core/recall/explainText.ts, the relevance floor):
  // they are one click away, never shown as if they answered the question.
  const shown = r.results.filter((x, i) => i === 0 || x.relevance >= RELEVANCE_FLOOR);
  const heldBack = r.results.filter((x, i) => i > 0 && x.relevance < RELEVANCE_FLOOR);
  const focusMissing = focusId !== undefined && !r.results.some((x) => x.id === focusId);
  root.replaceChildren(summary,
    ...(focusMissing ? [h('p', { class: 'stale-note small', role: 'status' }, 'The memory you asked about is not among these results any more (it may have been forgotten or changed).')] : []),
    h('ol', { class: 'results' }, ...shown.map((x, i) => resultItem(x, i))),
    ...(heldBack.length ? [h('details', { class: 'held-back', ...(heldBack.some((x) => x.id === focusId) ? { open: true } : {}) },
      h('summary', {}, `${heldBack.length} weaker result${heldBack.length === 1 ? '' : 's'} held back (relevance below ${RELEVANCE_FLOOR.toFixed(2)})`),
      h('ol', { class: 'results', start: String(shown.length + 1) }, ...heldBack.map((x, i) => resultItem(x, shown.length + i))))] : []),
    h('details', { class: 'legend' }, h('summary', {}, 'How to read “Why”'), h('ul', { class: 'notes' }, ...EXPLAIN_LEGEND.map((l) => h('li', {}, l)))));
  if (focusId !== undefined) focusResult(root, focusId);
}

/** Opens the focused memory's "Why was this recalled?", marks it and scrolls it into view. */
function focusResult(root: HTMLElement, id: string): void {
  const item = Array.from(root.querySelectorAll<HTMLElement>('.result')).find((el) => el.dataset.memoryId === id);
  if (!item) return;
  item.classList.add('focused');
  item.setAttribute('aria-current', 'true');
  const why = item.querySelector<HTMLDetailsElement>('details.why');
  if (why) why.open = true;
  requestAnimationFrame(() => item.scrollIntoView({ block: 'nearest' }));
}

function resultItem(x: RecallResultView, i: number): HTMLElement {
  return h('li', { class: 'result', 'data-memory-id': x.id },
    h('div', { class: 'result-head' },
      h('span', { class: 'rank' }, `#${i + 1}`),
      weightBar(x.relevance, 'relevance: the score relative to the best result (1.00)'),
      h('span', { class: 'score', title: 'relevance, 0–1: the score relative to the best result for this question' }, x.relevance.toFixed(2)),
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
  return h('details', { class: 'why' },
    h('summary', {}, 'Why was this recalled?'),
    e.lines.length ? h('ul', { class: 'notes' }, ...e.lines.map((line) => h('li', {}, line))) : h('p', { class: 'muted small' }, 'The breakdown is empty.'));
}

/** Channel scores as numbers, deltas signed ("+0.150"), factors as multipliers ("×0.50"). */
export function fmtExplain(s: ExplainScore): string {
  if (s.op === 'multiply') return `×${s.value.toFixed(2)}`;
  if (s.op === 'add') return `${s.value >= 0 ? '+' : '−'}${Math.abs(s.value).toFixed(3)}`;
  return s.value.toFixed(3);
}

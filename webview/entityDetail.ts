/**
 * The entity detail: header with pin/unpin, aspects by weight with weight bars (each expands to
 * its attributes: kind, status, importance, currentness notes), unclassified attributes, and
 * relations in both directions (each a link to the related entity).
 */
import { codicon, fmtDate, fmtPercent, fmtWeight, h, pinIcon } from './dom';
import { healthLabel, healthLevel, healthReason } from './health';
import { entityTypeIcon } from './entityTypeIcons';
import type { AspectView, AttributeView, CopyWhat, EntityDetail, RelationView } from '../src/shared/knowledgeProtocolTypes';
import { teamBadge } from './teamBadge';

export interface EntityDetailEvents {
  setPinned(id: string, pinned: boolean): void;
  openEntity(id: string): void;
  openInTree(id: string): void;
  copy(id: string, what: CopyWhat): void;
}

export type DetailState =
  | { readonly kind: 'none' }
  | { readonly kind: 'loading'; readonly id: string }
  | { readonly kind: 'missing'; readonly id: string }
  | { readonly kind: 'shown'; readonly detail: EntityDetail };

/** Renders the detail state into `root`, keeping which aspects were expanded. */
export function renderDetail(root: HTMLElement, state: DetailState, events: EntityDetailEvents): void {
  const open = new Set(Array.from(root.querySelectorAll<HTMLDetailsElement>('details[open]'), (d) => d.dataset.aspect ?? ''));
  if (state.kind === 'none') {
    root.replaceChildren(h('p', { class: 'empty' }, 'Select an entity to see its aspects, attributes and relations.'));
    return;
  }
  if (state.kind === 'loading') {
    root.replaceChildren(h('p', { class: 'empty' }, 'Loading…'));
    return;
  }
  if (state.kind === 'missing') {
    root.replaceChildren(h('p', { class: 'empty' }, 'This entity no longer exists (it was merged or forgotten).'));
    return;
  }
  const d = state.detail;
  const s = d.summary;
  const level = healthLevel(s.health);
  const pinButton = h('button', { class: 'button', type: 'button', 'aria-pressed': String(s.pinned), title: s.pinned ? 'Stop always including this entity as focal' : 'Always include this entity as focal, before evidence accumulates' },
    pinIcon(s.pinned), s.pinned ? 'Unpin' : 'Pin');
  pinButton.addEventListener('click', () => events.setPinned(s.id, !s.pinned));
  const treeButton = h('button', { class: 'button secondary', type: 'button', title: 'Reveal in the Knowledge Graph tree' }, 'Show in tree');
  treeButton.addEventListener('click', () => events.openInTree(s.id));
  const copyButton = h('button', { class: 'button secondary', type: 'button', title: 'Copy the entity name' }, 'Copy name');
  copyButton.addEventListener('click', () => events.copy(s.id, 'name'));

  const header = h('header', { class: 'detail-header' },
    h('div', { class: 'title-row' },
      h('span', { class: `dot health-${level}`, title: healthLabel(s.health), role: 'img', 'aria-label': healthLabel(s.health) }),
      h('h2', { id: 'detail-title', tabindex: -1 }, s.name),
      s.pinned ? h('span', { class: 'badge accent' }, 'pinned') : null,
      h('span', { class: 'badge' }, codicon(entityTypeIcon(s.type).codePoint), s.type)),
    h('p', { class: 'meta' },
      `${d.canonicalName} · ${s.mentions} ${s.mentions === 1 ? 'mention' : 'mentions'} · updated ${fmtDate(d.updatedAt)}`,
      s.health ? ` · win rate ${fmtPercent(s.health.winRate)} (${s.health.trend}, ${s.health.comparisonCount} comparisons; ${healthReason(s.health)})` : ''),
    d.description ? h('p', { class: 'description' }, d.description) : null,
    h('div', { class: 'actions' }, pinButton, treeButton, copyButton));

  const aspects = h('section', { 'aria-labelledby': 'aspects-h' },
    h('h3', { id: 'aspects-h' }, `Aspects (${d.aspects.length})`),
    d.aspects.length ? h('div', { class: 'aspects' }, ...d.aspects.map((a, i) => aspectBlock(a, open.size ? open.has(a.id) : i === 0)))
      : h('p', { class: 'empty' }, 'No aspects yet: they appear once memories about this entity are classified.'));

  const unassigned = d.unassigned.length
    ? h('section', { 'aria-labelledby': 'unassigned-h' }, h('h3', { id: 'unassigned-h' }, `Unclassified attributes (${d.unassigned.length})`), attributeList(d.unassigned))
    : null;

  const relations = h('section', { 'aria-labelledby': 'relations-h' },
    h('h3', { id: 'relations-h' }, `Relations (${d.relations.length})`),
    d.relations.length ? h('ul', { class: 'relations' }, ...d.relations.map((r) => relationItem(r, events)))
      : h('p', { class: 'empty' }, 'No relations recorded.'));

  root.replaceChildren(header, aspects, unassigned ?? '', relations);
}

function aspectBlock(a: AspectView, expanded: boolean): HTMLElement {
  const active = a.attributes.filter((t) => t.status === 'active');
  const constraints = active.filter((t) => t.kind === 'constraint').length;
  const summary = h('summary', { 'aria-label': `${a.name}, weight ${fmtWeight(a.weight)}, ${active.length} active attributes` },
    h('span', { class: 'aspect-name' }, a.name),
    weightBar(a.weight),
    h('span', { class: 'weight' }, fmtWeight(a.weight)),
    h('span', { class: 'aspect-counts' }, `${active.length}t`, constraints ? h('span', { class: 'constraint-count' }, ` ${constraints}c`) : ''));
  const body = a.attributes.length ? attributeList(a.attributes) : h('p', { class: 'empty' }, 'No attributes for this aspect.');
  const details = h('details', { class: 'aspect', 'data-aspect': a.id }, summary, body);
  details.open = expanded;
  return details;
}

/** A 0–1 bar; widths go through CSSOM (el.style), which the CSP allows, not a style attribute. */
export function weightBar(value: number, label = 'weight'): HTMLElement {
  const fill = h('span', { class: 'bar-fill' });
  fill.style.width = `${Math.round(Math.max(0, Math.min(1, value)) * 100)}%`;
  return h('span', { class: 'bar', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': 1, 'aria-valuenow': value, 'aria-label': label }, fill);
}

/**
 * An aspect's attributes: current ones first (by importance), each with the date it holds since,
 * its source sentence and what it replaced; superseded and deleted ones folded under "History"
 * (docs/vscode.md, "Current facts").
 */
function attributeList(attributes: readonly AttributeView[]): HTMLElement {
  const current = attributes.filter((t) => t.status === 'active').sort((x, y) => y.importance - x.importance);
  const past = attributes.filter((t) => t.status !== 'active').sort((x, y) => (y.observedAt ?? '').localeCompare(x.observedAt ?? ''));
  const list = h('ul', { class: 'attributes' }, ...current.map(attributeItem));
  if (!past.length) return list;
  const history = h('details', { class: 'history' },
    h('summary', {}, `History (${past.length} older ${past.length === 1 ? 'value' : 'values'})`),
    h('ul', { class: 'attributes' }, ...past.map(attributeItem)));
  return h('div', {}, list, history);
}

function attributeItem(t: AttributeView): HTMLElement {
  const since = t.observedAt ? `${t.status === 'active' ? 'since' : 'from'} ${t.observedAt.slice(0, 10)}` : '';
  return h('li', { class: `attribute status-${t.status}` },
    h('div', { class: 'attr-badges' },
      h('span', { class: `badge${t.kind === 'constraint' ? ' warn' : ''}` }, t.kind),
      t.status !== 'active' ? h('span', { class: 'badge muted' }, t.status) : h('span', { class: 'badge accent' }, 'current'),
      since ? h('span', { class: 'badge muted', title: 'when the claim was made (its memory\'s date)' }, since) : null,
      h('span', { class: 'badge muted', title: 'importance' }, `imp ${fmtPercent(t.importance)}`),
      teamBadge(t.team)),
    h('div', { class: 'attr-content' }, t.content || '(empty)'),
    t.currentnessNote ? h('div', { class: 'note' }, t.currentnessNote) : null,
    t.source ? h('div', { class: 'muted small attr-source', title: t.source }, `source: ${t.source.replace(/\s+/g, ' ')}`) : null);
}

function relationItem(r: RelationView, events: EntityDetailEvents): HTMLElement {
  const link = h('button', { class: 'link', type: 'button', title: `Open ${r.otherName}` }, r.otherName);
  link.addEventListener('click', () => events.openEntity(r.otherId));
  const arrow = r.direction === 'outgoing' ? '→' : '←';
  return h('li', {},
    h('span', { class: 'badge muted', 'aria-label': r.direction }, arrow),
    h('span', { class: 'rel-type' }, r.relationType),
    link,
    h('span', { class: 'muted small' }, `strength ${r.strength.toFixed(2)} · conf ${fmtPercent(r.confidence)} · ${r.mentions}×`));
}

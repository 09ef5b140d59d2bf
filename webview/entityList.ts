/**
 * The virtualised entity list: only the rows in (and just around) the viewport exist in the DOM,
 * each absolutely positioned, so 10,000 entities cost what 50 do. Keyboard: a roving tabindex
 * over the rows (↑/↓, Home/End, PageUp/PageDown), Enter or Space opens, P toggles the pin.
 */
import { codicon, h, pinIcon } from './dom';
import { entityTypeIcon } from './entityTypeIcons';
import { healthLabel, healthLevel, healthReason } from './health';
import { COUNTERS } from './legend';
import type { ListModel } from './listModel';
import { PANEL_CONFIG } from './panelConfig';
import type { EntitySummary } from '../src/shared/knowledgeProtocolTypes';

export interface EntityListEvents {
  open(entity: EntitySummary): void;
  togglePin(entity: EntitySummary): void;
  needPages(offsets: readonly number[]): void;
  /** The scroll position or active row changed (persisted in the view state). */
  moved(scrollTop: number, activeIndex: number): void;
}

const ROW = PANEL_CONFIG.rowHeight;

export class EntityList {
  readonly element: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly rendered = new Map<number, { el: HTMLElement; data: EntitySummary | undefined; selected: boolean }>();
  private active = 0;
  private selectedId: string | null = null;
  private frame = 0;

  constructor(private readonly model: ListModel, private readonly events: EntityListEvents) {
    this.spacer = h('div', { class: 'list-spacer' });
    this.element = h('div', { class: 'list', role: 'listbox', 'aria-label': 'Entities', tabindex: -1 }, this.spacer);
    this.element.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.element.addEventListener('click', (e) => this.onClick(e));
    this.element.addEventListener('focusin', (e) => {
      const index = indexOfRow(e.target);
      if (index !== undefined && index !== this.active) this.setActive(index, false);
    });
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  get activeIndex(): number { return this.active; }

  setSelected(id: string | null): void {
    this.selectedId = id;
    this.schedule();
  }

  /** Restores the scroll position and active row (after a reload). */
  restore(scrollTop: number, activeIndex: number): void {
    this.active = Math.max(0, activeIndex);
    this.renderNow();
    this.element.scrollTop = scrollTop;
    this.renderNow();
  }

  /** Resets to the top (a new search). */
  reset(): void {
    this.active = 0;
    this.element.scrollTop = 0;
    this.clearRows();
    this.schedule();
  }

  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderNow();
    });
  }

  /** Renders the rows in view now; returns how many rows exist in the DOM. */
  renderNow(): number {
    const total = this.model.total;
    if (this.active >= total) this.active = Math.max(0, total - 1);
    this.spacer.style.height = `${total * ROW}px`;
    const top = this.element.scrollTop;
    const height = this.element.clientHeight || ROW * 20;
    const first = Math.max(0, Math.floor(top / ROW) - PANEL_CONFIG.overscanRows);
    const last = Math.min(total, Math.ceil((top + height) / ROW) + PANEL_CONFIG.overscanRows);
    const missing = this.model.takeMissingPages(first, last);
    if (missing.length) this.events.needPages(missing);
    for (const [index, row] of this.rendered) {
      const keep = (index >= first && index < last) || (index === this.active && row.el.contains(document.activeElement));
      if (!keep || index >= total) {
        row.el.remove();
        this.rendered.delete(index);
      }
    }
    for (let i = first; i < last; i++) this.renderRow(i);
    this.events.moved(top, this.active);
    return this.rendered.size;
  }

  private clearRows(): void {
    for (const row of this.rendered.values()) row.el.remove();
    this.rendered.clear();
  }

  private renderRow(index: number): void {
    const data = this.model.get(index);
    const selected = !!data && data.id === this.selectedId;
    const existing = this.rendered.get(index);
    if (existing && existing.data === data && existing.selected === selected) {
      existing.el.tabIndex = index === this.active ? 0 : -1;
      return;
    }
    const el = existing?.el ?? h('div', { role: 'option', class: 'row', id: `entity-row-${index}` });
    el.style.transform = `translateY(${index * ROW}px)`;
    el.tabIndex = index === this.active ? 0 : -1;
    el.dataset.index = String(index);
    el.setAttribute('aria-posinset', String(index + 1));
    el.setAttribute('aria-setsize', String(this.model.total));
    el.setAttribute('aria-selected', String(selected));
    el.classList.toggle('selected', selected);
    el.classList.toggle('placeholder', !data);
    el.replaceChildren(...(data ? rowContent(data) : [h('span', { class: 'name muted' }, 'Loading…')]));
    el.setAttribute('aria-label', data ? rowLabel(data) : 'Loading');
    if (!existing) this.element.append(el);
    this.rendered.set(index, { el, data, selected });
  }

  /** Focuses the active row (back from the detail in a narrow view). */
  focusActive(): void {
    this.renderNow();
    (this.rendered.get(this.active)?.el ?? this.element).focus({ preventScroll: false });
  }

  /** Moves the active row (after a reorder, to follow the same entity); focuses it when the list had focus. */
  follow(index: number): void {
    if (index === this.active) return;
    this.setActive(index, this.element.contains(document.activeElement));
  }

  private setActive(index: number, focus: boolean): void {
    const total = this.model.total;
    if (total === 0) return;
    this.active = Math.min(total - 1, Math.max(0, index));
    const top = this.active * ROW;
    const view = this.element.clientHeight;
    if (top < this.element.scrollTop) this.element.scrollTop = top;
    else if (top + ROW > this.element.scrollTop + view) this.element.scrollTop = top + ROW - view;
    this.renderNow();
    for (const [i, row] of this.rendered) row.el.tabIndex = i === this.active ? 0 : -1;
    if (focus) this.rendered.get(this.active)?.el.focus({ preventScroll: true });
  }

  private onKey(e: KeyboardEvent): void {
    const index = indexOfRow(e.target);
    if (index === undefined) return;
    const page = Math.max(1, Math.floor(this.element.clientHeight / ROW) - 1);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + page, PageUp: index - page, Home: 0, End: this.model.total - 1 };
    const target = moves[e.key];
    if (target !== undefined) {
      e.preventDefault();
      this.setActive(target, true);
      return;
    }
    const data = this.model.get(index);
    if (!data) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.events.open(data);
    } else if (e.key === 'p' || e.key === 'P') {
      e.preventDefault();
      this.events.togglePin(data);
    }
  }

  private onClick(e: MouseEvent): void {
    const index = indexOfRow(e.target);
    if (index === undefined) return;
    const data = this.model.get(index);
    if (!data) return;
    this.setActive(index, true);
    if ((e.target as Element).closest('.pin-toggle')) this.events.togglePin(data);
    else this.events.open(data);
  }
}

function indexOfRow(target: EventTarget | null): number | undefined {
  const row = target instanceof Element ? target.closest<HTMLElement>('.row') : null;
  const index = row?.dataset.index;
  return index === undefined ? undefined : Number(index);
}

/** The dot's tooltip: the label, then why it has its colour (webview/health.ts). */
export function healthTitle(health: EntitySummary['health']): string {
  return health && health.comparisonCount > 0 ? `${healthLabel(health)} (${healthReason(health)})` : healthLabel(health);
}

function rowContent(e: EntitySummary): Node[] {
  const level = healthLevel(e.health);
  const values = [e.aspects, e.attributes, e.constraints, e.relations];
  const counters = COUNTERS.map(([letter, one, many], i) => {
    const v = values[i] ?? 0;
    // Constraints show only when there are some (and in the warning colour).
    if (letter === 'c' && v === 0) return null;
    return h('span', { class: letter === 'c' ? 'count constraint-count' : 'count', title: `${v} ${v === 1 ? one : many}` }, `${v}${letter}`);
  });
  return [
    h('span', { class: `dot health-${level}`, title: healthTitle(e.health) }),
    codicon(entityTypeIcon(e.type).codePoint, e.type),
    h('span', { class: 'name', title: e.name }, e.name),
    h('span', { class: `pin-toggle${e.pinned ? ' on' : ''}`, title: e.pinned ? 'Pinned: always focal. Click or press P to unpin' : 'Pin (P): always include as focal' }, pinIcon(e.pinned)),
    h('span', { class: 'type' }, e.type),
    // Spaces between the counters keep the text readable when copied or read as text ("2a 5t 1r").
    h('span', { class: 'counts' }, ...counters.filter((c) => c !== null).flatMap((c, i) => (i ? [' ', c] : [c]))),
  ];
}

function rowLabel(e: EntitySummary): string {
  const parts = [e.name, e.type];
  if (e.pinned) parts.push('pinned');
  parts.push(`${e.aspects} aspects`, `${e.attributes} attributes`);
  if (e.constraints) parts.push(`${e.constraints} constraints`);
  parts.push(`${e.relations} relations`, healthLabel(e.health));
  return parts.join(', ');
}

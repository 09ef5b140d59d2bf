/** Small DOM helpers: the panel builds its markup with these (textContent only, never innerHTML). */

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | null | undefined | false;

/** Creates an element with attributes (`class`, `aria-*`, `data-*`, …) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A thumbtack glyph (16×16), drawn with currentColor: filled when pinned, outlined otherwise. */
export function pinIcon(filled: boolean): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', filled ? 'icon pin filled' : 'icon pin');
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', 'M5 1.5h6v1.2l-1.2 1.1v3.6l2.2 2.2v1.2H4V9.6l2.2-2.2V3.8L5 2.7Z M7.4 10.8h1.2V15h-1.2Z');
  path.setAttribute('stroke-linejoin', 'round');
  svg.append(path);
  return svg;
}

/** Formats a 0–1 value as a fixed two-decimal weight. */
export function fmtWeight(w: number): string {
  return w.toFixed(2);
}

export function fmtPercent(v: number): string {
  return `${Math.round(v * 100)}%`;
}

/** A short, locale-free date for ISO timestamps ("2026-11-29 15:20"); the raw value otherwise. */
export function fmtDate(iso: string | null): string {
  if (!iso) return '—';
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

/**
 * A codicon glyph (VS Code's icon font, loaded by knowledge.ts when the host provides it). Hidden
 * from screen readers: the text next to it says the same. Without the font the CSS hides it.
 */
export function codicon(codePoint: number, title?: string): HTMLElement {
  return h('span', { class: 'codicon', 'aria-hidden': 'true', ...(title ? { title } : {}) }, String.fromCodePoint(codePoint));
}

import type { Frame } from 'playwright-core';

/**
 * Where a webview's first open went, read from the webview's own frames after it showed (issue #27,
 * docs/knowledgePanelFirstOpen.md): VS Code's pre/index.html (the outer frame) marks its steps with
 * performance.mark (`webview/index.html/scriptStart`, `signalingReady`, `content/started`,
 * `content/workerReady`, `content/innerFrameLoaded`, `content/wroteInnerContent`), the inner
 * document has its navigation and resource entries, and the Knowledge panel's script marks
 * `knowledge/scriptStart` and `knowledge/firstRows`. Every time is in ms after `t0` (epoch ms).
 */
export interface WebviewTimeline {
  /** The outer frame's marks and its own navigation (`outer/responseEnd`), then the inner frame's. */
  readonly steps: Readonly<Record<string, number>>;
  /** The inner document's subresources (our bundle, stylesheet, font), by file name. */
  readonly resources: readonly { readonly name: string; readonly start: number; readonly end: number }[];
}

interface FrameEntries {
  origin: number;
  responseEnd?: number;
  domInteractive?: number;
  loadEnd?: number;
  marks: { name: string; at: number }[];
  resources: { name: string; start: number; end: number }[];
}

// A string, not a function: tsx would compile a function with helpers the page does not have.
const READ_ENTRIES = `(() => {
  const o = performance.timeOrigin;
  const nav = performance.getEntriesByType('navigation')[0];
  const at = (t) => Math.round(o + t);
  return {
    origin: Math.round(o),
    responseEnd: nav ? at(nav.responseEnd) : undefined,
    domInteractive: nav && nav.domInteractive ? at(nav.domInteractive) : undefined,
    loadEnd: nav && nav.loadEventEnd ? at(nav.loadEventEnd) : undefined,
    marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name.replace('webview/index.html/', ''), at: at(m.startTime) })),
    resources: performance.getEntriesByType('resource').map((r) => ({ name: r.name.replace(/[?#].*$/, '').replace(/^.*\\//, ''), start: at(r.startTime), end: at(r.responseEnd) })),
  };
})()`;

async function entries(frame: Frame): Promise<FrameEntries | undefined> {
  return (await frame.evaluate(READ_ENTRIES).catch(() => undefined)) as FrameEntries | undefined;
}

/** The timeline of the webview whose content document is `inner` (its parent is pre/index.html). */
export async function webviewTimeline(inner: Frame, t0: number): Promise<WebviewTimeline> {
  const steps: Record<string, number> = {};
  const outer = inner.parentFrame();
  const o = outer ? await entries(outer) : undefined;
  if (o) {
    steps['outer/navigationStart'] = o.origin - t0;
    if (o.responseEnd !== undefined) steps['outer/responseEnd'] = o.responseEnd - t0;
    for (const m of o.marks) steps[m.name] ??= m.at - t0;
  }
  const i = await entries(inner);
  if (i) {
    steps['inner/navigationStart'] = i.origin - t0;
    if (i.domInteractive !== undefined) steps['inner/domInteractive'] = i.domInteractive - t0;
    if (i.loadEnd !== undefined) steps['inner/loadEnd'] = i.loadEnd - t0;
    for (const m of i.marks) steps[m.name] ??= m.at - t0;
  }
  const resources = (i?.resources ?? []).map((r) => ({ name: r.name, start: r.start - t0, end: r.end - t0 }));
  return { steps, resources };
}

/** One line per step, in time order: "  +1234 ms content/workerReady". */
export function formatTimeline(t: WebviewTimeline): string[] {
  const rows = [
    ...Object.entries(t.steps).map(([name, at]) => ({ name, at })),
    ...t.resources.map((r) => ({ name: `${r.name} (fetched in ${r.end - r.start} ms)`, at: r.end })),
  ].sort((a, b) => a.at - b.at);
  return rows.map((r) => `+${String(r.at).padStart(5)} ms ${r.name}`);
}

/**
 * Entry of the Knowledge panel webview: builds the layout (tabs: Entities, Recall, Overview, Captured),
 * decodes every host message, keeps the list model, and saves the view state for reloads.
 * The entity tab adapts to the width (media/knowledge.css): wide, the list and the detail sit side
 * by side; narrow (a sidebar), the detail replaces the list while open, with Back.
 */
import { renderFocal, renderStats } from './cards';
import { CapturedTab } from './capturedTab';
import { h } from './dom';
import { ReviewPane } from './review';
import { renderLegend } from './legend';
import { renderDetail } from './entityDetail';
import type { DetailState, EntityDetailEvents } from './entityDetail';
import { EntityList } from './entityList';
import { listenForHostMessages } from './hostMessages';
import { ListModel } from './listModel';
import { PANEL_CONFIG } from './panelConfig';
import { renderPlaygroundResults } from './playground';
import type { PlaygroundStatus } from './playground';
import type { FocalResolution, HostMessage, KnowledgeStats, WebviewMessage } from '../src/shared/knowledgeProtocolTypes';
import { restoreViewState } from './viewState';
import type { Tab, ViewState } from './viewState';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

// First-open timeline (issue #27): read by the e2e and bench/firstWebview.mjs (test/e2e/webviewTiming.ts).
performance.mark('knowledge/scriptStart');
const vscode = acquireVsCodeApi();
let state: ViewState = restoreViewState(vscode.getState());
const save = (patch: Partial<ViewState>): void => {
  state = { ...state, ...patch };
  vscode.setState(state);
};
const post = (m: WebviewMessage): void => {
  // A new user action dismisses the last error.
  if (m.type !== 'requestPage' && m.type !== 'ready') alertBox.hidden = true;
  vscode.postMessage(m);
};

const model = new ListModel(PANEL_CONFIG.pageSize);
let stats: KnowledgeStats | undefined;
let focal: FocalResolution | null | undefined;
let detail: DetailState = state.selectedId ? { kind: 'loading', id: state.selectedId } : { kind: 'none' };
let playground: PlaygroundStatus = state.recall ? { kind: 'done', result: state.recall } : { kind: 'idle' };
let recallSeq = 0;
let pageSeq = 0;
let loaded = false;
let sectionSent = false;

// ---- layout -------------------------------------------------------------------------------
const tabs: readonly (readonly [Tab, string])[] = [['entities', 'Entities'], ['recall', 'Recall'], ['overview', 'Overview'], ['captured', 'Captured']];
const tabButtons = tabs.map(([id, label]) => h('button', { role: 'tab', id: `tab-${id}`, 'aria-controls': `panel-${id}`, type: 'button', class: 'tab' }, label));
const tabList = h('div', { role: 'tablist', class: 'tabs', 'aria-label': 'Knowledge panel sections' }, ...tabButtons);

const alertBox = h('div', { class: 'alert', role: 'alert', hidden: true });
const searchInput = h('input', { type: 'search', class: 'input', placeholder: 'Search entities', 'aria-label': 'Search entities by name', spellcheck: 'false' });
const typeSelect = h('select', { class: 'select', 'aria-label': 'Filter by entity type' });
const listMeta = h('span', { class: 'list-meta', 'aria-live': 'polite' });
const legendButton = h('button', { type: 'button', class: 'link legend-toggle', 'aria-expanded': 'false', 'aria-controls': 'entity-legend' }, 'Legend');
const legend = renderLegend();
legend.hidden = true;
const emptyList = h('p', { class: 'empty list-empty', hidden: true });
const detailRoot = h('div', { class: 'detail', 'aria-label': 'Entity detail', role: 'region', tabindex: -1 });
const backButton = h('button', { type: 'button', class: 'link back', title: 'Back to the entity list (Escape)' }, '‹ Back to entities');
const detailPane = h('div', { class: 'detail-pane' }, h('div', { class: 'detail-bar' }, backButton), detailRoot);

const detailEvents: EntityDetailEvents = {
  setPinned: (id, pinned) => post({ type: 'setPinned', id, pinned }),
  openEntity: (id) => select(id, true),
  openInTree: (id) => post({ type: 'openInTree', id }),
  copy: (id, what) => post({ type: 'copy', id, what }),
};

const review = new ReviewPane({
  resolve: (id, choice) => post({ type: 'resolveConflict', id, choice }),
  openEntity: (id) => select(id, true),
});

const list = new EntityList(model, {
  open: (e) => select(e.id, true),
  togglePin: (e) => post({ type: 'setPinned', id: e.id, pinned: !e.pinned }),
  needPages: (offsets) => {
    for (const offset of offsets) post({ type: 'requestPage', requestId: ++pageSeq, offset, limit: PANEL_CONFIG.pageSize });
  },
  moved: (scrollTop, activeIndex) => {
    if (loaded && (scrollTop !== state.scrollTop || activeIndex !== state.activeIndex)) save({ scrollTop, activeIndex });
  },
});

const entitiesPanel = h('section', { role: 'tabpanel', id: 'panel-entities', 'aria-labelledby': 'tab-entities', class: 'panel entities' },
  h('div', { class: 'split' },
    h('div', { class: 'list-wrap' },
      review.element,
      h('div', { class: 'filters' }, searchInput, typeSelect),
      h('div', { class: 'list-head' }, listMeta, legendButton),
      legend,
      list.element, emptyList),
    detailPane));

const recallInput = h('input', { type: 'search', class: 'input', placeholder: 'Ask memory…', 'aria-label': 'Recall query' });
const recallButton = h('button', { type: 'submit', class: 'button' }, 'Recall');
const recallForm = h('form', { class: 'filters', role: 'search' }, recallInput, recallButton);
const recallResults = h('div', { class: 'results-wrap', 'aria-live': 'polite' });
const recallPanel = h('section', { role: 'tabpanel', id: 'panel-recall', 'aria-labelledby': 'tab-recall', class: 'panel' },
  h('p', { class: 'meta' }, 'Recall playground: runs the full recall pipeline without recording a session.'), recallForm, recallResults);

const focalRoot = h('section', { class: 'card', 'aria-labelledby': 'focal-h' });
const statsRoot = h('section', { class: 'card', 'aria-labelledby': 'stats-h' });
const overviewPanel = h('section', { role: 'tabpanel', id: 'panel-overview', 'aria-labelledby': 'tab-overview', class: 'panel overview' }, focalRoot, statsRoot);

const captured = new CapturedTab({ act: (id, action) => post({ type: 'captureAction', id, action }) });

const root = document.getElementById('root') as HTMLElement;
root.replaceChildren(tabList, alertBox, entitiesPanel, recallPanel, overviewPanel, captured.element);

// ---- behaviour ----------------------------------------------------------------------------
function showTab(tab: Tab, focus = false): void {
  if (tab !== state.tab || !sectionSent) post({ type: 'showSection', section: tab });
  sectionSent = true;
  save({ tab });
  tabs.forEach(([id], i) => {
    const button = tabButtons[i] as HTMLButtonElement;
    const on = id === tab;
    button.setAttribute('aria-selected', String(on));
    button.tabIndex = on ? 0 : -1;
    if (on && focus) button.focus();
  });
  entitiesPanel.hidden = tab !== 'entities';
  recallPanel.hidden = tab !== 'recall';
  overviewPanel.hidden = tab !== 'overview';
  captured.element.hidden = tab !== 'captured';
  if (tab === 'entities') list.schedule();
}

tabList.addEventListener('click', (e) => {
  const i = tabButtons.indexOf((e.target as Element).closest('button') as HTMLButtonElement);
  if (i >= 0) showTab((tabs[i] as readonly [Tab, string])[0]);
});
tabList.addEventListener('keydown', (e) => {
  const i = tabs.findIndex(([id]) => id === state.tab);
  const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : undefined;
  if (next === undefined) return;
  e.preventDefault();
  showTab((tabs[(next + tabs.length) % tabs.length] as readonly [Tab, string])[0], true);
});

legendButton.addEventListener('click', () => {
  legend.hidden = !legend.hidden;
  legendButton.setAttribute('aria-expanded', String(!legend.hidden));
  list.schedule();
});

/** Narrow view: the open detail replaces the list (CSS hides the other pane). */
function setDetailOpen(open: boolean): void {
  entitiesPanel.classList.toggle('detail-open', open);
  if (open !== state.detailOpen) save({ detailOpen: open });
  if (!open) list.schedule();
}
function back(): void {
  setDetailOpen(false);
  requestAnimationFrame(() => list.focusActive());
}
backButton.addEventListener('click', back);
detailPane.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && entitiesPanel.classList.contains('detail-open')) {
    e.preventDefault();
    back();
  }
});

let pendingDetailFocus = false;
function select(id: string, moveFocus: boolean): void {
  if (state.tab !== 'entities') showTab('entities');
  setDetailOpen(true);
  save({ selectedId: id });
  detail = { kind: 'loading', id };
  list.setSelected(id);
  renderDetail(detailRoot, detail, detailEvents);
  post({ type: 'selectEntity', id });
  if (moveFocus) pendingDetailFocus = true;
}

let searchTimer: ReturnType<typeof setTimeout> | undefined;
function sendSearch(): void {
  model.clear();
  list.reset();
  post({ type: 'search', query: state.query, entityType: state.entityType });
}
searchInput.addEventListener('input', () => {
  save({ query: searchInput.value.slice(0, 200), scrollTop: 0, activeIndex: 0 });
  clearTimeout(searchTimer);
  searchTimer = setTimeout(sendSearch, PANEL_CONFIG.searchDebounceMs);
});
searchInput.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowDown' && model.total > 0) {
    e.preventDefault();
    (list.element.querySelector<HTMLElement>('.row[tabindex="0"]') ?? list.element).focus();
  }
});
typeSelect.addEventListener('change', () => {
  save({ entityType: typeSelect.value || null, scrollTop: 0, activeIndex: 0 });
  sendSearch();
});

recallForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const query = recallInput.value.trim();
  save({ recallQuery: recallInput.value });
  if (!query) return;
  playground = { kind: 'running', query };
  renderPlaygroundResults(recallResults, playground);
  post({ type: 'recall', requestId: ++recallSeq, query, limit: PANEL_CONFIG.recallLimit });
});

function renderTypes(types: readonly string[]): void {
  const wanted = state.entityType;
  const all = wanted && !types.includes(wanted) ? [...types, wanted] : types;
  const current = Array.from(typeSelect.options, (o) => o.value);
  if (current.length === all.length + 1 && current.join('\n') === ['', ...all].join('\n')) return;
  typeSelect.replaceChildren(h('option', { value: '' }, 'All types'), ...all.map((t) => h('option', { value: t }, t)));
  typeSelect.value = wanted ?? '';
}

function renderListMeta(): void {
  const total = model.total;
  const filtered = state.query || state.entityType;
  listMeta.textContent = `${total.toLocaleString('en-US')} ${total === 1 ? 'entity' : 'entities'}${filtered ? ' match' : ''}`;
  emptyList.hidden = total > 0;
  list.element.hidden = total === 0;
  // With nothing to list, the empty state takes its natural height and the detail placeholder goes.
  entitiesPanel.classList.toggle('is-empty', total === 0);
  if (total === 0) {
    emptyList.textContent = filtered
      ? 'No entities match. Clear the search or pick another type.'
      : 'No entities yet. They are extracted from memories: ask @memory in chat or let an agent use the memory tools.';
  }
}

function showError(message: string): void {
  alertBox.textContent = message;
  alertBox.hidden = false;
}

function onMessage(m: HostMessage): void {
  switch (m.type) {
    case 'page': {
      if (m.query !== state.query || m.entityType !== state.entityType) return; // an older search
      const activeId = model.get(list.activeIndex)?.id;
      model.applyPage(m.offset, m.total, m.entities, m.reset);
      model.types = m.types;
      renderTypes(m.types);
      renderListMeta();
      if (!loaded) {
        loaded = true;
        list.restore(state.scrollTop, state.activeIndex);
        performance.mark('knowledge/firstRows');
      } else {
        // A pin or another change reordered the list: keep the active row on the same entity.
        const moved = activeId === undefined ? -1 : model.indexOf(activeId);
        if (moved >= 0) list.follow(moved);
        list.schedule();
      }
      return;
    }
    case 'delta':
      model.applyDelta(m.total, m.upserts, m.removed);
      renderListMeta();
      list.schedule();
      if (detail.kind === 'shown' && m.removed.includes(detail.detail.summary.id)) {
        detail = { kind: 'missing', id: detail.detail.summary.id };
        renderDetail(detailRoot, detail, detailEvents);
      }
      return;
    case 'detail':
      if (m.id !== state.selectedId) return;
      detail = m.detail ? { kind: 'shown', detail: m.detail } : { kind: 'missing', id: m.id };
      renderDetail(detailRoot, detail, detailEvents);
      if (pendingDetailFocus) {
        pendingDetailFocus = false;
        detailRoot.querySelector<HTMLElement>('#detail-title')?.focus({ preventScroll: false });
      }
      return;
    case 'stats':
      stats = m.stats;
      renderStats(statsRoot, stats);
      return;
    case 'focal':
      focal = m.focal;
      renderFocal(focalRoot, focal, (id) => select(id, true));
      return;
    case 'recallResult': {
      if (m.requestId !== recallSeq) return; // superseded by a newer run
      const result = { query: m.query, tookMs: m.tookMs, results: m.results };
      playground = { kind: 'done', result };
      save({ recall: result });
      renderPlaygroundResults(recallResults, playground);
      return;
    }
    case 'select':
      select(m.id, false);
      return;
    case 'captures':
      captured.show(m.captures, m.capturedToday, m.limit);
      return;
    case 'captureDone':
      captured.done(m.message);
      return;
    case 'conflicts':
      review.setConflicts(m.conflicts, m.notice);
      return;
    case 'mergedAway':
      review.addMergedAway(m.items);
      return;
    case 'explainRecall': {
      // "why?" from a @memory answer: that recall, on the Recall tab, with the memory's explanation open.
      recallSeq++; // a playground run still pending is older than this
      const result = { query: m.query, tookMs: m.tookMs, results: m.results };
      recallInput.value = m.query;
      playground = { kind: 'done', result };
      save({ recall: result, recallQuery: m.query });
      showTab('recall');
      renderPlaygroundResults(recallResults, playground, m.focusId);
      return;
    }
    case 'error':
      if (m.scope === 'captures') {
        captured.error(m.message);
      } else if (m.scope === 'recall') {
        playground = { kind: 'error', message: m.message };
        renderPlaygroundResults(recallResults, playground);
      } else if (m.scope === 'detail' && detail.kind === 'loading') {
        detail = { kind: 'none' };
        renderDetail(detailRoot, detail, detailEvents);
        showError(m.message);
      } else {
        showError(m.message);
      }
      return;
  }
}

/**
 * Loads VS Code's codicon font from the URI the host put on <body> (entity type icons); until it
 * loads (or when there is none) the CSS keeps the glyphs hidden, so no empty boxes show.
 */
function loadCodicons(): void {
  const url = document.body.dataset.codiconFont;
  if (!url || typeof FontFace === 'undefined') return;
  new FontFace('codicon', `url("${url}")`).load().then((face) => {
    document.fonts.add(face);
    document.body.classList.add('codicons');
  }, (err: unknown) => console.warn(`Knowledge panel: codicon font not loaded (${String(err)})`));
}

// ---- start --------------------------------------------------------------------------------
// The font after the document's load event: VS Code's webview host holds the host's messages (the
// first page) until that event, which a font fetch started earlier would delay
// (docs/knowledgePanelFirstOpen.md); the glyphs stay hidden until the font is there.
if (document.readyState === 'complete') loadCodicons();
else window.addEventListener('load', loadCodicons, { once: true });
entitiesPanel.classList.toggle('detail-open', state.detailOpen && state.selectedId !== null);
searchInput.value = state.query;
recallInput.value = state.recallQuery;
renderTypes([]);
renderListMeta();
listMeta.textContent = 'Loading…';
renderDetail(detailRoot, detail, detailEvents);
renderStats(statsRoot, undefined);
renderFocal(focalRoot, undefined, (id) => select(id, true));
renderPlaygroundResults(recallResults, playground);
listenForHostMessages(onMessage); // after the initial render: a first page that came early replaces its "Loading…"
post({ type: 'ready' });
showTab(state.tab);
list.setSelected(state.selectedId);
post({ type: 'search', query: state.query, entityType: state.entityType });
if (state.selectedId) post({ type: 'selectEntity', id: state.selectedId });

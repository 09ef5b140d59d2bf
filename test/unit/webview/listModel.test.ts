import { strict as assert } from 'node:assert';
import { ListModel } from '../../../webview/listModel';
import { diffWindow } from '../../../src/extension/knowledge/listDiff';
import { INITIAL_VIEW_STATE, restoreViewState } from '../../../webview/viewState';
import { knowledgeHtml } from '../../../src/extension/knowledge/knowledgeHtml';
import { entity, recallResult } from './fixtures';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => entity(from + i));

describe('Knowledge panel list model (webview)', () => {
  it('keeps pages sparse and asks only for missing, unrequested pages', () => {
    const m = new ListModel(10);
    m.applyPage(0, 35, range(0, 10), true);
    assert.deepEqual(m.takeMissingPages(0, 25), [10, 20]);
    assert.deepEqual(m.takeMissingPages(0, 25), [], 'already requested');
    m.applyPage(10, 35, range(10, 20), false);
    assert.equal(m.get(15)?.id, 'e15');
    assert.equal(m.get(25), undefined);
    assert.deepEqual(m.takeMissingPages(30, 100), [30], 'clipped to the total');
  });

  it('forgets other pages on a reset or a changed total', () => {
    const m = new ListModel(10);
    m.applyPage(0, 30, range(0, 10), true);
    m.applyPage(10, 30, range(10, 20), false);
    m.applyPage(0, 31, range(0, 10), false);
    assert.equal(m.get(12), undefined);
    assert.equal(m.total, 31);
  });

  it('applies a delta by id and shifts later rows up on removal', () => {
    const m = new ListModel(10);
    m.applyPage(0, 4, range(0, 4), true);
    m.applyDelta(3, [entity(3, { pinned: true })], ['e1']);
    assert.deepEqual([0, 1, 2].map((i) => m.get(i)?.id), ['e0', 'e2', 'e3']);
    assert.equal(m.get(2)?.pinned, true);
    assert.equal(m.total, 3);
    assert.equal(m.indexOf('e3'), 2);
  });
});

describe('Knowledge panel list diff (host)', () => {
  const rows = range(0, 5);

  it('is "same" when nothing changed', () => {
    assert.deepEqual(diffWindow(rows, range(0, 5), 5, 5, true), { kind: 'same' });
  });

  it('is a delta of the changed rows when the order holds', () => {
    const after = range(0, 5);
    after[2] = entity(2, { health: null });
    const d = diffWindow(rows, after, 5, 5, true);
    assert.equal(d.kind, 'delta');
    assert.deepEqual(d.kind === 'delta' && d.upserts.map((e) => e.id), ['e2']);
  });

  it('is a reset when the order changed', () => {
    const after = [rows[1]!, rows[0]!, ...rows.slice(2)];
    assert.deepEqual(diffWindow(rows, after, 5, 5, true), { kind: 'reset' });
  });

  it('is a removal delta only when the window starts at row 0', () => {
    const after = [rows[0]!, ...rows.slice(2)];
    assert.deepEqual(diffWindow(rows, after, 5, 4, true), { kind: 'delta', upserts: [], removed: ['e1'] });
    assert.deepEqual(diffWindow(rows, after, 5, 4, false), { kind: 'reset' });
  });

  it('is a reset when rows slid in from outside the window', () => {
    const after = [rows[0]!, ...rows.slice(2), entity(9)];
    assert.deepEqual(diffWindow(rows, after, 9, 8, true), { kind: 'reset' });
  });
});

describe('Knowledge panel view state', () => {
  it('restores a well-formed saved state', () => {
    const saved = { ...INITIAL_VIEW_STATE, tab: 'recall', query: 'sql', selectedId: 'e1', scrollTop: 220, activeIndex: 10, recall: { query: 'q', tookMs: 3, results: [recallResult()] } };
    assert.deepEqual(restoreViewState(saved), saved);
  });

  it('falls back to the initial state for a malformed or foreign state', () => {
    assert.deepEqual(restoreViewState(undefined), INITIAL_VIEW_STATE);
    assert.deepEqual(restoreViewState({ summary: { memories: 1 } }), INITIAL_VIEW_STATE);
    assert.deepEqual(restoreViewState({ ...INITIAL_VIEW_STATE, tab: 'settings' }), INITIAL_VIEW_STATE);
  });
});

describe('Knowledge panel HTML shell', () => {
  it('allows only local styles and nonce scripts, and nothing remote', () => {
    const html = knowledgeHtml({ cspSource: 'vscode-webview://x', scriptUri: 'vscode-webview://x/dist/webview/knowledge.js', styleUri: 'vscode-webview://x/media/knowledge.css' }, 'abc123');
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abc123'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.match(html, /<script nonce="abc123" src="vscode-webview:\/\/x\/dist\/webview\/knowledge.js">/);
    // The inline script that keeps host messages arriving before the bundle runs (the first page is
    // sent while the webview loads: docs/knowledgePanelFirstOpen.md) carries the nonce and comes first.
    const early = html.indexOf('<script nonce="abc123">window.__knowledgeEarly=[]');
    assert.ok(early > 0 && early < html.indexOf('src="vscode-webview://x/dist/webview/knowledge.js"'), 'the early-message script precedes the bundle');
    assert.equal((html.match(/<script(?![^>]*nonce="abc123")/g) ?? []).length, 0, 'every script carries the nonce');
    assert.doesNotMatch(html, /https?:\/\//);
    assert.match(html, /<body>/, 'no codicon font attribute without a font');
    // VS Code's codicon font (entity type icons) comes from the webview's own origin, named on <body>.
    const withFont = knowledgeHtml({ cspSource: 'vscode-webview://x', scriptUri: 's.js', styleUri: 's.css', codiconFontUri: 'vscode-webview://x/out/media/codicon.ttf?"q"' }, 'n');
    assert.match(withFont, /<body data-codicon-font="vscode-webview:\/\/x\/out\/media\/codicon\.ttf\?&quot;q&quot;">/);
    assert.match(/Content-Security-Policy" content="([^"]+)"/.exec(withFont)?.[1] ?? '', /font-src vscode-webview:\/\/x(;|$)/);
  });
});

/**
 * The HTML of a generated document (status, maintenance report) shown in its own webview tab
 * (documentPanels.ts): a strict CSP (no remote anything, one nonce'd inline script, styles only
 * from the extension), the rendered body, and the document itself as the webview's saved state,
 * so VS Code can restore the tab after a reload (the serializer reads it back). vscode-free.
 */

export type DocumentKind = 'status' | 'report';

/** What a document tab shows and what it saves for a reload. */
export interface DocumentState {
  readonly kind: DocumentKind;
  /** The tab title ("Memory Status", "Maintenance Report, 2026-12-02 06:40 UTC"). */
  readonly title: string;
  /** The document as Markdown (rendered by VS Code's Markdown engine when shown). */
  readonly markdown: string;
}

/** Longest document kept in the saved state (a report is a few KB). */
export const DOCUMENT_STATE_MAX_CHARS = 1_000_000;

export interface DocumentHtmlParts {
  readonly cspSource: string;
  /** Webview URI (as a string) of media/document.css. */
  readonly styleUri: string;
  /** The rendered body: VS Code's Markdown engine output, or escapedPre() when it is missing. */
  readonly bodyHtml: string;
  readonly state: DocumentState;
  readonly nonce: string;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The Markdown as preformatted text (where VS Code's Markdown extension is missing). */
export function escapedPre(markdown: string): string {
  return `<pre class="plain">${escapeHtml(markdown)}</pre>`;
}

/** JSON safe inside a <script> element (no "</script>", no "<!--"). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The saved state when it is a well-formed document, otherwise undefined (never trusted blindly). */
export function decodeDocumentState(saved: unknown): DocumentState | undefined {
  if (typeof saved !== 'object' || saved === null) return undefined;
  const s = saved as Record<string, unknown>;
  if (s.kind !== 'status' && s.kind !== 'report') return undefined;
  if (typeof s.title !== 'string' || !s.title.trim() || s.title.length > 200) return undefined;
  if (typeof s.markdown !== 'string' || s.markdown.length > DOCUMENT_STATE_MAX_CHARS) return undefined;
  return { kind: s.kind, title: s.title, markdown: s.markdown };
}

export function documentHtml(parts: DocumentHtmlParts): string {
  const csp = [
    "default-src 'none'",
    `style-src ${parts.cspSource}`,
    `img-src ${parts.cspSource} data:`,
    `script-src 'nonce-${parts.nonce}'`,
  ].join('; ');
  const state = { kind: parts.state.kind, title: parts.state.title, markdown: parts.state.markdown.slice(0, DOCUMENT_STATE_MAX_CHARS) };
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(parts.styleUri)}">
<title>${escapeHtml(parts.state.title)}</title>
</head>
<body>
<main class="document">${parts.bodyHtml}</main>
<script type="application/json" id="document-state">${scriptJson(state)}</script>
<script nonce="${escapeHtml(parts.nonce)}">
(function () {
  const api = acquireVsCodeApi();
  const el = document.getElementById('document-state');
  if (el) api.setState(JSON.parse(el.textContent || 'null'));
})();
</script>
</body>
</html>`;
}

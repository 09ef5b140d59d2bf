/**
 * The Knowledge panel's HTML shell: a strict CSP (no remote anything, scripts only with the
 * per-load nonce, styles only from the extension), the local stylesheet and the local bundle.
 * A one-line inline script (same nonce) keeps the host messages that arrive before the bundle has
 * run — the first page is sent while the webview still loads (docs/knowledgePanelFirstOpen.md) —
 * for the bundle to take over (webview/hostMessages.ts).
 */
import { randomBytes } from 'node:crypto';

export interface KnowledgeHtmlParts {
  /** webview.cspSource */
  readonly cspSource: string;
  /** Webview URIs (as strings) of dist/webview/knowledge.js and media/knowledge.css. */
  readonly scriptUri: string;
  readonly styleUri: string;
  /** Webview URI of VS Code's own codicon font, when the host found it (entity type icons). */
  readonly codiconFontUri?: string;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function knowledgeHtml(parts: KnowledgeHtmlParts, nonce: string = randomBytes(16).toString('base64')): string {
  const csp = [
    "default-src 'none'",
    `style-src ${parts.cspSource}`,
    `img-src ${parts.cspSource} data:`,
    `font-src ${parts.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<script nonce="${escapeAttr(nonce)}">window.__knowledgeEarly=[];window.__knowledgeEarlyListener=function(e){window.__knowledgeEarly.push(e.data)};window.addEventListener('message',window.__knowledgeEarlyListener);</script>
<link rel="stylesheet" href="${escapeAttr(parts.styleUri)}">
<title>Knowledge</title>
</head>
<body${parts.codiconFontUri ? ` data-codicon-font="${escapeAttr(parts.codiconFontUri)}"` : ''}>
<main id="root"></main>
<script nonce="${escapeAttr(nonce)}" src="${escapeAttr(parts.scriptUri)}"></script>
</body>
</html>`;
}

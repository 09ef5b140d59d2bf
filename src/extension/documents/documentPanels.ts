/**
 * Generated documents (Show Status, the maintenance report) in webview tabs of their own, with a
 * meaningful title ("Memory Status", "Maintenance Report, 2026-12-02 06:40 UTC") instead of a
 * Markdown preview of a virtual file ("Preview 1.md"), restored after a window reload by a
 * serializer: a report from the document saved in the webview state, the status recomputed
 * (issue #27; docs/vscode.md, "Documents"). Nothing is a file, so nothing is dirty, saved or
 * attached to chat as context. The Markdown is rendered by VS Code's own Markdown engine
 * (`markdown.api.render` of the built-in Markdown extension), under a CSP that runs no script
 * but our nonce'd one; without that extension the text shows preformatted.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from '../../core/logger';
import { userMessage } from '../../core/errors';
import { decodeDocumentState, documentHtml, escapedPre } from './documentHtml';
import type { DocumentState } from './documentHtml';

export const DOCUMENT_PANEL_TYPE = 'agentMemory.document';
export const STATUS_TITLE = 'Memory Status';

/** Commands a document may link to (a report's actions); nothing else runs from a document. */
function documentCommands(extension: vscode.Extension<unknown> | undefined): string[] {
  const contributed = (extension?.packageJSON as { contributes?: { commands?: { command?: unknown }[] } } | undefined)?.contributes?.commands ?? [];
  return contributed.map((c) => c.command).filter((c): c is string => typeof c === 'string' && c.startsWith('agentMemory.'));
}

export class DocumentPanels implements vscode.Disposable {
  /** Open document tabs by title: showing a document again updates and reveals its tab. */
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private statusSource: (() => Promise<string>) | undefined;
  /** Parts of an open document computed afresh whenever it renders (a report's review sections), by title. */
  private readonly liveParts = new Map<string, { doc: DocumentState; live: () => Promise<string> }>();

  constructor(private readonly extensionUri: vscode.Uri, private readonly logger: Logger, private readonly commands: readonly string[] = []) {}

  /** How the status document is computed (when shown and when restored after a reload). */
  setStatusSource(compute: () => Promise<string>): void {
    this.statusSource = compute;
  }

  /** Shows the status, computed now. */
  async showStatus(): Promise<void> {
    const markdown = this.statusSource ? await this.statusSource() : 'Run Memory: Show Status to see the status.\n';
    await this.show({ kind: 'status', title: STATUS_TITLE, markdown });
  }

  /** Opens (or updates and reveals) the tab of a document; `live` is appended, computed now and on each refresh. */
  async show(doc: DocumentState, live?: () => Promise<string>): Promise<void> {
    let panel = this.panels.get(doc.title);
    if (panel) panel.reveal(undefined, false);
    else {
      panel = vscode.window.createWebviewPanel(DOCUMENT_PANEL_TYPE, doc.title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, this.options());
      this.adopt(panel, doc.title);
    }
    if (live) this.liveParts.set(doc.title, { doc, live });
    else this.liveParts.delete(doc.title);
    await this.render(panel, await this.withLive(doc, live));
  }

  /** Re-renders every open document with a live part. */
  async refreshLive(): Promise<void> {
    for (const [title, { doc, live }] of [...this.liveParts]) {
      const panel = this.panels.get(title);
      if (!panel) { this.liveParts.delete(title); continue; }
      await this.render(panel, await this.withLive(doc, live));
    }
  }

  /**
   * The document with its live part appended. The saved state holds the whole text, so a tab
   * restored after a reload shows the part as it last was (its links still act, and say when
   * something was already answered).
   */
  private async withLive(doc: DocumentState, live: (() => Promise<string>) | undefined): Promise<DocumentState> {
    if (!live) return doc;
    try {
      return { ...doc, markdown: `${doc.markdown}\n${await live()}\n` };
    } catch (e) {
      this.logger.warn(`${doc.title}: ${userMessage(e)}`);
      return doc;
    }
  }

  /** Takes over a document tab VS Code restored after a reload. */
  async restore(panel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    const doc = decodeDocumentState(saved);
    panel.webview.options = this.options();
    if (!doc) {
      // A tab saved by an older version, or a state that does not decode: say so, do not fail.
      await this.render(panel, { kind: 'report', title: panel.title || 'Agent Memory document', markdown: 'This document could not be restored after the reload. Run its command again (Memory: Show Status, Memory: Run Maintenance) to see it.\n' });
      this.adopt(panel, panel.title);
      return;
    }
    this.adopt(panel, doc.title);
    let markdown = doc.markdown;
    if (doc.kind === 'status' && this.statusSource) {
      try {
        markdown = await this.statusSource();
      } catch (e) {
        this.logger.warn(`restoring the status document: ${userMessage(e)}`);
      }
    }
    await this.render(panel, { ...doc, markdown });
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.dispose();
    this.panels.clear();
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return { enableScripts: true, enableFindWidget: true, enableCommandUris: [...this.commands], localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media')] };
  }

  private adopt(panel: vscode.WebviewPanel, title: string): void {
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'memory.svg');
    this.panels.set(title, panel);
    panel.onDidDispose(() => { if (this.panels.get(title) === panel) { this.panels.delete(title); this.liveParts.delete(title); } });
  }

  private async render(panel: vscode.WebviewPanel, doc: DocumentState): Promise<void> {
    panel.title = doc.title;
    panel.webview.html = documentHtml({
      cspSource: panel.webview.cspSource,
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'document.css')).toString(),
      bodyHtml: await this.renderMarkdown(doc.markdown),
      state: doc,
      nonce: randomBytes(16).toString('base64'),
    });
  }

  private async renderMarkdown(markdown: string): Promise<string> {
    try {
      const html = await vscode.commands.executeCommand<unknown>('markdown.api.render', markdown);
      if (typeof html === 'string') return html;
    } catch (e) {
      this.logger.debug(`markdown.api.render unavailable (${userMessage(e)}); showing the document as text`);
    }
    return escapedPre(markdown);
  }
}

/** Registers the document tabs' serializer; activation event onWebviewPanel:agentMemory.document. */
export function registerDocumentPanels(context: vscode.ExtensionContext, logger: Logger): DocumentPanels {
  const panels = new DocumentPanels(context.extensionUri, logger, documentCommands(context.extension));
  context.subscriptions.push(
    panels,
    vscode.window.registerWebviewPanelSerializer(DOCUMENT_PANEL_TYPE, {
      deserializeWebviewPanel: (panel, state) => panels.restore(panel, state),
    }),
  );
  return panels;
}

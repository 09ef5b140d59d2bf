import * as vscode from 'vscode';
import type { Services } from './services';
import { parseWebviewMessage } from '../../webview/protocol';
import type { HostMessage } from '../../webview/protocol';
import { randomBytes } from 'node:crypto';

export const KNOWLEDGE_VIEW_ID = 'agentMemory.knowledge';

export function knowledgeHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'knowledge.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'knowledge.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Knowledge</title>
</head>
<body>
<main id="root" aria-live="polite"></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

class KnowledgeViewProvider implements vscode.WebviewViewProvider {
  constructor(private readonly services: Services) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const { extensionUri } = this.services;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
    view.webview.html = knowledgeHtml(view.webview, extensionUri);
    view.webview.onDidReceiveMessage((raw: unknown) => {
      const message = parseWebviewMessage(raw);
      if (!message) {
        this.services.logger.warn('Knowledge panel sent a malformed message; ignored.');
        return;
      }
      if (message.type === 'ready') {
        const reply: HostMessage = { type: 'summary', summary: { memories: 0, entities: 0 } };
        void view.webview.postMessage(reply);
      }
    });
  }
}

export function registerKnowledgeView(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(KNOWLEDGE_VIEW_ID, new KnowledgeViewProvider(services), { webviewOptions: { retainContextWhenHidden: false } }),
  );
}

import { parseHostMessage } from './protocol';
import type { KnowledgeSummary, WebviewMessage } from './protocol';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root') as HTMLElement;

function render(summary: KnowledgeSummary | undefined): void {
  root.replaceChildren();
  const heading = document.createElement('h2');
  heading.textContent = 'Knowledge';
  root.append(heading);
  const body = document.createElement('p');
  body.className = 'empty';
  if (!summary) {
    body.textContent = 'Loading…';
  } else if (summary.entities === 0) {
    body.textContent = summary.memories === 0
      ? 'Nothing remembered yet. Ask @memory in chat or let an agent call the memory tools; entities appear here as they are extracted.'
      : `${summary.memories} memories, no entities extracted yet.`;
  } else {
    body.textContent = `${summary.memories} memories, ${summary.entities} entities.`;
  }
  root.append(body);
}

window.addEventListener('message', (event: MessageEvent) => {
  const message = parseHostMessage(event.data);
  if (!message) return;
  if (message.type === 'summary') {
    vscode.setState({ summary: message.summary });
    render(message.summary);
  }
});

const saved = vscode.getState() as { summary?: KnowledgeSummary } | undefined;
render(saved?.summary);
vscode.postMessage({ type: 'ready' });

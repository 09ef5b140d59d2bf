/**
 * The Knowledge webview's one way in for host messages: each is decoded (a malformed one is logged
 * and dropped), and the messages the HTML shell's inline script kept before this bundle ran (the
 * first page the host sends while the webview loads: src/extension/knowledge/knowledgeHtml.ts,
 * docs/knowledgePanelFirstOpen.md) are taken over. Our listener goes on first, then the shell's
 * comes off and its messages are handled, oldest first; anything still queued reaches our listener
 * after them.
 */
import { decodeHostMessage } from '../src/shared/knowledgeProtocol';
import type { HostMessage } from '../src/shared/knowledgeProtocolTypes';

interface EarlyMessages { __knowledgeEarly?: unknown[]; __knowledgeEarlyListener?: (e: MessageEvent) => void }

export function listenForHostMessages(onMessage: (m: HostMessage) => void): void {
  const receive = (data: unknown): void => {
    const decoded = decodeHostMessage(data);
    if (!decoded.ok) {
      console.warn(`Knowledge panel: ignored a malformed host message (${decoded.error})`);
      return;
    }
    onMessage(decoded.value);
  };
  const early = window as unknown as EarlyMessages;
  window.addEventListener('message', (event: MessageEvent) => receive(event.data));
  if (early.__knowledgeEarlyListener) window.removeEventListener('message', early.__knowledgeEarlyListener);
  for (const data of early.__knowledgeEarly?.splice(0) ?? []) receive(data);
}

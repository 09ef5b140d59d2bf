/**
 * The one message protocol between the extension host and the Knowledge panel.
 * Imported by both sides; every incoming message is validated before use.
 */

export interface KnowledgeSummary {
  readonly memories: number;
  readonly entities: number;
}

/** Host → webview. */
export type HostMessage =
  | { readonly type: 'summary'; readonly summary: KnowledgeSummary };

/** Webview → host. */
export type WebviewMessage =
  | { readonly type: 'ready' };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

/** Returns the message when it is a well-formed WebviewMessage, otherwise undefined. */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw.type) {
    case 'ready': return { type: 'ready' };
    default: return undefined;
  }
}

/** Returns the message when it is a well-formed HostMessage, otherwise undefined. */
export function parseHostMessage(raw: unknown): HostMessage | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw.type) {
    case 'summary': {
      const s = raw.summary;
      if (!isRecord(s) || !isCount(s.memories) || !isCount(s.entities)) return undefined;
      return { type: 'summary', summary: { memories: s.memories, entities: s.entities } };
    }
    default: return undefined;
  }
}

/**
 * Texts of the language model tools' confirmations, kept free of `vscode` so they are unit-tested.
 * What a model asks to store is untrusted text: it is shown whole and literally (a fenced code
 * block, which Markdown never interprets and the chat view scrolls), so a link, an image or an
 * HTML comment in it cannot render, hide the rest, or fake the dialog (docs/vscode.md).
 */
import { DEFAULT_REDACTION_CONFIG } from '../../core/config/redactionConfig';
import { redactSecrets } from '../../core/memory/redaction';

/** Markdown's special characters, backslash-escaped, so the text renders as typed. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/** A fence longer than any run of backticks in the text (CommonMark: the block cannot be closed early). */
export function codeFence(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The "Remember this?" message: the whole memory text, literally, with its length. */
export function rememberConfirmationMarkdown(content: string, type?: string): string {
  const fence = codeFence(content);
  const kind = type ? ` as a ${escapeMarkdown(type)}` : '';
  return `Agent Memory will store this memory${kind} (${content.length} characters):\n\n${fence}text\n${content}\n${fence}\n`;
}

/** The pin/unpin message, with the entity name escaped. */
export function pinConfirmationMarkdown(verb: 'Pin' | 'Unpin', entity: string): string {
  return `${verb} "${escapeMarkdown(entity)}" in Agent Memory (pinned entities are always focal in recall).`;
}

/** A writing tool's confirmation dialog: title and Markdown body (untrusted text inside). */
export interface ToolConfirmation {
  readonly title: string;
  readonly markdown: string;
}

/**
 * What memory_remember asks before it writes: the text as it will be stored (redacted), or
 * undefined when agentMemory.tools.confirmWrites is off (the tool then writes without asking).
 */
export function rememberConfirmation(confirmWrites: boolean, input: { readonly content?: unknown; readonly type?: unknown }): ToolConfirmation | undefined {
  if (!confirmWrites) return undefined;
  const stored = redactSecrets(String(input.content ?? '').trim(), DEFAULT_REDACTION_CONFIG).text;
  return { title: 'Remember this?', markdown: rememberConfirmationMarkdown(stored, typeof input.type === 'string' ? input.type : undefined) };
}

/** What memory_pin asks before it pins or unpins, or undefined when agentMemory.tools.confirmWrites is off. */
export function pinConfirmation(confirmWrites: boolean, input: { readonly entity?: unknown; readonly pinned?: unknown }): ToolConfirmation | undefined {
  if (!confirmWrites) return undefined;
  const verb = input.pinned === false ? 'Unpin' : 'Pin';
  return { title: `${verb} an entity?`, markdown: pinConfirmationMarkdown(verb, String(input.entity ?? '')) };
}

/**
 * Command links in @memory answers (vscode-free). VS Code runs a `command:` link of a chat answer
 * only when its markdown is trusted for that command (MarkdownString.isTrusted.enabledCommands),
 * so every command a link names must be in CHAT_LINK_COMMANDS: a link to any other command renders
 * and does nothing when clicked (the "Show all" follow-up did, issue #27).
 */

/** The chat view's own "open with a query" command: the "Show all" follow-up asks @memory again. */
const CHAT_OPEN_COMMAND = 'workbench.action.chat.open';

/** Command ids a @memory answer may link to (trusted markdown, chatOutput.ts). */
export const CHAT_LINK_COMMANDS: readonly string[] = [
  'agentMemory.showRecallExplanation', 'agentMemory.showEntityInKnowledgePanel', 'agentMemory.forgetMemory', 'agentMemory.pinEntity', CHAT_OPEN_COMMAND,
];

/** A markdown link that runs `command` with `args`. */
export function commandLink(title: string, command: string, args: unknown[]): string {
  return `[${title}](command:${command}?${encodeURIComponent(JSON.stringify(args))})`;
}

/** The "show all" follow-up: asks @memory /recall the same question in the chat. */
export function showAllLink(query: string, total: number): string {
  const q = query.replace(/\s+/g, ' ').trim().slice(0, 500);
  return `\n${commandLink(`Show all ${total}`, CHAT_OPEN_COMMAND, [{ query: `@memory /recall ${q}` }])}`;
}

/**
 * The subset of ChatResponseStream the @memory handlers use, recording what was sent so the last
 * answer can be inspected (internal command agentMemory._lastChatRequest; integration tests).
 */
import * as vscode from 'vscode';
import { CHAT_LINK_COMMANDS } from './chatLinks';


export class ChatOutput {
  readonly markdownParts: string[] = [];
  readonly references: string[] = [];
  /** What the chat model wrote (composed()), without the memories the answer lists or quotes. */
  readonly composedParts: string[] = [];

  constructor(private readonly stream: vscode.ChatResponseStream) {}

  markdown(text: string, commandLinks = false): void {
    this.markdownParts.push(text);
    const md = new vscode.MarkdownString(text);
    if (commandLinks) md.isTrusted = { enabledCommands: [...CHAT_LINK_COMMANDS] };
    this.stream.markdown(md);
  }

  /** Markdown the chat model composed: shown as markdown(), and kept apart as the answer's own text. */
  composed(text: string): void {
    this.composedParts.push(text);
    this.markdown(text);
  }

  /**
   * The model's own answer text: what the session records as the assistant's turn, so the feedback
   * loop judges a memory used by what the model wrote, never because the answer listed or quoted it
   * (docs/recall-design.md, "Fifth round"). Empty when no model composed an answer.
   */
  composedText(): string {
    return this.composedParts.join('');
  }

  progress(text: string): void {
    this.stream.progress(text);
  }

  reference(uri: vscode.Uri): void {
    this.references.push(uri.toString());
    this.stream.reference(uri);
  }

  button(command: vscode.Command): void {
    this.stream.button(command);
  }

  text(): string {
    return this.markdownParts.join('');
  }
}

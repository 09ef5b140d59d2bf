/**
 * The session-start memories (what SessionService.start chose within the injection budget and
 * recorded as injected) as delivered: in the @memory prompt the model sees, in the visible
 * answer, and in the first language model tool result of a session. Numbering continues after
 * the recalled memories, so one citation scheme [n] covers both. vscode-free (unit-tested).
 */
import { escapeMarkdown, snippet } from './recallFormat';

/** A memory injected at session start (the fields of the core's InjectedCandidate used here). */
export interface StartMemory {
  readonly id: string;
  readonly content: string;
}

/** The prompt section: each session-start memory numbered from `first`, whole text. */
export function sessionStartPromptSection(memories: readonly StartMemory[], first: number): string {
  if (memories.length === 0) return '';
  return [
    'Memories loaded at the start of this conversation (important and recent for this project; cite them as [n] too):',
    ...memories.map((m, i) => `[${first + i}] ${m.content.replace(/\s+/g, ' ').trim()}`),
  ].join('\n');
}

/**
 * The visible line under an answer: how many memories were loaded at session start and the
 * numbers they are cited by, in one line (docs/vscode.md, "Chat"); the memories themselves are the
 * answer's references, which VS Code shows collapsed ("Used N references"). `first` undefined: no
 * numbers, for an answer nothing cites them in (the memories-only answer lists its best five, so
 * "[11]–[16]" would name numbers the answer never shows).
 */
export function sessionStartMarkdown(memories: readonly StartMemory[], first: number | undefined): string {
  if (memories.length === 0) return '';
  const n = memories.length;
  const cited = first === undefined ? '' : n === 1 ? `cited [${first}]; ` : `cited [${first}]–[${first + n - 1}]; `;
  const lead = escapeMarkdown(snippet(memories[0]?.content ?? '', 60));
  return `\n\n_Also loaded at the start of this conversation: ${n} ${n === 1 ? 'memory' : 'memories'} (${cited}by importance and recency, e.g. "${lead}"), listed under References._\n`;
}

/** The block a language model tool appends to the first result of its session. */
export function sessionStartToolText(memories: readonly StartMemory[]): string {
  if (memories.length === 0) return '';
  const blocks = memories.map((m, i) => `[S${i + 1}] id=${m.id}\n${m.content}`);
  return `\n\nSession-start memories (loaded once, at the start of this tool session, by importance and recency; not part of the answer above):\n\n${blocks.join('\n\n')}`;
}

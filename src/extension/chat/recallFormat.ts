/**
 * Markdown for recalled memories (chat answers, tool results). vscode-free.
 */
import { explainText, relevanceOf } from '../../core/recall/explainText';
import type { ExplainTextOptions } from '../../core/recall/explainText';
import type { Explain, RecallResult } from '../../core/recall/recallTypes';

/** Longest snippet of a memory shown in a list line. */
export const SNIPPET_CHARS = 220;

export function snippet(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Escapes characters that would turn memory text into markdown structure or links. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_{}[\]<>()#+!|~])/g, '\\$1');
}

/**
 * Why a memory was recalled, as markdown bullet lines in plain words (src/core/recall/explainText.ts,
 * shared with the Knowledge panel and the CLI); `ctx` gives the recall's best score and memory texts.
 */
export function explainLines(e: Explain, ctx: ExplainTextOptions = {}): string[] {
  return explainText(e, ctx).map((l) => `- ${escapeMarkdown(l)}`);
}

/**
 * The recalled memories with the current ones first: a memory marked superseded (or partly) by the
 * currentness stage moves below every current one, each group keeping its recall order. Answers
 * number memories in this order, so citations [n] match the list shown under the answer.
 */
export function currentFirst(results: readonly RecallResult[]): RecallResult[] {
  return [...results.filter((r) => !r.currentness), ...results.filter((r) => r.currentness)];
}

/**
 * How a stale memory is marked, in plain text: "superseded by [2]" when its replacement is among
 * `results` (numbered from 1 in that order), else "superseded by: <replacement text>"; "partly
 * superseded …" when only some of its claims were. Undefined for a current memory.
 */
export function staleLabel(r: RecallResult, results: readonly RecallResult[], maxChars = 160): string | undefined {
  const c = r.currentness;
  if (!c) return undefined;
  const verb = c.status === 'superseded' ? 'superseded' : 'partly superseded';
  const at = c.replacementId ? results.findIndex((x) => x.id === c.replacementId) : -1;
  if (at >= 0) return `${verb} by [${at + 1}]`;
  if (c.replacement) return `${verb} by: "${snippet(c.replacement, maxChars)}"`;
  return `${verb} by a newer memory`;
}

/**
 * One line per memory: number, type, snippet, date, relevance, stale mark; `link(i, r)` may append
 * a markdown link. Relevance is on the documented 0–1 scale (src/shared/explainLegend.ts): the
 * score relative to `best`, the recall's best score (by default the best of `results`), never the
 * raw fused score, which can exceed 1 after boosts (issue #25).
 */
export function resultList(results: readonly RecallResult[], link?: (index: number, r: RecallResult) => string, best = Math.max(0, ...results.map((r) => r.score))): string {
  return results.map((r, i) => {
    const extra = link ? ` ${link(i, r)}` : '';
    const stale = staleLabel(r, results);
    const mark = stale ? ` — **${escapeMarkdown(stale)}**` : '';
    return `${i + 1}. **${escapeMarkdown(r.type)}** — ${escapeMarkdown(snippet(r.content))} _(${r.createdAt.slice(0, 10)}, relevance ${relevanceOf(r.score, best).toFixed(2)})_${mark}${extra}`;
  }).join('\n') + '\n';
}

/**
 * The prompt that asks a chat model to answer from recalled memories only (numbered in the given
 * order; pass `currentFirst(results)`). A stale memory carries "SUPERSEDED by [n]" (or the
 * replacing text when that memory was not recalled), so the model answers with the current fact.
 * `sessionStart` is the session-start section (sessionStartContext.ts), numbered after the results.
 */
export function answerPrompt(question: string, results: readonly RecallResult[], sessionStart = ''): string {
  const memories = results.map((r, i) => {
    const stale = staleLabel(r, results, 240);
    const mark = stale ? ` ${stale.replace(/^(partly )?superseded/, (m) => m.toUpperCase())} —` : '';
    return `[${i + 1}] (${r.type}, ${r.createdAt.slice(0, 10)})${mark} ${r.content.replace(/\s+/g, ' ').trim()}`;
  }).join('\n');
  const anyStale = results.some((r) => r.currentness);
  return [
    'You answer questions about a software project using only the memories below, which were recalled from the team\'s local memory store.',
    'Cite the memories you use as [n]. If the memories do not answer the question, say so briefly. Prefer newer memories when they conflict.',
    ...(anyStale ? ['A memory marked SUPERSEDED is no longer true: answer with what superseded it, and mention the old fact only as history.'] : []),
    '',
    'Memories:',
    memories,
    '',
    ...(sessionStart ? [sessionStart, ''] : []),
    `Question: ${question}`,
  ].join('\n');
}

/**
 * memory_recall's text for a model: one block per memory (current first) with id, type, date and
 * relevance (0–1 against the best result, as the chat list shows it: the raw score can exceed 1), a
 * `status=superseded superseded_by=<id>` field and a "Superseded by:" line for stale ones.
 */
export function toolResultText(query: string, results: readonly RecallResult[]): string {
  if (results.length === 0) return `No memories match "${query}".`;
  const ordered = currentFirst(results);
  const blocks = ordered.map((r, i) => {
    const c = r.currentness;
    const status = c ? ` status=${c.status}${c.replacementId ? ` superseded_by=${c.replacementId}` : ''}` : '';
    const head = `[${i + 1}] id=${r.id} type=${r.type} created=${r.createdAt.slice(0, 10)} relevance=${r.relevance.toFixed(2)}${status}`;
    const note = c ? `\n${staleLabel(r, ordered, 400)?.replace(/^./, (x) => x.toUpperCase())}. Do not present this memory as current.` : '';
    return `${head}\n${r.content}${note}`;
  });
  return blocks.join('\n\n');
}

/** What @memory says about composed answers when no language model composed one. */
export const COMPOSED_ANSWER_HINT =
  'No chat model composed this answer. For composed answers, make a chat model available in VS Code ' +
  '(for example GitHub Copilot, or any extension that provides a language model) and pick it in the chat ' +
  'model picker. `/recall`, `/why`, `/remember`, `/forget`, `/pin`, `/unpin` and `/status` work without one.';

/**
 * The memories-only answer (no model, or the model failed): the best current memory as the
 * answer, cited, then every recalled memory current first with stale ones marked, then how to get
 * composed answers. `list` renders the numbered list (the chat adds its links).
 */
export function memoriesOnlyAnswer(question: string, results: readonly RecallResult[], list: (ordered: readonly RecallResult[]) => string = (o) => resultList(o), showAll?: (total: number) => string): string {
  const ordered = currentFirst(results);
  const best = ordered[0];
  if (!best) return '';
  const lead = best.currentness
    ? `Memory holds only superseded answers to "${escapeMarkdown(snippet(question, 80))}"; the most relevant is [1].`
    : `From memory [1]: ${escapeMarkdown(snippet(best.content, 400))}`;
  // Sized for the chat (docs/vscode.md, "Chat"): the best few, then a follow-up for the rest.
  const shown = showAll ? ordered.slice(0, CHAT_ANSWER_ITEMS) : ordered;
  const more = showAll && ordered.length > shown.length ? `${showAll(ordered.length)}\n` : '';
  const heading = shown.length < ordered.length ? `the best ${shown.length} of ${ordered.length}, current first` : `${ordered.length}, current first`;
  return `${lead}\n\n**What memory holds about this** (${heading}):\n\n${list(shown)}${more}\n_${COMPOSED_ANSWER_HINT}_\n`;
}

/** How many recalled memories a chat answer lists before its "show all" follow-up. */
export const CHAT_ANSWER_ITEMS = 5;

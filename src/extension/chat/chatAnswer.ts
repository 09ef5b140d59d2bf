/**
 * @memory answers that recall: the default question (composed by the chat model from recalled
 * memories, or a formatted list when no model answers), /recall (the list) and /why (the list with
 * every memory's score breakdown). Each memory gets a reference and a "why recalled" link.
 */
import * as vscode from 'vscode';
import { userMessage } from '../../core/errors';
import type { RecallResult } from '../../core/recall/recallTypes';
import { recallMemories } from '../actions/memoryActions';
import { memoryUri, sourceUri } from '../documents/memoryDocuments';
import { SHOW_EXPLAIN_COMMAND } from '../knowledge/recallExplanations';
import { explainLinkArgs } from '../knowledge/recallExplanationStore';
import type { RecallExplanations } from '../knowledge/recallExplanationStore';
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import { commandLink, showAllLink } from './chatLinks';
import type { ChatOutput } from './chatOutput';
import { answerPrompt, CHAT_ANSWER_ITEMS, currentFirst, explainLines, memoriesOnlyAnswer, resultList } from './recallFormat';
import { sessionStartMarkdown, sessionStartPromptSection } from './sessionStartContext';
import type { StartMemory } from './sessionStartContext';

/** The Memory: Forget command (asks before deleting). */
const FORGET_COMMAND = 'agentMemory.forgetMemory';

export interface RecallAnswerDeps {
  readonly rt: MemoryEngine;
  /** Keeps each answer's recall so its "why?" links open it in the Knowledge panel. */
  readonly explanations: RecallExplanations;
  readonly out: ChatOutput;
  readonly token: vscode.CancellationToken;
  readonly sessionKey: string | undefined;
  /** What this request's session start injected (empty after the first request of a session). */
  readonly startMemories: readonly StartMemory[];
}

function addReferences(deps: RecallAnswerDeps, results: readonly RecallResult[]): void {
  for (const r of results) {
    deps.out.reference(memoryUri(r.id));
    const src = sourceUri(r.sourceId);
    if (src) deps.out.reference(src);
  }
}

/**
 * The numbered list with a "why?" link per memory (opens the Knowledge panel's Recall tab on this
 * recall with that memory's explanation open: recallExplanations.ts) and a "forget" link.
 * `recalled` is the whole recall the list was cut from, kept for the panel.
 */
function listWithWhy(deps: RecallAnswerDeps, query: string, results: readonly RecallResult[], recalled: readonly RecallResult[] = results): string {
  const key = deps.explanations.keep(query, recalled);
  const best = Math.max(0, ...recalled.map((r) => r.score));
  return resultList(results, (_i, r) => `${commandLink('why?', SHOW_EXPLAIN_COMMAND, explainLinkArgs(key, r.id, query))} · ${commandLink('forget', FORGET_COMMAND, [r.id])}`, best);
}

export function noMatches(out: ChatOutput, query: string): void {
  out.markdown(`No memory matches "${query.replace(/\s+/g, ' ').slice(0, 80)}". Try other words, or tell me something to keep with \`/remember\`.`);
}

// @memory recalls record no keyword hits as evidence (being shown is not being used): the loop
// learns from the model's own words (answerUsage.ts) and the user's actions (chatFeedback.ts).
const SESSION_RECALL = { countLexicalHits: false } as const;

/** /recall: the recalled memories as a list. */
export async function answerRecall(deps: RecallAnswerDeps, query: string): Promise<RecallResult[]> {
  deps.out.progress('Recalling…');
  const results = await recallMemories(deps.rt, query, { ...(deps.sessionKey ? { session: deps.sessionKey, ...SESSION_RECALL } : {}) });
  if (deps.token.isCancellationRequested) return results;
  if (results.length === 0) { noMatches(deps.out, query); return results; }
  deps.out.markdown(`**${results.length} memories** for "${query.replace(/\s+/g, ' ').slice(0, 80)}":\n\n`);
  deps.out.markdown(listWithWhy(deps, query, results), true);
  addReferences(deps, results);
  return results;
}

/** /why: every memory with its full score breakdown inline. */
export async function answerWhy(deps: RecallAnswerDeps, query: string): Promise<RecallResult[]> {
  deps.out.progress('Recalling with explanations…');
  const results = await recallMemories(deps.rt, query, { ...(deps.sessionKey ? { session: deps.sessionKey, ...SESSION_RECALL } : {}) });
  if (deps.token.isCancellationRequested) return results;
  if (results.length === 0) { noMatches(deps.out, query); return results; }
  const best = Math.max(0, ...results.map((r) => r.score));
  const byId = new Map(results.map((r) => [r.id, r.content]));
  const ctx = { best, nameOf: (id: string) => byId.get(id) };
  const blocks = results.map((r, i) => `${resultList([r], undefined, best).replace(/^1\./, `${i + 1}.`)}${r.explain ? explainLines(r.explain, ctx).map((l) => `   ${l}`).join('\n') + '\n' : ''}`);
  deps.out.markdown(`Why these memories were recalled for "${query.replace(/\s+/g, ' ').slice(0, 80)}":\n\n${blocks.join('\n')}`);
  addReferences(deps, results);
  return results;
}

/**
 * Delivers the session-start memories under the answer (numbered after the `listed` memories, as
 * in the prompt), with references: what the session start recorded as injected is shown once, on
 * the first answer of the conversation, whatever its command.
 */
export function deliverSessionStart(out: ChatOutput, memories: readonly StartMemory[], listed: number | undefined): void {
  if (memories.length === 0) return;
  out.markdown(sessionStartMarkdown(memories, listed === undefined ? undefined : listed + 1));
  for (const m of memories) out.reference(memoryUri(m.id));
}

/**
 * The default question: recall, then let the chat model answer from the memories (current first,
 * stale ones marked "SUPERSEDED by [n]" in the prompt; on the first request of a conversation the
 * session-start memories follow, numbered after them). Without a model, or when the model fails or
 * says nothing, the answer is the memories themselves (memoriesOnlyAnswer) with how to get
 * composed answers.
 */
export async function answerQuestion(deps: RecallAnswerDeps, query: string, model: vscode.LanguageModelChat | undefined): Promise<{ results: RecallResult[]; composed: boolean }> {
  deps.out.progress('Recalling…');
  const recalled = await recallMemories(deps.rt, query, { ...(deps.sessionKey ? { session: deps.sessionKey, injected: true, ...SESSION_RECALL } : {}) });
  if (deps.token.isCancellationRequested) return { results: recalled, composed: false };
  if (recalled.length === 0) { noMatches(deps.out, query); return { results: recalled, composed: false }; }
  const results = currentFirst(recalled);
  addReferences(deps, results);
  let composed = false;
  if (model) {
    try {
      const prompt = answerPrompt(query, results, sessionStartPromptSection(deps.startMemories, results.length + 1));
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, deps.token);
      for await (const chunk of response.text) {
        if (deps.token.isCancellationRequested) break;
        deps.out.composed(chunk);
        if (chunk.trim()) composed = true;
      }
    } catch (e) {
      if (deps.token.isCancellationRequested) return { results, composed };
      deps.out.markdown(`_(The chat model could not compose an answer: ${userMessage(e)}. Here is what memory holds.)_\n\n`);
    }
  }
  if (deps.token.isCancellationRequested) return { results, composed };
  if (composed) {
    const shown = results.slice(0, CHAT_ANSWER_ITEMS);
    deps.out.markdown(`\n\n---\n**Recalled memories**${shown.length < results.length ? ` (the best ${shown.length} of ${results.length})` : ''}\n\n`);
    deps.out.markdown(listWithWhy(deps, query, shown, results) + (shown.length < results.length ? `${showAllLink(query, results.length)}\n` : ''), true);
  } else {
    deps.out.markdown(memoriesOnlyAnswer(query, results, (ordered) => listWithWhy(deps, query, ordered, results), (total) => showAllLink(query, total)), true);
  }
  return { results, composed };
}

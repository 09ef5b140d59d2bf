/**
 * The Recall command's quick pick items (vscode-free, unit-tested): each memory as its text, and
 * under it its type, date, relevance on 0–1 (the score over the best result's, as "Why" shows it;
 * the ranking score itself can exceed 1), whether it was replaced, and how it was found in the
 * words of "Why". The second line carries the facts because a long first line hides a description
 * beside it. Results below the relevance floor follow a separator, so off-topic memories do not
 * read as answers but can still be opened (docs/recall-design.md, "Explanations").
 */
import { explainText, RELEVANCE_FLOOR, splitByRelevance } from '../../core/recall/explainText';
import type { RecallResult } from '../../core/recall/recallTypes';
import { snippet, staleLabel } from '../chat/recallFormat';

export interface RecallPickMemory {
  readonly label: string;
  readonly detail: string;
  readonly id: string;
}

/** A heading between the relevant results and the weaker ones (a separator in the pick list). */
export interface RecallPickSeparator {
  readonly separator: true;
  readonly label: string;
}

export type RecallPickItem = RecallPickMemory | RecallPickSeparator;

function memoryItem(r: RecallResult): RecallPickMemory {
  // The pick list numbers nothing, so a stale memory names its replacement by its words.
  const stale = r.currentness ? staleLabel(r, [], 60) : undefined;
  const found = r.explain ? explainText(r.explain)[1] : undefined;
  const facts = `${r.type} · ${r.createdAt.slice(0, 10)} · relevance ${r.relevance.toFixed(2)}${stale ? ` · ${stale}` : ''}`;
  return { label: snippet(r.content, 100), detail: found ? `${facts} — ${found}` : facts, id: r.id };
}

export function recallPickItems(results: readonly RecallResult[]): RecallPickItem[] {
  const { shown, heldBack } = splitByRelevance(results);
  const items: RecallPickItem[] = shown.map(memoryItem);
  if (heldBack.length === 0) return items;
  return [...items, { separator: true, label: `weaker matches, below ${RELEVANCE_FLOOR} of the best` }, ...heldBack.map(memoryItem)];
}

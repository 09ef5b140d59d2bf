/**
 * The Recall command's quick pick items (vscode-free, unit-tested): each memory with its type,
 * date, relevance on 0–1 (the score over the best result's, as "Why" shows it; the ranking score
 * itself can exceed 1), whether it was replaced, and how it was found in the words of "Why".
 */
import { explainText } from '../../core/recall/explainText';
import type { RecallResult } from '../../core/recall/recallTypes';
import { snippet, staleLabel } from '../chat/recallFormat';

export interface RecallPickItem {
  readonly label: string;
  readonly description: string;
  readonly detail?: string;
  readonly id: string;
}

export function recallPickItems(results: readonly RecallResult[]): RecallPickItem[] {
  return results.map((r) => {
    const stale = r.currentness ? staleLabel(r, results, 80) : undefined;
    const found = r.explain ? explainText(r.explain)[1] : undefined;
    return {
      label: snippet(r.content, 100),
      description: `${r.type} · ${r.createdAt.slice(0, 10)} · relevance ${r.relevance.toFixed(2)}${stale ? ` · ${stale}` : ''}`,
      ...(found ? { detail: found } : {}),
      id: r.id,
    };
  });
}

/**
 * The recalls @memory answers were built from, kept by a short key so a "why?" link can show one
 * in the Knowledge panel (recallExplanations.ts registers the command). vscode-free, unit-tested.
 */
import type { RecallResult } from '../../core/recall/recallTypes';
import { PROTOCOL_LIMITS } from '../../../src/shared/knowledgeProtocol';
import type { RecallExplanationView } from './knowledgeController';
import { explainContextOf, toRecallView } from './recallView';

/** Recalls kept for "why?" links (oldest dropped first). */
export const MAX_KEPT_RECALLS = 100;

interface KeptRecall {
  readonly query: string;
  readonly tookMs: number;
  readonly results: RecallExplanationView['results'];
}

/** The recalls chat answers were built from, by key, bounded. */
export class RecallExplanations {
  private readonly kept = new Map<string, KeptRecall>();
  private next = 0;

  /** Keeps one recall (as the panel shows it) and returns its key. */
  keep(query: string, results: readonly RecallResult[], tookMs = 0): string {
    const key = String(++this.next);
    const ctx = explainContextOf(results);
    const q = query.length > PROTOCOL_LIMITS.recallQueryLength ? query.slice(0, PROTOCOL_LIMITS.recallQueryLength) : query;
    this.kept.set(key, { query: q, tookMs: Math.max(0, Math.round(tookMs)), results: results.slice(0, PROTOCOL_LIMITS.recallLimitMax).map((r) => toRecallView(r, null, ctx)) });
    while (this.kept.size > MAX_KEPT_RECALLS) {
      const oldest = this.kept.keys().next().value;
      if (oldest === undefined) break;
      this.kept.delete(oldest);
    }
    return key;
  }

  /** The explanation for `memoryId` in the kept recall `key`, or undefined when no longer kept. */
  explanation(key: string, memoryId: string): RecallExplanationView | undefined {
    const r = this.kept.get(key);
    return r ? { query: r.query, focusId: memoryId, tookMs: r.tookMs, results: r.results } : undefined;
  }
}

/** The command link arguments of one "why?" (what SHOW_EXPLAIN_COMMAND receives). */
export function explainLinkArgs(key: string, memoryId: string, query: string): [string, string, string] {
  return [key, memoryId, query.slice(0, PROTOCOL_LIMITS.recallQueryLength)];
}


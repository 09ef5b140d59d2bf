/**
 * LLM reranker over the injected LlmClient (src/core/hostContext.ts). The prompt numbers the head
 * candidates; the answer may be a JSON array of numbers (best first), an array of
 * {"index", "score"} objects, or an object with a "ranking" array, possibly inside a code fence or
 * surrounded by prose. Indices map back to candidates by number, never by position in the answer;
 * anything unparseable throws, so rerank() keeps the original order.
 */
import { DEFAULT_LLM_RERANK_SNIPPET_CHARS } from '../config/modelConfig';
import type { LlmClient } from '../hostContext';
import type { RerankCandidate, Reranker } from './rerank';

export interface LlmRanking {
  /** 1-based candidate numbers, best first. */
  readonly order: number[];
  /** Relevance 0..1 per candidate number, when the model gave one. */
  readonly scores: Map<number, number>;
}

export function buildLlmRerankPrompt(query: string, head: readonly RerankCandidate[], snippetChars = DEFAULT_LLM_RERANK_SNIPPET_CHARS): string {
  const lines = head.map((c, i) => `[${i + 1}] ${c.content.replace(/\s+/g, ' ').slice(0, snippetChars)}`);
  return [
    'Rank the memories below by how well they answer the query.',
    'Reply with JSON only: an array of objects {"index": <memory number>, "score": <relevance 0..1>}, most relevant first.',
    '',
    `Query: ${query}`,
    '',
    'Memories:',
    ...lines,
  ].join('\n');
}

/** The first balanced JSON array or object in `text`, parsed; undefined when there is none. */
function firstJson(text: string): unknown {
  const unfenced = text.replace(/```(?:json)?/gi, ' ');
  for (let start = 0; start < unfenced.length; start++) {
    const open = unfenced[start];
    if (open !== '[' && open !== '{') continue;
    let depth = 0;
    let inString = false;
    for (let i = start; i < unfenced.length; i++) {
      const ch = unfenced[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '[' || ch === '{') depth++;
      else if (ch === ']' || ch === '}') {
        depth--;
        if (depth === 0) {
          try { return JSON.parse(unfenced.slice(start, i + 1)); } catch { break; }
        }
      }
    }
  }
  return undefined;
}

/** Parses an LLM ranking for `count` candidates; throws when nothing usable is found. */
export function parseLlmRanking(text: string, count: number): LlmRanking {
  let value = firstJson(text);
  if (value && !Array.isArray(value) && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    value = o.ranking ?? o.results ?? o.order ?? o.indices;
  }
  if (!Array.isArray(value)) throw new Error('no JSON ranking in the answer');
  const order: number[] = [];
  const scores = new Map<number, number>();
  for (const item of value) {
    const index = typeof item === 'number' ? item : Number((item as { index?: unknown; id?: unknown } | null)?.index ?? (item as { id?: unknown } | null)?.id);
    if (!Number.isInteger(index) || index < 1 || index > count || order.includes(index)) continue;
    order.push(index);
    const score = typeof item === 'object' && item !== null ? Number((item as { score?: unknown }).score) : NaN;
    if (Number.isFinite(score)) scores.set(index, Math.min(1, Math.max(0, score)));
  }
  if (order.length === 0) throw new Error('the ranking names no candidate');
  return { order, scores };
}

export function createLlmReranker(llm: LlmClient): Reranker {
  return {
    id: `llm:${llm.label}`,
    rerank: async (query, head, call) => {
      const answer = await llm.complete(buildLlmRerankPrompt(query, head), { timeoutMs: call.timeoutMs, signal: call.signal });
      const { order, scores } = parseLlmRanking(answer, head.length);
      // Scores: the model's relevance when given, else by rank (1 for the first, falling linearly).
      return order.map((n, rank) => {
        const c = head[n - 1] as RerankCandidate;
        return { ...c, score: scores.get(n) ?? 1 - rank / head.length };
      });
    },
  };
}

/**
 * Reranking of a ranked candidate list ("Optional Reranking"): only the first `topN`
 * candidates (the head) go to the provider, the tail is appended untouched; if the provider throws,
 * times out (Promise.race against a timer, cleared afterwards) or returns something unusable, the
 * original order comes back unchanged. No candidate is ever dropped or duplicated: the provider's
 * answer is mapped back onto the head by id, unknown or repeated ids are ignored, and head items it
 * left out follow in their original order.
 */
import { DEFAULT_RERANK_TIMEOUT_MS, DEFAULT_RERANK_TOP_N } from '../config/modelConfig';

export interface RerankCandidate {
  readonly id: string;
  readonly content: string;
  readonly score: number;
}

export interface RerankOptions {
  readonly topN: number;
  readonly timeoutMs: number;
}

export interface RerankCall extends RerankOptions {
  /** Aborted when the timeout fires, so providers can stop work they no longer need. */
  readonly signal: AbortSignal;
}

/** A reranking backend: returns the head in its preferred order with its scores. */
export interface Reranker {
  readonly id: string;
  /** Head size and timeout this provider wants when the caller does not say (e.g. cross-encoder 6 / 1,500 ms). */
  readonly defaults?: Partial<RerankOptions>;
  rerank(query: string, head: readonly RerankCandidate[], call: RerankCall): Promise<readonly RerankCandidate[]>;
  /** Loads what the provider needs ahead of the first query (a first call may otherwise time out while loading). */
  warmUp?(): Promise<void>;
}

export type RerankStatus = 'reranked' | 'unchanged' | 'deferred' | 'timeout' | 'failed';

export interface RerankResult<T extends RerankCandidate> {
  readonly candidates: T[];
  readonly status: RerankStatus;
  /** Why the original order was kept (timeout, error message). */
  readonly note?: string;
}

/** Pass-through provider (tests, and the "none" setting). */
export const noopReranker: Reranker = {
  id: 'none',
  rerank: async (_query, head) => head,
};

class RerankTimeout extends Error {}

/**
 * Thrown by a provider that answers later instead of now (backgroundLlmReranker.ts): rerank()
 * keeps the original order with status 'deferred' and the message as its note.
 */
export class RerankDeferred extends Error {}

export async function rerank<T extends RerankCandidate>(
  query: string,
  candidates: readonly T[],
  provider: Reranker,
  options: Partial<RerankOptions> = {},
): Promise<RerankResult<T>> {
  const topN = Math.max(0, Math.floor(options.topN ?? provider.defaults?.topN ?? DEFAULT_RERANK_TOP_N));
  const timeoutMs = Math.max(0, options.timeoutMs ?? provider.defaults?.timeoutMs ?? DEFAULT_RERANK_TIMEOUT_MS);
  const original = candidates.slice();
  if (original.length === 0 || topN === 0) return { candidates: original, status: 'unchanged' };
  const head = original.slice(0, topN);
  const tail = original.slice(topN);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { controller.abort(); reject(new RerankTimeout()); }, timeoutMs);
  });
  try {
    const work = Promise.resolve().then(() => provider.rerank(query, head, { topN, timeoutMs, signal: controller.signal }));
    work.catch(() => undefined);
    const answer = await Promise.race([work, timeout]);
    return { candidates: [...mapBack(head, answer), ...tail], status: 'reranked' };
  } catch (e) {
    if (e instanceof RerankDeferred) return { candidates: original, status: 'deferred', note: `reranker ${provider.id}: ${e.message}; original order kept` };
    if (e instanceof RerankTimeout) return { candidates: original, status: 'timeout', note: `reranker ${provider.id} timed out after ${timeoutMs} ms; original order kept` };
    const reason = e instanceof Error ? e.message : String(e);
    return { candidates: original, status: 'failed', note: `reranker ${provider.id} failed (${reason}); original order kept` };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** The provider's order and scores applied to the head, by id; nothing dropped or duplicated. */
function mapBack<T extends RerankCandidate>(head: readonly T[], answer: unknown): T[] {
  if (!Array.isArray(answer)) throw new Error('the reranker returned no list');
  const byId = new Map(head.map((c) => [c.id, c]));
  const out: T[] = [];
  for (const item of answer as unknown[]) {
    const id = (item as { id?: unknown } | null)?.id;
    const c = typeof id === 'string' ? byId.get(id) : undefined;
    if (!c) continue;
    byId.delete(id as string);
    const score = (item as { score?: unknown }).score;
    out.push(typeof score === 'number' && Number.isFinite(score) ? { ...c, score } : c);
  }
  return [...out, ...byId.values()];
}

/**
 * Rerank of the head (seed 000, signet-spec §2.15): the first topN candidates go to the provider,
 * the tail is appended untouched; a timeout or a throw returns the original order; scores map back
 * by id, so no candidate is ever dropped or duplicated. The default provider is the embedding
 * reranker: 0.7 × score + 0.3 × cosine with the query (the semantic channel already holds it).
 */
import type { SearchConfig } from '../config/searchConfig';
import type { Candidate } from './recallTypes';

export interface RerankItem {
  readonly id: string;
  readonly content: string;
  readonly score: number;
}

/** A reranker: returns new scores for (some of) the items; unknown ids are ignored. */
export interface RecallReranker {
  readonly id: string;
  rerank(query: string, items: readonly RerankItem[]): Promise<readonly { id: string; score: number }[]>;
}

/** Embedding reranker over the semantic channel: 0.7·score + 0.3·cosine (signet-spec §2.15). */
export function embeddingBlendReranker(cosineById: ReadonlyMap<string, number>): RecallReranker {
  return {
    id: 'embedding',
    rerank: async (_q, items) => items.map((it) => {
      const cos = cosineById.get(it.id);
      return { id: it.id, score: cos === undefined ? it.score : 0.7 * it.score + 0.3 * cos };
    }),
  };
}

export async function rerankHead(query: string, cands: Candidate[], reranker: RecallReranker | undefined, cfg: SearchConfig['rerank']): Promise<{ ranked: Candidate[]; note?: string }> {
  if (!cfg.enabled || !reranker || cands.length === 0) return { ranked: cands };
  const head = cands.slice(0, cfg.topN);
  const tail = cands.slice(cfg.topN);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), cfg.timeoutMs); });
    const work = reranker.rerank(query, head.map((c) => ({ id: c.id, content: c.content, score: c.score })));
    work.catch(() => undefined);
    const out = await Promise.race([work, timeout]);
    if (out === 'timeout') return { ranked: cands, note: `reranker ${reranker.id} timed out; original order kept` };
    const byId = new Map<string, number>();
    for (const r of out) if (Number.isFinite(r.score)) byId.set(r.id, r.score);
    for (const c of head) {
      const s = byId.get(c.id);
      if (s === undefined || s === c.score) continue;
      const delta = s - c.score;
      c.score = s;
      (delta > 0 ? c.explain.boosts : c.explain.penalties).push({ stage: `rerank:${reranker.id}`, delta });
    }
    const order = head.map((c, i) => ({ c, i })).sort((a, b) => b.c.score - a.c.score || a.i - b.i).map((x) => x.c);
    return { ranked: order.concat(tail) };
  } catch {
    return { ranked: cands, note: `reranker ${reranker.id} failed; original order kept` };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

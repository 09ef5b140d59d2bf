/**
 * Rerank of the head through the models module's rerank(): only the first topN
 * candidates go to the provider, the tail is appended untouched, a timeout or throw keeps the
 * original order, nothing is dropped. The default provider is the embedding reranker
 * (0.7 × score + 0.3 × cosine over cached vectors). Score changes land in explain; when the head
 * keeps its order for a reason (timeout, failure, missing model, deferred LLM scoring), the reason
 * is a recall note and a note on each head candidate.
 */
import type { SearchConfig } from '../config/searchConfig';
import { rerank } from '../models/rerank';
import type { Reranker } from '../models/rerank';
import type { Candidate } from './recallTypes';

export async function rerankHead(query: string, cands: Candidate[], reranker: Reranker | undefined, cfg: SearchConfig['rerank']): Promise<{ ranked: Candidate[]; note?: string }> {
  if (!cfg.enabled || !reranker || cands.length === 0) return { ranked: cands };
  const items = cands.map((c) => ({ id: c.id, content: c.content, score: c.score }));
  const out = await rerank(query, items, reranker, { topN: cfg.topN, timeoutMs: cfg.timeoutMs });
  if (out.status !== 'reranked') {
    if (out.note === undefined) return { ranked: cands };
    // The reason the head kept its fused order goes into each head candidate's explanation too.
    for (const c of cands.slice(0, cfg.topN)) c.explain.notes.push(`rerank: ${out.note}`);
    return { ranked: cands, note: out.note };
  }
  const byId = new Map(cands.map((c) => [c.id, c]));
  const ranked: Candidate[] = [];
  for (const item of out.candidates) {
    const c = byId.get(item.id);
    if (!c) continue;
    byId.delete(item.id);
    const delta = item.score - c.score;
    if (delta !== 0) {
      const before = c.score, seq = c.explain.boosts.length + c.explain.penalties.length;
      c.score = item.score;
      (delta > 0 ? c.explain.boosts : c.explain.penalties).push({ stage: `rerank:${reranker.id}`, delta, before, seq });
    }
    ranked.push(c);
  }
  return { ranked: [...ranked, ...byId.values()] };
}

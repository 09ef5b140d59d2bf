/**
 * Rerank of the head through the models module's rerank(): only the first topN
 * candidates go to the provider, the tail is appended untouched, a timeout or throw keeps the
 * original order, nothing is dropped. The default provider is the embedding reranker
 * (0.7 × score + 0.3 × cosine over cached vectors). Score changes land in explain.
 */
import type { SearchConfig } from '../config/searchConfig';
import { rerank } from '../models/rerank';
import type { Reranker } from '../models/rerank';
import type { Candidate } from './recallTypes';

export async function rerankHead(query: string, cands: Candidate[], reranker: Reranker | undefined, cfg: SearchConfig['rerank']): Promise<{ ranked: Candidate[]; note?: string }> {
  if (!cfg.enabled || !reranker || cands.length === 0) return { ranked: cands };
  const items = cands.map((c) => ({ id: c.id, content: c.content, score: c.score }));
  const out = await rerank(query, items, reranker, { topN: cfg.topN, timeoutMs: cfg.timeoutMs });
  if (out.status !== 'reranked') return out.note === undefined ? { ranked: cands } : { ranked: cands, note: out.note };
  const byId = new Map(cands.map((c) => [c.id, c]));
  const ranked: Candidate[] = [];
  for (const item of out.candidates) {
    const c = byId.get(item.id);
    if (!c) continue;
    byId.delete(item.id);
    const delta = item.score - c.score;
    if (delta !== 0) {
      c.score = item.score;
      (delta > 0 ? c.explain.boosts : c.explain.penalties).push({ stage: `rerank:${reranker.id}`, delta });
    }
    ranked.push(c);
  }
  return { ranked: [...ranked, ...byId.values()] };
}

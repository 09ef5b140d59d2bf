/**
 * Fusion and structured evidence shaping (docs/recall-design.md, "Fusion and shaping").
 * Channels are scored separately and combined per candidate:
 *   base  = alpha · semantic + (1 − alpha) · lexical           (bm25 already normalised per query)
 *   hint  lifts by max, never stacks; a hint-only match (no lexical hit, semantic below the anchor)
 *         is capped at hintOnlyCap
 *   traversal is a recall channel for candidates the other arms did not anchor (no lexical hit, no
 *         hint, semantic below the anchor): it lifts them by max, capped at unanchoredCap, below
 *         anchored evidence. Anchored candidates keep their score (measured on the dev set: letting
 *         traversal lift anchored candidates cost R@5, bench/quality.ts).
 */
import type { SearchConfig } from '../config/searchConfig';
import type { ChannelScores } from './recallTypes';

export interface ShapedScore {
  readonly score: number;
  readonly notes: string[];
}

export type ShapingConfig = Pick<SearchConfig, 'alpha' | 'hints' | 'traversal'>;

export function isAnchored(ch: ChannelScores, cfg: ShapingConfig): boolean {
  return ch.lexical > 0 || ch.hint > 0 || ch.semantic >= cfg.traversal.anchorSemantic;
}

/**
 * `semanticScale` puts the semantic channel on the lexical channel's scale before fusion (1 / the
 * query's best cosine, so the best semantic match is 1 as the best bm25 match is); 1 = raw cosine.
 */
export function shapeScore(ch: ChannelScores, cfg: ShapingConfig, semanticScale = 1): ShapedScore {
  const notes: string[] = [];
  let score = cfg.alpha * Math.min(1, ch.semantic * semanticScale) + (1 - cfg.alpha) * ch.lexical;
  if (cfg.hints.enabled && ch.hint > score) {
    const hintOnly = ch.lexical === 0 && ch.semantic < cfg.traversal.anchorSemantic;
    const lifted = hintOnly ? Math.min(ch.hint, cfg.hints.hintOnlyCap) : ch.hint;
    if (lifted > score) {
      score = lifted;
      notes.push(hintOnly && lifted < ch.hint ? `hint-only match capped at ${cfg.hints.hintOnlyCap}` : 'lifted by a matching hint');
    }
  }
  if (cfg.traversal.enabled && ch.traversal > 0) {
    if (isAnchored(ch, cfg)) {
      notes.push('also reached by graph traversal');
    } else if (ch.traversal > score) {
      score = Math.min(ch.traversal, cfg.traversal.unanchoredCap);
      notes.push(ch.traversal > cfg.traversal.unanchoredCap ? `traversal-only evidence capped at ${cfg.traversal.unanchoredCap}` : 'found by graph traversal');
    }
  }
  return { score: Math.min(1, Math.max(0, score)), notes };
}

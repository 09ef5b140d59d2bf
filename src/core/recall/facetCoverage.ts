/**
 * Facet coverage pass (docs/recall-design.md, "Stages after fusion"): for a query with more than one
 * facet (significant token), greedily pick the candidate maximising
 *   score + newFacetBonus · (facets it newly covers) − repeatPenalty · (covered facets it repeats)
 * over the head window, so multi-part questions get candidates covering different parts instead
 * of near-duplicates of one part. The picked candidate's score becomes that value.
 */
import type { SearchConfig } from '../config/searchConfig';
import { applyDelta } from './recallTypes';
import type { Candidate } from './recallTypes';
import { countHits } from './termProbe';

/** `weights`: facet → weight of its bonus and penalty (missing = 1). */
export function shapeByFacetCoverage(cands: readonly Candidate[], facets: readonly string[], window: number, cfg: SearchConfig['facets'], weights?: ReadonlyMap<string, number>): Candidate[] {
  if (!cfg.enabled || facets.length <= 1 || cands.length <= 1) return [...cands];
  const head = cands.slice(0, window);
  const tail = cands.slice(window);
  const facetSets = head.map((c) => facets.filter((f) => countHits([f], c.content) > 0));
  const covered = new Set<string>();
  const out: Candidate[] = [];
  const left = head.map((_, i) => i);
  while (left.length > 0) {
    let best = 0, bestValue = -Infinity, bestNew = 0, bestRep = 0;
    for (let k = 0; k < left.length; k++) {
      const fs = facetSets[left[k] as number] as string[];
      const wOf = (f: string): number => weights?.get(f) ?? 1;
      const fresh = fs.filter((f) => !covered.has(f)).reduce((a, f) => a + wOf(f), 0);
      const rep = fs.filter((f) => covered.has(f)).reduce((a, f) => a + wOf(f), 0);
      const value = (head[left[k] as number] as Candidate).score + cfg.newFacetBonus * fresh - cfg.repeatPenalty * rep;
      if (value > bestValue) { best = k; bestValue = value; bestNew = fresh; bestRep = rep; }
    }
    const idx = left.splice(best, 1)[0] as number;
    const c = head[idx] as Candidate;
    applyDelta(c, 'facets', cfg.newFacetBonus * bestNew - cfg.repeatPenalty * bestRep,
      weights ? `covers new query facets of weight ${bestNew.toFixed(2)}, repeats ${bestRep.toFixed(2)}` : `covers ${bestNew} new and ${bestRep} already covered query facets`);
    for (const f of facetSets[idx] as string[]) covered.add(f);
    out.push(c);
  }
  return out.concat(tail);
}

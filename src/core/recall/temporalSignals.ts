/**
 * Time-based signals.
 * - Temporal freshness prior: only for queries with an explicit freshness word
 *   (current, latest, recent, today, this week, this month; bare "now" does not count), a bounded
 *   created_at boost score × (1 + maxBoost · 0.5^(ageDays/halfLifeDays)), age counted from the
 *   newest candidate. Callers with since/until bounds are unchanged.
 * - Recency tie-breaker: score + maxBonus · rankStep · 0.5^(ageDays/30). The bonus is
 *   below one fusion rank step, so it only reorders near-ties and never overturns a clear gap.
 */
import type { SearchConfig } from '../config/searchConfig';
import { applyDelta, applyFactor, sortByScore } from './recallTypes';
import type { Candidate } from './recallTypes';

const DAY_MS = 86_400_000;
const FRESHNESS = /\b(current|currently|latest|recent|recently|today|this\s+week|this\s+month)\b/i;

export function hasFreshnessCue(query: string): boolean {
  return FRESHNESS.test(query);
}

/** Age in days at `nowMs`, never negative; an unparsable date counts as very old. */
export function ageDays(createdAt: string, nowMs: number): number {
  const t = Date.parse(createdAt);
  if (!Number.isFinite(t)) return Number.POSITIVE_INFINITY;
  return Math.max(0, (nowMs - t) / DAY_MS);
}

export function halfLifeDecay(age: number, halfLifeDays: number): number {
  return Math.pow(0.5, age / halfLifeDays);
}

/**
 * Age is measured from the newest of the top referenceWindow candidates (capped at now): "the
 * latest change" means the newest of what is stored about it, which can be months old when the
 * question comes; measured from the wall clock every old series would get the same (zero) boost,
 * and measured from the whole pool an unrelated fresh memory would set the reference.
 */
export function applyTemporalPrior(cands: Candidate[], query: string, nowMs: number, hasBounds: boolean, cfg: SearchConfig['temporalPrior']): Candidate[] {
  if (!cfg.enabled || hasBounds || !hasFreshnessCue(query) || cands.length === 0) return cands;
  let newest = Number.NEGATIVE_INFINITY;
  for (const c of cands.slice(0, cfg.referenceWindow)) { const t = Date.parse(c.createdAt); if (Number.isFinite(t)) newest = Math.max(newest, t); }
  const ref = Number.isFinite(newest) ? Math.min(nowMs, newest) : nowMs;
  for (const c of cands) {
    const factor = 1 + cfg.maxBoost * halfLifeDecay(ageDays(c.createdAt, ref), cfg.halfLifeDays);
    applyFactor(c, 'temporalPrior', factor, 'freshness word in the query favours newer memories');
  }
  return sortByScore(cands);
}

export function recencyBonus(createdAt: string, nowMs: number, cfg: SearchConfig['recency']): number {
  return cfg.maxBonus * cfg.rankStep * halfLifeDecay(ageDays(createdAt, nowMs), cfg.halfLifeDays);
}

export function applyRecencyTieBreak(cands: Candidate[], nowMs: number, cfg: SearchConfig['recency']): Candidate[] {
  if (!cfg.enabled) return cands;
  for (const c of cands) applyDelta(c, 'recency', recencyBonus(c.createdAt, nowMs, cfg));
  return sortByScore(cands);
}

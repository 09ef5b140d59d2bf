/**
 * Stage choice by combination (docs/recall-design.md, "Seventh round"): the fold rule judges each
 * switch with every other at its default, and on the LoCoMo development conversations its verdicts
 * did not hold when applied together. Here every combination of a few contested switches is
 * scored per conversation, and the choice is cross-validated: for each held-out conversation the
 * combination with the best R@10 on the other conversations is scored on the held-out one.
 * Pure functions over the per-part scores; bench/quality.ts (`--combinations`) runs the variants.
 */
import { aggregate } from './devset';
import type { AggregateScore, QuestionScore } from './devset';

/** Every subset of `rows` (the toggles to flip), the empty one (the defaults) first. */
export function subsets<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let mask = 0; mask < 1 << rows.length; mask++) out.push(rows.filter((_, i) => (mask & (1 << i)) !== 0));
  return out;
}

/** One combination's question scores per part (conversation). */
export type CombinationScores = Readonly<Record<string, readonly QuestionScore[]>>;

export interface CombinationChoice {
  /**
   * Every combination's R@10 over all parts, best first, with its difference from the defaults
   * and that difference's 95 % interval (paired over the questions, pairedDifference).
   */
  readonly ranking: Array<{ name: string; recallAt10: number; vsDefaults: { mean: number; low: number; high: number } }>;
  /** Per held-out part: the combination chosen on the others, its held-out score and the defaults' there. */
  readonly folds: Record<string, { chosen: string; heldOut: AggregateScore; defaults: AggregateScore }>;
  /** The held-out scores of every fold together. */
  readonly crossValidated: AggregateScore;
  /** The defaults (`defaultsName`) over all parts. */
  readonly defaults: AggregateScore;
}

/**
 * The mean of b − a over paired question scores (R@10) and its normal 95 % interval
 * (± 1.96 standard errors): a difference whose interval holds 0 is not told apart from noise.
 */
export function pairedDifference(a: readonly QuestionScore[], b: readonly QuestionScore[]): { mean: number; low: number; high: number } {
  if (a.length !== b.length) throw new Error(`paired difference of ${a.length} and ${b.length} scores`);
  const n = a.length;
  if (n === 0) return { mean: 0, low: 0, high: 0 };
  const d = b.map((q, i) => q.recallAt10 - (a[i] as QuestionScore).recallAt10);
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const variance = n > 1 ? d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : 0;
  const half = 1.96 * Math.sqrt(variance / n);
  return { mean, low: mean - half, high: mean + half };
}

/** A combination's question scores on `parts`, in part order. */
const scoresOn = (c: CombinationScores, parts: readonly string[]): QuestionScore[] => parts.flatMap((p) => c[p] ?? []);

/**
 * Leave-one-part-out choice among `combinations` (name → scores per part); on a tie the defaults
 * (`defaultsName`) stay, then the combination listed first.
 */
export function chooseCombination(combinations: ReadonlyMap<string, CombinationScores>, defaultsName: string): CombinationChoice {
  const defaults = combinations.get(defaultsName);
  if (!defaults) throw new Error(`stage combinations: no combination named ${defaultsName}`);
  const parts = Object.keys(defaults);
  // The defaults are tried first, so a change must be better on the training parts to be chosen.
  const names = [defaultsName, ...[...combinations.keys()].filter((n) => n !== defaultsName)];
  const ranking = names.map((name) => {
    const c = combinations.get(name) as CombinationScores;
    return { name, recallAt10: aggregate(scoresOn(c, parts)).overall.recallAt10, vsDefaults: pairedDifference(scoresOn(defaults, parts), scoresOn(c, parts)) };
  }).sort((a, b) => b.recallAt10 - a.recallAt10);
  const folds: CombinationChoice['folds'] = {};
  const held: QuestionScore[] = [];
  for (const part of parts) {
    const train = parts.filter((p) => p !== part);
    let chosen = names[0] as string, best = -1;
    for (const name of names) {
      const r = aggregate(scoresOn(combinations.get(name) as CombinationScores, train)).overall.recallAt10;
      if (r > best + 1e-12) { best = r; chosen = name; }
    }
    const scores = (combinations.get(chosen) as CombinationScores)[part] ?? [];
    held.push(...scores);
    folds[part] = { chosen, heldOut: aggregate(scores).overall, defaults: aggregate(defaults[part] ?? []).overall };
  }
  return { ranking, folds, crossValidated: aggregate(held).overall, defaults: aggregate(scoresOn(defaults, parts)).overall };
}

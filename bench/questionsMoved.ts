/**
 * How many questions a switch moves, for reading the fold rule (docs/recall-design.md, "Eleventh
 * round"): a conversation's R@10 difference of 0.01 is often one question of 81–199, and the same
 * difference can be one question lost or ten gained and eleven lost. Pure; bench/quality.ts prints it.
 */
import type { QuestionScore } from './devset';

/** Questions whose R@10 is higher (`better`) or lower (`worse`) with the switch on than off, paired by position. */
export function questionsMoved(on: readonly QuestionScore[], off: readonly QuestionScore[]): { better: number; worse: number } {
  if (on.length !== off.length) throw new Error(`questions moved: ${on.length} and ${off.length} scores`);
  let better = 0, worse = 0;
  on.forEach((q, i) => {
    const d = q.recallAt10 - (off[i] as QuestionScore).recallAt10;
    if (d > 1e-9) better++;
    else if (d < -1e-9) worse++;
  });
  return { better, worse };
}

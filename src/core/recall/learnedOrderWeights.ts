/**
 * Written by bench/trainOrder.ts (do not edit by hand): the learned order's weights
 * (learnedOrder.ts), fitted on the LoCoMo development conversations (760 questions);
 * leave one conversation out they gave R@10 0.795 against 0.746 without the stage, on the
 * stage's window (before currentness and the later stages; through the whole pipeline: docs/recall-design.md).
 */
import type { LearnedOrderWeights } from './learnedOrder';

export const LEARNED_ORDER_WEIGHTS: LearnedOrderWeights = {
  position: 0.8386, lexicalRank: 0.164, semanticRank: -0.1338, lexical: 2.1738, semantic: 0.8316, question: -0.8584, short: -0.8183, long: 0.5396, firstPerson: 0.786, namedAuthor: 0.8049, otherAuthor: -1.4198, nearBest: 1.278,
};

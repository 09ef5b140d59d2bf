/**
 * Written by bench/trainOrder.ts (do not edit by hand): the learned order's weights
 * (learnedOrder.ts), fitted on the LoCoMo development conversations (760 questions);
 * leave one conversation out they gave R@10 0.801 against 0.746 without the stage, on the
 * stage's window (before currentness and the later stages; through the whole pipeline: docs/recall-design.md).
 */
import type { LearnedOrderWeights } from './learnedOrder';

export const LEARNED_ORDER_WEIGHTS: LearnedOrderWeights = {
  position: 0.556, lexicalRank: 0.1576, semanticRank: -0.0713, lexical: 2.4463, semantic: 1.3631, question: -0.7324, short: -0.7342, long: 0.5286, firstPerson: 0.6582, namedAuthor: 0.8611, otherAuthor: -1.4548, nearBest: 0.3007, sameSession: 0.2252, neighbourPlace: 0.5089, answersQuestion: 0.4709,
};

/**
 * Written by bench/trainOrder.ts (do not edit by hand): the learned order's weights
 * (learnedOrder.ts), fitted on the LoCoMo development conversations (760 questions);
 * leave one conversation out they gave R@10 0.824 against 0.772 without the stage, on the
 * stage's window (before currentness and the later stages; through the whole pipeline: docs/recall-design.md).
 */
import type { LearnedOrderWeights } from './learnedOrder';

export const LEARNED_ORDER_WEIGHTS: LearnedOrderWeights = {
  position: 0.4314, lexicalRank: 0.1372, semanticRank: -0.1781, lexical: 2.1378, semantic: 3.0474, question: -0.3492, short: -0.3023, long: 0.2877, firstPerson: 0.3419, namedAuthor: 0.9232, otherAuthor: -1.415, nearBest: 0.5288, sameSession: 0.208, neighbourPlace: 0.4812, answersQuestion: 0.261, novelty: 0.9353,
};

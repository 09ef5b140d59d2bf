/**
 * Written by bench/trainOrder.ts (do not edit by hand): the learned order's weights
 * (learnedOrder.ts), fitted on the LoCoMo development conversations (760 questions);
 * leave one conversation out they gave R@10 0.835 against 0.776 without the stage, on the
 * stage's window (before currentness and the later stages; through the whole pipeline: docs/recall-design.md).
 */
import type { LearnedOrderWeights } from './learnedOrder';

export const LEARNED_ORDER_WEIGHTS: LearnedOrderWeights = {
  position: 0.405, lexicalRank: 0.1041, semanticRank: -0.1225, lexical: 2.135, semantic: 3.0225, question: -0.4101, short: -0.291, long: 0.2009, firstPerson: 0.3415, namedAuthor: 1.0038, otherAuthor: -1.281, nearBest: 0.5563, sameSession: 0.2548, neighbourPlace: 0.4266, answersQuestion: 0.2374, novelty: 1.4801,
};

/**
 * Written by bench/trainOrder.ts (do not edit by hand): the learned order's weights
 * (learnedOrder.ts), fitted on the LoCoMo development conversations (760 questions);
 * leave one conversation out they gave R@10 0.819 against 0.772 without the stage, on the
 * stage's window (before currentness and the later stages; through the whole pipeline: docs/recall-design.md).
 */
import type { LearnedOrderWeights } from './learnedOrder';

export const LEARNED_ORDER_WEIGHTS: LearnedOrderWeights = {
  position: 0.4234, lexicalRank: 0.1223, semanticRank: -0.1861, lexical: 2.0913, semantic: 2.8871, question: -0.3213, short: -0.3099, long: 0.2635, firstPerson: 0.3339, namedAuthor: 0.9098, otherAuthor: -1.4078, nearBest: 0.5346, sameSession: 0.1884, neighbourPlace: 0.4881, answersQuestion: 0.2724,
};

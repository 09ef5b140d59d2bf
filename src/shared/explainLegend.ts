/**
 * The recall explanation's legend and relevance floor for the Knowledge panel webview, which may
 * import only src/shared. The text is src/core/recall/explainText.ts's (the core cannot import
 * this folder); test/unit/recall/explainText.test.ts keeps the two equal.
 */

/** Results below this share of the best result's score are held back from the playground's list. */
export const RELEVANCE_FLOOR = 0.35;

/** What each line of "Why was this recalled?" means. */
export const EXPLAIN_LEGEND: readonly string[] = [
  'Relevance (0–1): the score relative to the best result for this question; the first result is 1.00.',
  'Match (0–1): how well the words and the meaning of the memory match the question, before the ranking steps below.',
  'Ranking steps change a result\'s score by a percentage; a step is listed only where it changed that result:',
  'nearby turn — said next to a strong match in the same conversation;',
  'newer first — the question asks for the latest state, so newer memories rank higher;',
  'date named — written near a date the question names;',
  'second look — the question and the memory compared as a whole, which reorders the top results;',
  'still current / superseded — whether facts in the memory were later replaced;',
  'detail — decisions, constraints and dated memories with enough detail rank a little higher;',
  'covers the question — adds parts of the question the results above did not cover;',
  'pinned — about an entity you pinned (only when it is relevant to the question);',
  'other speaker — the question is about a person it names, and someone else wrote this memory;',
  'learned order — in a conversation between two people, the best results reordered by a small model learned from real conversations (how each search ranked the memory, whether it states something or only asks, who wrote it, whether it answers a question or sits beside other good matches, whether its author says it for the first time or comes back to it); it moves a result between places and gives it that place\'s score;',
  'graph — mentions an entity the question names; common entities only — mentions only entities that appear everywhere; meaning only — similar in meaning but shares no word with the question.',
];

/**
 * Words a question is built from rather than about (docs/recall-design.md, "Question words"): the
 * prepositions of common English stop lists that STOP_WORDS (queryTerms.ts) leaves in (the
 * pronouns are stop words there), and the scaffolding of "what kind of", "how many", "how long ago", "describe", "mention".
 * They match half of a conversation and say nothing of the answer; with `lexical.questionWords`
 * on they are dropped from the query's terms and facets.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'during', 'after', 'before', 'between', 'both', 'through', 'while', 'because', 'until', 'other', 'such', 'same',
  'own', 'only', 'more', 'most', 'few', 'kind', 'kinds', 'type', 'types', 'sort', 'many', 'much', 'long', 'ago',
  'describe', 'mention', 'mentioned', 'say', 'said',
]);

/** `terms` without question words; all of them when nothing else would be left. */
export function withoutQuestionWords(terms: readonly string[]): string[] {
  const kept = terms.filter((t) => !QUESTION_WORDS.has(t));
  return kept.length > 0 ? kept : [...terms];
}

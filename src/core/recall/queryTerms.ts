/**
 * Query text → terms. Term probing (docs/recall-design.md, "Term probing"): split on punctuation and whitespace, strip question
 * shells (English "what is", "how do I", ...; Chinese 好了吗, 是多少, 吗, 呢, ...), drop stop words.
 * Nothing here touches SQL; ftsQuery.ts turns terms into a safe MATCH expression.
 */

/** English stop words (lowercase). Shared by probing, gravity dampening and facet coverage. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'if', 'then', 'else', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'with',
  'about', 'as', 'into', 'from', 'up', 'down', 'out', 'over', 'under', 'is', 'are', 'was', 'were', 'be', 'been',
  'being', 'am', 'do', 'does', 'did', 'doing', 'done', 'have', 'has', 'had', 'having', 'i', 'me', 'my', 'we',
  'us', 'our', 'you', 'your', 'he', 'she', 'it', 'its', 'they', 'them', 'their', 'this', 'that', 'these',
  'those', 'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how', 'can', 'could', 'should',
  'would', 'will', 'shall', 'may', 'might', 'must', 'there', 'here', 'so', 'than', 'too', 'very', 'just',
  'not', 'no', 'any', 'some', 'all', 'each', 'also', 'again', 'still', 'tell', 'please', 'know', 'use', 'used',
  'using', 'get', 'got', 'one', 'thing', 'things', 'whats', 's', 't', 'don', 'doesn', 'didn', 'isn', 'aren',
  // Object and possessive pronouns ("what did her kids paint?"): common English stop lists hold
  // them, they match half of a conversation and say nothing of the answer (docs/recall-design.md,
  // "Third round").
  'his', 'her', 'hers', 'him', 'himself', 'herself', 'itself', 'themselves', 'myself', 'ourselves', 'yourself', 'yourselves', 'theirs', 'ours', 'yours',
  // Intent cues (freshness and history words steer the temporal stages, they are not content).
  'current', 'currently', 'latest', 'recent', 'recently', 'now', 'today', 'previously', 'formerly', 'originally', 'earlier',
  '的', '了', '是', '在', '和', '我', '我们', '你', '他', '她', '它', '这', '那', '什么', '怎么', '如何', '吗', '呢', '吧', '啊',
]);

/** English question shells at the start of a query, longest first. */
const EN_SHELLS: readonly string[] = [
  'can you tell me', 'could you tell me', 'do you know', 'do you remember', 'remind me', 'tell me',
  'what do we use for', 'what do we use', 'what did we decide about', 'what did we decide', 'what was decided about',
  'how do i', 'how do we', 'how did we', 'how can i', 'how can we', 'how should i', 'how should we', 'how to',
  'what is the', 'what are the', 'what was the', 'what were the', 'what is', "what's", 'what are', 'what was', 'what were',
  'where is', 'where are', 'where do', 'which', 'why did we', 'why do we', 'why is', 'is there', 'are there',
  'do we', 'did we', 'does the', 'does',
];

/** Chinese question shells: leading particles and trailing question endings, longest first. */
const ZH_PREFIXES: readonly string[] = ['请问一下', '请问', '我想知道', '告诉我', '如何', '怎么', '怎样'];
const ZH_SUFFIXES: readonly string[] = [
  '好了没有', '好了吗', '完成了吗', '是多少', '是什么', '有哪些', '在哪里', '在哪儿', '怎么样', '怎么办', '做完了吗',
  '了没有', '了吗', '没有', '吗', '呢', '么', '吧', '啊', '呀',
];

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const WORD_RUN = /[\p{L}\p{N}_]+/gu;
const SCRIPT_SPLIT = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/gu;

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/** Lowercased runs of letters/digits; CJK runs are separated from Latin/digit runs. */
export function wordRuns(text: string): string[] {
  const out: string[] = [];
  for (const run of text.normalize('NFKC').toLowerCase().match(WORD_RUN) ?? []) {
    if (!hasCjk(run)) { out.push(run); continue; }
    for (const part of run.match(SCRIPT_SPLIT) ?? []) out.push(part);
  }
  return out;
}

/** Content tokens as FTS5 unicode61 sees Latin text (lowercase alphanumeric runs of 2+). */
export function contentTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const run of wordRuns(text)) if (run.length >= 2 && !hasCjk(run)) out.add(run);
  return out;
}

/** Removes a leading English shell and Chinese leading/trailing shells, per clause. */
export function stripQuestionShells(query: string): string {
  const clauses = query.normalize('NFKC').split(/[?？!！。;；\n]+/u);
  return clauses.map((clause) => {
    let c = clause.trim();
    const lower = c.toLowerCase();
    for (const shell of EN_SHELLS) {
      if (lower === shell || lower.startsWith(shell + ' ')) { c = c.slice(shell.length).trim(); break; }
    }
    for (let changed = true; changed;) {
      changed = false;
      for (const p of ZH_PREFIXES) if (c.startsWith(p)) { c = c.slice(p.length).trim(); changed = true; }
      for (const s of ZH_SUFFIXES) if (c.length > s.length && c.endsWith(s)) { c = c.slice(0, -s.length).trim(); changed = true; }
    }
    return c;
  }).join(' ');
}

/** CJK runs longer than this are cut into two-character pieces so they can be probed. */
export const CJK_MAX_RUN = 4;

/**
 * Terms of a query for probing and FTS: shells stripped, split on punctuation and whitespace,
 * lowercased, stop words and one-character Latin tokens dropped, deduplicated, first `maxTerms`.
 */
export function queryTerms(query: string, maxTerms: number): string[] {
  const out: string[] = [];
  const push = (t: string): void => { if (!STOP_WORDS.has(t) && !out.includes(t)) out.push(t); };
  for (const run of wordRuns(stripQuestionShells(query))) {
    if (hasCjk(run)) {
      if (run.length <= CJK_MAX_RUN) { if (run.length >= 2 || out.length === 0) push(run); continue; }
      for (let i = 0; i < run.length; i += 2) { const piece = run.slice(i, i + 2); if (piece.length === 2) push(piece); }
    } else if (run.length >= 2) {
      push(run);
    }
  }
  return out.slice(0, maxTerms);
}

/** Query tokens for dampening and facets: lowercase runs of 2+, not stop words. */
export function significantTokens(text: string): string[] {
  const out: string[] = [];
  for (const run of wordRuns(text)) if (run.length >= 2 && !STOP_WORDS.has(run) && !out.includes(run)) out.push(run);
  return out;
}

/**
 * Graph-boost tokens: runs of 2+ alphanumerics, lowercased, minus stop words so that
 * "is" or "the" never LIKE-match half the entity table.
 */
export function graphTokens(text: string): string[] {
  return significantTokens(text);
}

import type { SqlReader, SqlWriter } from '../store/storeTypes';
import { distinctiveTokens, textTokens, writeUsageEvidence } from '../hooks/hookUsage';
import type { UsageVerdict } from '../hooks/hookUsage';

/**
 * "Used" evidence for chat answers composed from recalled memories (`@memory`; docs/feedback.md).
 * Being shown is not use, and neither is being quoted: the answer prompt lists every memory, so a
 * model that copies them (or echoes the prompt) would otherwise confirm all of them. A memory
 * counts as used when its distinctive tokens (identifiers, values, names: hookUsage.ts) appear in
 * the model's own words — the answer with every verbatim quote of a shown memory cut out — and
 * were not already in the user's words (a memory recalled because it shares the question's words
 * would otherwise confirm itself when the answer repeats the question).
 */

/** Harnesses whose sessions take their paid-off evidence from answers and explicit actions, not the transcript-overlap proxy. */
export const ANSWER_EVIDENCE_HARNESSES: ReadonlySet<string> = new Set(['vscode-chat']);

/** A run of this many words shared with a memory is a quote of it (shorter memories: all their words in a row). */
export const QUOTE_MIN_WORDS = 5;

const WORD = /[\p{L}\p{N}_]+/gu;

function words(text: string): { w: string; start: number; end: number }[] {
  return [...text.matchAll(WORD)].map((m) => ({ w: m[0].toLowerCase(), start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
}

/**
 * The answer with every verbatim quote of a memory removed: each run of QUOTE_MIN_WORDS (or all of
 * a shorter memory's) consecutive words that also occurs consecutively in one memory is cut, with
 * the punctuation between its words. What remains is what the model wrote in its own words.
 */
export function withoutQuotes(answer: string, memories: readonly string[]): string {
  const aw = words(answer);
  if (!aw.length) return '';
  const cut = new Array<boolean>(aw.length).fill(false);
  for (const content of memories) {
    const mw = words(content).map((x) => x.w);
    if (!mw.length) continue;
    const n = Math.min(QUOTE_MIN_WORDS, mw.length);
    const grams = new Set<string>();
    for (let i = 0; i + n <= mw.length; i++) grams.add(mw.slice(i, i + n).join(' '));
    for (let i = 0; i + n <= aw.length; i++) {
      if (grams.has(aw.slice(i, i + n).map((x) => x.w).join(' '))) for (let j = i; j < i + n; j++) cut[j] = true;
    }
  }
  let out = '';
  let pos = 0;
  for (let i = 0; i < aw.length; i++) {
    const x = aw[i] as { start: number; end: number };
    if (!cut[i]) continue;
    let end = x.end;
    while (i + 1 < aw.length && cut[i + 1]) end = (aw[++i] as { end: number }).end;
    out += answer.slice(pos, x.start) + ' ';
    pos = end;
  }
  return out + answer.slice(pos);
}

/**
 * Which shown memories one answer used: distinctive tokens of the memory, less those of the user's
 * words, found in the answer without its quotes; used when at least min(2, remaining tokens) are.
 * A memory with no distinctive token outside the user's words gives no evidence (left out).
 */
export function answerUsageVerdicts(shown: readonly { readonly id: string; readonly content: string }[], answer: string, userText: string): UsageVerdict[] {
  const own = textTokens(withoutQuotes(answer, shown.map((m) => m.content)));
  const asked = textTokens(userText);
  const out: UsageVerdict[] = [];
  for (const m of shown) {
    const tokens = [...distinctiveTokens(m.content)].filter((t) => !asked.has(t));
    if (!tokens.length) continue;
    const hits = tokens.filter((t) => own.has(t)).length;
    out.push({ memoryId: m.id, hits, distinctive: tokens.length, used: hits >= Math.min(2, tokens.length) });
  }
  return out;
}

/**
 * Records one assistant answer's evidence on its session's injected rows (kept at their maxima
 * across answers: once used in a conversation, used, until an explicit 👎 or *wrong* says
 * otherwise, userFeedback.ts). Called once the answer's own turn is appended. Returns the verdicts.
 */
export function recordAnswerUsage(db: SqlWriter, sessionKey: string, agentId: string, answer: string): UsageVerdict[] {
  const shown = db.all<{ id: string; content: string }>(
    `SELECT m.id AS id, m.content AS content FROM session_memories sm JOIN memories m ON m.id = sm.memory_id
     WHERE sm.session_key = ? AND sm.agent_id = ? AND sm.was_injected = 1 ORDER BY sm.rank, sm.memory_id`, [sessionKey, agentId]);
  if (!shown.length) return [];
  // The user's words are the request this answer responds to: the latest user turn. (Not the whole
  // session's: a note the user typed earlier, e.g. `@memory /remember …`, which records no answer
  // turn, is the very memory shown now, and excluding its words left no evidence: "0 of 0".)
  const userText = db.all<{ text: string }>(
    "SELECT text FROM session_turns WHERE session_key = ? AND role = 'user' ORDER BY seq DESC LIMIT 1", [sessionKey]).map((t) => t.text).join('\n');
  const verdicts = answerUsageVerdicts(shown, answer, userText);
  writeUsageEvidence(db, sessionKey, agentId, verdicts.filter((v) => v.used));
  return verdicts;
}

/** The session score of an answer-evidence session: the share of injected memories used (explicit actions included). */
export function answerEvidenceScore(db: SqlReader, sessionKey: string, agentId: string, paidOffRelevance: number): { injected: number; used: number; score: number; reasoning: string } {
  const r = db.get<{ injected: number; used: number }>(
    'SELECT COUNT(*) AS injected, COALESCE(SUM(fts_hit_count > 0 OR COALESCE(relevance_score, 0) >= ?), 0) AS used FROM session_memories WHERE session_key = ? AND agent_id = ? AND was_injected = 1',
    [paidOffRelevance, sessionKey, agentId]) ?? { injected: 0, used: 0 };
  const score = r.injected ? r.used / r.injected : 0;
  return { ...r, score, reasoning: `answer evidence: ${r.used} of ${r.injected} shown memories used in the model's own words or marked useful by the user` };
}

import type { ContradictionConfig } from '../config/extractionConfig';
import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import { parseLlmJson } from './llmJson';

/**
 * Contradiction detection.
 * The syntactic fast path is pure; the semantic path asks the LLM only when the syntactic path
 * said no and the statements share enough tokens. Both are advisory: failures mean "no".
 */

/** Lowercase, non-alphanumerics become spaces, tokens of at least 2 characters. */
export function contradictionTokens(text: string): string[] {
  return text.toLowerCase().replace(/['’]/g, '').replace(/[^a-z0-9]+/g, ' ').split(' ').filter((t) => t.length >= 2);
}

export function sharedTokenCount(a: string, b: string): number {
  const sa = new Set(contradictionTokens(a));
  let n = 0;
  for (const t of new Set(contradictionTokens(b))) if (sa.has(t)) n++;
  return n;
}

export type ContradictionReason = 'negation' | 'antonym' | 'semantic' | 'none';

export interface ContradictionVerdict {
  readonly contradicts: boolean;
  readonly confidence: number;
  readonly reason: ContradictionReason;
  readonly detail: string;
}

const NONE: ContradictionVerdict = { contradicts: false, confidence: 0, reason: 'none', detail: '' };

/** Confidence the syntactic detectors report (default negation 0.85, antonym 0.8). */
export const NEGATION_CONFIDENCE = 0.85;
export const ANTONYM_CONFIDENCE = 0.8;

/** Syntactic fast path: ≥ minOverlap shared tokens, then negation polarity or an antonym pair. */
export function detectSyntacticContradiction(a: string, b: string, cfg: ContradictionConfig): ContradictionVerdict {
  const ta = new Set(contradictionTokens(a));
  const tb = new Set(contradictionTokens(b));
  let overlap = 0;
  for (const t of ta) if (tb.has(t)) overlap++;
  if (overlap < cfg.syntacticMinOverlap) return NONE;
  const neg = new Set(cfg.negationTokens);
  const negA = [...ta].some((t) => neg.has(t));
  const negB = [...tb].some((t) => neg.has(t));
  if (negA !== negB) return { contradicts: true, confidence: NEGATION_CONFIDENCE, reason: 'negation', detail: 'negation polarity differs' };
  for (const [x, y] of cfg.antonymPairs) {
    const aX = ta.has(x) && !ta.has(y);
    const aY = ta.has(y) && !ta.has(x);
    const bX = tb.has(x) && !tb.has(y);
    const bY = tb.has(y) && !tb.has(x);
    if ((aX && bY) || (aY && bX)) return { contradicts: true, confidence: ANTONYM_CONFIDENCE, reason: 'antonym', detail: `${x}/${y}` };
  }
  return NONE;
}

export function contradictionPrompt(a: string, b: string): string {
  return [
    'Decide whether statement A contradicts statement B: both cannot be true at the same time about the same thing.',
    'Complementary or unrelated statements do not contradict.',
    'Example contradiction: A "The API uses PostgreSQL." B "We migrated the API to MongoDB." -> contradicts true.',
    'Example complementary: A "The API uses PostgreSQL." B "The API caches sessions in Redis." -> contradicts false.',
    `A: ${JSON.stringify(a)}`,
    `B: ${JSON.stringify(b)}`,
    'Answer with one JSON object only: {"contradicts": true|false, "confidence": 0..1, "reasoning": "one sentence"}',
  ].join('\n');
}

/** Parses the LLM's verdict; undefined when no object with a boolean `contradicts` is found. */
export function parseContradictionAnswer(text: string): ContradictionVerdict | undefined {
  const obj = parseLlmJson(text, (v) => 'contradicts' in v);
  if (!obj || typeof obj.contradicts !== 'boolean') return undefined;
  const c = typeof obj.confidence === 'number' && Number.isFinite(obj.confidence) ? Math.min(1, Math.max(0, obj.confidence)) : 0.5;
  return { contradicts: obj.contradicts, confidence: c, reason: obj.contradicts ? 'semantic' : 'none', detail: typeof obj.reasoning === 'string' ? obj.reasoning : '' };
}

export interface ContradictionDeps {
  readonly config: ContradictionConfig;
  readonly llm: LlmClient | undefined;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
}

/**
 * Full check: syntactic first; if it says no, the semantic path runs only when enabled, an LLM
 * is available and the statements share at least `semanticMinOverlap` tokens. Timeouts, LLM
 * errors and unparsable answers mean "no contradiction". Never rejects.
 */
export async function detectContradiction(a: string, b: string, deps: ContradictionDeps): Promise<ContradictionVerdict> {
  const syntactic = detectSyntacticContradiction(a, b, deps.config);
  if (syntactic.contradicts) return syntactic;
  if (!deps.config.semanticEnabled || !deps.llm) return NONE;
  if (sharedTokenCount(a, b) < deps.config.semanticMinOverlap) return NONE;
  const controller = new AbortController();
  const timeoutMs = deps.config.semanticTimeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = (): void => controller.abort();
  deps.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const timeout = new Promise<undefined>((resolve) => { timer = setTimeout(() => { controller.abort(); resolve(undefined); }, timeoutMs); });
    const answer = await Promise.race([deps.llm.complete(contradictionPrompt(a, b), { timeoutMs, signal: controller.signal }), timeout]);
    if (answer === undefined) { deps.logger.debug('semantic contradiction check timed out'); return NONE; }
    return parseContradictionAnswer(answer) ?? NONE;
  } catch (e) {
    deps.logger.debug(`semantic contradiction check failed: ${e instanceof Error ? e.message : String(e)}`);
    return NONE;
  } finally {
    if (timer) clearTimeout(timer);
    deps.signal?.removeEventListener('abort', onAbort);
  }
}

import { extractJsonObject } from './llmText';

/** How a continuity score was obtained: by the LLM, or by the deterministic overlap proxy. */
/** 'usage': from evidence of use (chat answers' own words, explicit actions; answerUsage.ts), not the transcript. */
export type ContinuityMethod = 'llm' | 'proxy' | 'usage';

export interface ContinuityResult {
  readonly method: ContinuityMethod;
  /** Overall usefulness of the injected memories, [0, 1]. */
  readonly score: number;
  readonly confidence: number;
  readonly memoriesUsed: number;
  readonly novelContextCount: number;
  readonly reasoning: string;
  /** Relevance per full memory id, [0, 1]. */
  readonly perMemory: ReadonlyMap<string, number>;
}

/** An injected memory as the scorer sees it (session_memories was_injected = 1, by rank). */
export interface InjectedMemory {
  readonly id: string;
  readonly content: string;
  readonly score: number;
}

/** Length of the id prefix the LLM sees and answers with. */
export const ID_PREFIX_LENGTH = 8;
const PREVIEW_CHARS = 120;
const SUMMARY_CHARS = 2_000;

export function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

function numberOr(v: unknown, def: number): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return def;
}

/** The continuity-scoring prompt. */
export function buildContinuityPrompt(injected: readonly InjectedMemory[], summary: string, transcript: string, transcriptChars: number): string {
  const lines = injected.map((m) => `- [${m.id.slice(0, ID_PREFIX_LENGTH)}] (score=${m.score.toFixed(2)}) ${m.content.replace(/\s+/g, ' ').slice(0, PREVIEW_CHARS)}`);
  return [
    'You evaluate how useful memories injected at the start of a coding session were.',
    'Injected memories:',
    lines.length ? lines.join('\n') : '(none)',
    '',
    'Session summary:',
    summary.slice(0, SUMMARY_CHARS) || '(none)',
    '',
    'Transcript (end):',
    transcript.slice(-transcriptChars),
    '',
    'Were the memories relevant? Did the user have to re-explain anything the memories should have covered? Where were the gaps?',
    'Answer with JSON only:',
    '{"score":0-1,"confidence":0-1,"memories_used":n,"novel_context_count":n,"reasoning":"...","per_memory":[{"id":"<8-char prefix>","relevance":0-1}]}',
  ].join('\n');
}

/**
 * Parses the scorer's answer: fences and <think> blocks stripped,
 * missing optional fields default to zero/empty, scores clamped to [0, 1], per-memory prefixes
 * mapped back to full ids (unknown prefixes skipped). Undefined when there is no numeric score.
 */
export function parseContinuityResponse(text: string, injectedIds: readonly string[]): ContinuityResult | undefined {
  const obj = extractJsonObject(text);
  if (!obj) return undefined;
  const rawScore = numberOr(obj.score, Number.NaN);
  if (Number.isNaN(rawScore)) return undefined;
  return {
    method: 'llm',
    score: clamp01(rawScore),
    confidence: clamp01(numberOr(obj.confidence, 0)),
    memoriesUsed: Math.max(0, Math.round(numberOr(obj.memories_used, 0))),
    novelContextCount: Math.max(0, Math.round(numberOr(obj.novel_context_count, 0))),
    reasoning: typeof obj.reasoning === 'string' ? obj.reasoning : '',
    perMemory: mapPrefixRelevance(obj.per_memory, injectedIds),
  };
}

/** Maps `[{id: prefix, relevance}]` onto full ids; ambiguous or unknown prefixes are skipped. */
export function mapPrefixRelevance(perMemory: unknown, injectedIds: readonly string[]): Map<string, number> {
  const byPrefix = new Map<string, string | null>();
  for (const id of injectedIds) {
    const prefix = id.slice(0, ID_PREFIX_LENGTH).toLowerCase();
    byPrefix.set(prefix, byPrefix.has(prefix) && byPrefix.get(prefix) !== id ? null : id);
  }
  const out = new Map<string, number>();
  if (!Array.isArray(perMemory)) return out;
  for (const entry of perMemory) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as Record<string, unknown>;
    if (typeof e.id !== 'string') continue;
    const full = byPrefix.get(e.id.trim().replace(/^\[|\]$/g, '').slice(0, ID_PREFIX_LENGTH).toLowerCase());
    const rel = numberOr(e.relevance, Number.NaN);
    if (!full || Number.isNaN(rel)) continue;
    out.set(full, clamp01(rel));
  }
  return out;
}

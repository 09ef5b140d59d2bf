import { stripFences, stripThinkBlocks } from '../sessions/llmText';

/**
 * Prompt and parsing of prospective hints:
 * future questions a memory would answer, one per line.
 */
const MIN_CHARS = 11;
const MAX_CHARS = 299;
const QUESTION_START = /^(tell|describe|explain|show|what|who|where|when|why|how|which|does|did|is|are|can|could|has|have|will|would|do|should)\b/i;
const RESIDUE = /^(however|let's|let me|we need to|i need to|okay|ok,|here are|here is|the user|note:)|diverse questions|one per line|no numbering/i;
const LABEL = /^(direct|temporal|relational|indirect|conversational|indirect\/conversational)\s*:?\s*$/i;
const LABEL_PREFIX = /^(direct|temporal|relational|indirect|conversational)\s*:\s*/i;

export function buildHintsPrompt(content: string, max: number): string {
  return [
    `Write ${max} diverse questions or cues a developer might later ask that this memory answers.`,
    'Mix direct, temporal, relational and indirect/conversational phrasings.',
    'One per line, no numbering, no commentary.',
    '',
    'Memory:',
    content.slice(0, 2_000),
  ].join('\n');
}

/** Cleans LLM output into at most `max` distinct hints (case-insensitive dedupe). */
export function parseHints(text: string, max: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of stripFences(stripThinkBlocks(text)).split(/\r?\n/)) {
    let line = raw.trim().replace(/^(?:[-*•]+|\d+[.)]|\(\d+\))\s*/, '').replace(/^["'`]|["'`]$/g, '').trim();
    if (LABEL.test(line)) continue;
    line = line.replace(LABEL_PREFIX, '').trim();
    if (line.length < MIN_CHARS || line.length > MAX_CHARS) continue;
    if (RESIDUE.test(line)) continue;
    if (!line.endsWith('?') && !QUESTION_START.test(line)) continue;
    const key = line.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(line);
    if (out.length >= max) break;
  }
  return out;
}

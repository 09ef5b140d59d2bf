import { clamp01 } from './continuityScore';
import type { ContinuityResult, InjectedMemory } from './continuityScore';

/**
 * The deterministic no-LLM continuity proxy.
 *
 * A memory's relevance is the share of its distinct content words (3+ letters/digits, not stop
 * words) that occur in the transcript. The session score is the mean relevance of the injected
 * memories; a memory counts as used when its relevance reaches USED_THRESHOLD. Confidence is fixed
 * low (PROXY_CONFIDENCE) because word overlap is only a hint of use. Results carry method 'proxy'.
 */
export const PROXY_CONFIDENCE = 0.3;
export const USED_THRESHOLD = 0.5;

const STOP = new Set(('the and for are but not you all any can had her was one our out has have this that with from they will ' +
  'would there their what when which who into than then them these those been being its also just over such only some very ' +
  'use used using should could about after before more most other may might must shall does did done each where while').split(' '));

export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []) if (!STOP.has(w)) out.add(w);
  return out;
}

export function proxyContinuity(injected: readonly InjectedMemory[], transcript: string): ContinuityResult {
  const words = contentWords(transcript);
  const perMemory = new Map<string, number>();
  for (const m of injected) {
    const mw = contentWords(m.content);
    let hit = 0;
    for (const w of mw) if (words.has(w)) hit++;
    perMemory.set(m.id, mw.size ? clamp01(hit / mw.size) : 0);
  }
  const values = [...perMemory.values()];
  const score = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  const used = values.filter((v) => v >= USED_THRESHOLD).length;
  return {
    method: 'proxy',
    score: clamp01(score),
    confidence: values.length ? PROXY_CONFIDENCE : 0,
    memoriesUsed: used,
    novelContextCount: 0,
    reasoning: `proxy: word overlap of ${values.length} injected memories with the transcript; ${used} reached ${USED_THRESHOLD}`,
    perMemory,
  };
}

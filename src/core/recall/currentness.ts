/**
 * Structured currentness. A memory whose structured attributes were
 * superseded is down-weighted (only superseded × onlySuperseded; some superseded × someSuperseded;
 * only active × onlyActive) and annotated with a note naming what superseded it. A memory replaced
 * as a whole (graph/memorySupersessionWrites.ts: a newer decision about the same subject, a changed
 * setting value) counts as only superseded whatever else it holds, never gets the active boost, and
 * its replacement, when recalled too, is lifted just above it: the question matched the stale
 * memory, and the current one is its answer. A historical question ("previously", "used to",
 * "before", ...) keeps the annotation but skips the down-weighting and the lift, so stale facts stay
 * findable for questions about the past. The candidate's `currentness` carries the verdict to the
 * answer builders (chat prompt, LM tool output).
 *
 * The small boost for memories whose claims all stand (onlyActive) applies only when a superseded
 * claim is among the candidates: it is there to put the current fact above a stale one, and
 * without a changed fact in play it would only reorder the answer by whether extraction happened
 * to find attributes in a memory (docs/recall-design.md, "Eighth round").
 */
import type { SearchConfig } from '../config/searchConfig';
import { applyDelta, applyFactor, sortByScore } from './recallTypes';
import type { Candidate, Currentness } from './recallTypes';

export interface AttributeState {
  readonly status: 'active' | 'superseded';
  readonly content: string;
  /** Content of the replacing attribute, when known. */
  readonly replacement?: string;
  /** Memory holding the replacing attribute, when known. */
  readonly replacementMemoryId?: string;
  /** The claim stands for the whole memory (memory-level supersession). */
  readonly wholeMemory?: boolean;
}

const HISTORICAL = /\b(previous|previously|before|used to|originally|formerly|earlier|old|older|history|historical|past|initially|at first|prior)\b|以前|之前|原来/i;

export function isHistoricalQuery(query: string): boolean {
  return HISTORICAL.test(query);
}

/** Whether any candidate holds a superseded claim: only then do current facts need lifting (onlyActive). */
export function changedFactInPlay(states: ReadonlyMap<string, readonly AttributeState[]>, ids: readonly string[]): boolean {
  return ids.some((id) => states.get(id)?.some((s) => s.status === 'superseded') ?? false);
}

export function currentnessFactor(states: readonly AttributeState[], cfg: SearchConfig['currentness']): number {
  const sup = states.some((s) => s.status === 'superseded');
  const act = states.some((s) => s.status === 'active');
  if (states.some((s) => s.status === 'superseded' && s.wholeMemory)) return cfg.onlySuperseded;
  if (sup && !act) return cfg.onlySuperseded;
  if (sup) return cfg.someSuperseded;
  if (act) return cfg.onlyActive;
  return 1;
}

/** The verdict for a memory's states: undefined when nothing in it was superseded. */
export function currentnessOf(states: readonly AttributeState[]): Currentness | undefined {
  const sup = states.filter((s) => s.status === 'superseded');
  if (sup.length === 0) return undefined;
  const whole = sup.find((s) => s.wholeMemory);
  const lead = whole ?? sup.find((s) => s.replacement !== undefined) ?? sup[0];
  const status = whole || !states.some((s) => s.status === 'active') ? 'superseded' : 'partly-superseded';
  return {
    status,
    ...(lead?.replacement !== undefined ? { replacement: oneLine(lead.replacement) } : {}),
    ...(lead?.replacementMemoryId !== undefined ? { replacementId: lead.replacementMemoryId } : {}),
  };
}

export function currentnessNote(states: readonly AttributeState[]): string | undefined {
  const sup = states.filter((s) => s.status === 'superseded');
  if (sup.length === 0) return undefined;
  const parts = sup.slice(0, 3).map((s) => {
    const where = s.replacementMemoryId ? ` (memory ${s.replacementMemoryId})` : '';
    const by = s.replacement ? `superseded by: ${oneLine(s.replacement)}${where}` : 'superseded, no replacement recorded';
    return s.wholeMemory ? by : `${by}; stale claim: ${oneLine(s.content)}`;
  });
  return `[currentness] ${parts.join(' | ')}`;
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 240 ? t.slice(0, 239) + '…' : t;
}

export function applyCurrentness(cands: Candidate[], states: ReadonlyMap<string, readonly AttributeState[]>, query: string, cfg: SearchConfig['currentness']): Candidate[] {
  if (!cfg.enabled) return cands;
  const historical = isHistoricalQuery(query);
  const inPlay = changedFactInPlay(states, cands.map((c) => c.id));
  const replacedAt = new Map<string, { score: number; staleId: string }>();
  for (const c of cands) {
    const s = states.get(c.id);
    if (!s || s.length === 0) continue;
    const note = currentnessNote(s);
    if (note) c.explain.notes.push(note);
    const verdict = currentnessOf(s);
    if (verdict) c.currentness = verdict;
    const factor = inPlay ? currentnessFactor(s, cfg) : 1;
    if (historical && factor < 1) { c.explain.notes.push('historical question: superseded facts not down-weighted'); continue; }
    if (verdict?.status === 'superseded' && verdict.replacementId && (replacedAt.get(verdict.replacementId)?.score ?? -Infinity) < c.score) {
      replacedAt.set(verdict.replacementId, { score: c.score, staleId: c.id });
    }
    applyFactor(c, 'currentness', factor);
  }
  for (const c of cands) {
    const stale = replacedAt.get(c.id);
    // A tiny margin keeps the replacement strictly above the stale memory's pre-penalty score.
    if (stale && c.score <= stale.score) applyDelta(c, 'currentness', stale.score - c.score + 1e-4, 'replaces a superseded memory', stale.staleId);
  }
  return sortByScore(cands);
}

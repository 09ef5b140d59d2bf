/**
 * Structured currentness (seed 000, signet-spec §2.13). A memory whose structured attributes were
 * superseded is down-weighted (only superseded × onlySuperseded; some superseded × someSuperseded;
 * only active × onlyActive) and annotated with a note pointing to the replacement. A historical
 * question ("previously", "used to", "before", ...) keeps the annotation but skips the
 * down-weighting, so stale facts stay findable for questions about the past.
 */
import type { SearchConfig } from '../config/searchConfig';
import { applyFactor, sortByScore } from './recallTypes';
import type { Candidate } from './recallTypes';

export interface AttributeState {
  readonly status: 'active' | 'superseded';
  readonly content: string;
  /** Content of the replacing attribute, when known. */
  readonly replacement?: string;
  /** Memory holding the replacing attribute, when known. */
  readonly replacementMemoryId?: string;
}

const HISTORICAL = /\b(previous|previously|before|used to|originally|formerly|earlier|old|older|history|historical|past|initially|at first|prior)\b|以前|之前|原来/i;

export function isHistoricalQuery(query: string): boolean {
  return HISTORICAL.test(query);
}

export function currentnessFactor(states: readonly AttributeState[], cfg: SearchConfig['currentness']): number {
  const sup = states.some((s) => s.status === 'superseded');
  const act = states.some((s) => s.status === 'active');
  if (sup && !act) return cfg.onlySuperseded;
  if (sup) return cfg.someSuperseded;
  if (act) return cfg.onlyActive;
  return 1;
}

export function currentnessNote(states: readonly AttributeState[]): string | undefined {
  const sup = states.filter((s) => s.status === 'superseded');
  if (sup.length === 0) return undefined;
  const parts = sup.slice(0, 3).map((s) => {
    const repl = s.replacement ? `; current replacement: ${oneLine(s.replacement)}` : '';
    const where = s.replacementMemoryId ? ` (memory ${s.replacementMemoryId})` : '';
    return `superseded: ${oneLine(s.content)}${repl}${where}`;
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
  for (const c of cands) {
    const s = states.get(c.id);
    if (!s || s.length === 0) continue;
    const note = currentnessNote(s);
    if (note) c.explain.notes.push(note);
    const factor = currentnessFactor(s, cfg);
    if (historical && factor < 1) { c.explain.notes.push('historical question: superseded facts not down-weighted'); continue; }
    applyFactor(c, 'currentness', factor);
  }
  return sortByScore(cands);
}

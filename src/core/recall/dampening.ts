/**
 * Post-fusion dampening, three independently switchable stages, then
 * a re-sort:
 * 1. gravity: a candidate that arrived by a semantic path (vector or traversal, no lexical or hint
 *    hit) scoring above gravityThreshold whose content shares no query token → × gravityPenalty,
 *    only when some candidate has lexical or hint evidence;
 * 2. hub: every entity linked to the memory has a mention count at or above the P90 of the entities
 *    linked to the candidate set, and at least hubMinMentions → × hubPenalty (memories without
 *    links are left alone);
 * 3. resolution: type constraint or decision → × resolutionBoost; otherwise a dated note, one that
 *    names an ISO date or a month (`mentionsDate`: not the verb "may") and is not a turn of a dialogue
 *    between two people → × (1 + (resolutionBoost − 1)/2); content shorter than resolutionMinChars
 *    gets nothing. A month a person names in conversation ("Last August I told you…") does not make
 *    the turn a dated record, and in a dialogue the learned order has already ordered the window:
 *    there the half boost only ever moved a question down (docs/recall-design.md, "Thirteenth round").
 */
import type { SearchConfig } from '../config/searchConfig';
import { applyFactor, sortByScore } from './recallTypes';
import type { Candidate } from './recallTypes';
import { MONTHS } from './dateWindow';
import { countHits } from './termProbe';

const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
/** Month names that are no other English word (all but May and March). */
const MONTH_NAME = new RegExp(`\\b(${MONTHS.filter((m) => m !== 'may' && m !== 'march').join('|')})\\b`, 'i');
/**
 * "May" and "March" are also verbs ("this may break", "march on"), and the abbreviations are names
 * and words too ("Jan", "mar", "sep"): those count as a date only capitalised (May, March) and
 * beside a day or a year ("May 8", "8 March", "Sept 2024", "5 jan"), or, for May and March, after a
 * word that takes a month ("in May", "since March", "mid-May").
 */
const AMBIGUOUS_MONTH = /\b(May|March|[Jj]an|[Ff]eb|[Mm]ar|[Aa]pr|[Jj]un|[Jj]ul|[Aa]ug|[Ss]ept?|[Oo]ct|[Nn]ov|[Dd]ec)\b\.?/g;
const MONTH_LEAD_WORDS = new Set(['in', 'of', 'since', 'until', 'till', 'by', 'from', 'during', 'early', 'mid', 'late', 'last', 'next', 'this', 'before', 'after']);
const DAY_OR_YEAR_AFTER = /^\s+\d{1,4}(?:st|nd|rd|th)?\b/;
const DAY_BEFORE = /\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?$/;
const WORD_BEFORE = /([A-Za-z]+)[\s-]+$/;

/** Whether `text` names a date: an ISO date or a month (dampening's "dated content"). */
export function mentionsDate(text: string): boolean {
  if (ISO_DATE.test(text) || MONTH_NAME.test(text)) return true;
  for (const m of text.matchAll(AMBIGUOUS_MONTH)) {
    const at = m.index ?? 0;
    const before = text.slice(Math.max(0, at - 24), at);
    const after = text.slice(at + m[0].length, at + m[0].length + 16);
    if (DAY_OR_YEAR_AFTER.test(after) || DAY_BEFORE.test(before)) return true;
    const fullName = m[1] === 'May' || m[1] === 'March';
    if (fullName && MONTH_LEAD_WORDS.has((WORD_BEFORE.exec(before)?.[1] ?? '').toLowerCase())) return true;
  }
  return false;
}

/** P-th percentile threshold: sorted[floor(n · p)] (clamped to the last). */
export function percentileThreshold(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.POSITIVE_INFINITY;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

export function isSemanticPath(c: Candidate): boolean {
  return c.channels.lexical === 0 && c.channels.hint === 0;
}

function isResolved(c: Candidate): boolean {
  return c.type === 'constraint' || c.type === 'decision';
}

/** Whether resolution's half boost for dated content applies to `c` unless it is a turn of a dialogue between two people. */
export function mayBeDatedNote(c: Candidate, cfg: SearchConfig['dampening']): boolean {
  return c.content.length >= cfg.resolutionMinChars && !isResolved(c) && mentionsDate(c.content);
}

/** Resolution's factor for `c`; `dialogueTurn`: `c` is a turn of a dialogue between two people. */
export function resolutionFactor(c: Candidate, cfg: SearchConfig['dampening'], dialogueTurn = false): number {
  return factorFor(c, cfg, !dialogueTurn && mayBeDatedNote(c, cfg));
}

/** The one rule: decisions and constraints × resolutionBoost, a dated note half of that, short content nothing. */
function factorFor(c: Candidate, cfg: SearchConfig['dampening'], datedNote: boolean): number {
  if (c.content.length < cfg.resolutionMinChars) return 1;
  if (isResolved(c)) return cfg.resolutionBoost;
  return datedNote ? 1 + (cfg.resolutionBoost - 1) * 0.5 : 1;
}

/**
 * Which of `ids` are turns of a dialogue between two people; the stage answers it from the store
 * (learnedOrder.ts, `loadDialogueTurns`) and is asked only about the candidates that name a date.
 */
export type DialogueTurnsOf = (ids: readonly string[]) => ReadonlySet<string>;

/**
 * `links` maps a memory id to the mention counts (degrees) of its linked entities; entities are
 * deduplicated by id in `degreeByEntity` for the P90 threshold.
 */
export interface HubInput {
  readonly entitiesByMemory: ReadonlyMap<string, readonly string[]>;
  readonly degreeByEntity: ReadonlyMap<string, number>;
}

/** `dialogueTurnsOf`: which candidates are turns of a dialogue between two people (none when absent). */
export function applyDampening(cands: Candidate[], queryTokens: readonly string[], hub: HubInput | undefined, cfg: SearchConfig['dampening'], dialogueTurnsOf?: DialogueTurnsOf): Candidate[] {
  // Gravity needs lexical evidence elsewhere to be suspicious of a semantic-only match: when no
  // candidate shares a word with the query, the best semantic match is the answer, not drift
  // (a question sharing no word with its answer; test/unit/recall/smallStores.test.ts).
  if (cfg.gravityEnabled && queryTokens.length > 0 && cands.some((c) => !isSemanticPath(c))) {
    for (const c of cands) {
      if (isSemanticPath(c) && c.score > cfg.gravityThreshold && countHits(queryTokens, c.content) === 0) {
        applyFactor(c, 'gravity', cfg.gravityPenalty, 'semantic match sharing no word with the query');
      }
    }
  }
  if (cfg.hubEnabled && hub && hub.degreeByEntity.size > 0) {
    const threshold = Math.max(cfg.hubMinMentions, percentileThreshold([...hub.degreeByEntity.values()], cfg.hubPercentile));
    for (const c of cands) {
      const ents = hub.entitiesByMemory.get(c.id) ?? [];
      if (ents.length > 0 && ents.every((e) => (hub.degreeByEntity.get(e) ?? 0) >= threshold)) {
        applyFactor(c, 'hub', cfg.hubPenalty, `only linked to hub entities (mentions >= ${threshold})`);
      }
    }
  }
  if (cfg.resolutionEnabled) {
    const dated = cands.filter((c) => mayBeDatedNote(c, cfg)).map((c) => c.id);
    const turns = dated.length > 0 && dialogueTurnsOf ? dialogueTurnsOf(dated) : new Set<string>();
    const datedNotes = new Set(dated.filter((id) => !turns.has(id)));
    for (const c of cands) applyFactor(c, 'resolution', factorFor(c, cfg, datedNotes.has(c.id)));
  }
  return sortByScore(cands);
}

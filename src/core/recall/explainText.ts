/**
 * "Why was this recalled?" in words a person reads (docs/recall-design.md, "Explanations"). Every
 * surface that explains a recall — the Knowledge panel's playground, `@memory`'s why, CLI
 * `recall --explain` — calls these functions on the core's explain record (recallTypes.ts), so they
 * say the same thing:
 *
 * - relevance on a 0–1 scale: the result's score divided by the best score of the same recall
 *   (the first result is 1.00); match strength on 0–1: how well the words and the meaning of the
 *   memory match the question before any ranking step;
 * - one line per ranking step that changed this result's score, netted per step (a step that
 *   changed the score twice, like currentness's factor and its lift, is one line), as a percentage;
 * - names, never ids: a memory another one refers to is quoted by its text (or "an older memory");
 *   pinned entities by their names; any id left in a note is removed;
 * - a relevance floor: results below `RELEVANCE_FLOOR` of the best one are held back from lists.
 */
import type { Explain, RecallResult, ScoreAdjustment } from './recallTypes';

/** Results below this share of the best result's score are off-topic fillers: lists hold them back. */
export const RELEVANCE_FLOOR = 0.35;

/** A change smaller than this (relative) is not worth a line. */
const MIN_CHANGE = 0.005;

/** What each ranking step means, for a legend under the explanations. */
export const EXPLAIN_LEGEND: readonly string[] = [
  'Relevance (0–1): the score relative to the best result for this question; the first result is 1.00.',
  'Match (0–1): how well the words and the meaning of the memory match the question, before the ranking steps below.',
  'Ranking steps change a result\'s score by a percentage; a step is listed only where it changed that result:',
  'nearby turn — said next to a strong match in the same conversation;',
  'newer first — the question asks for the latest state, so newer memories rank higher;',
  'date named — written near a date the question names;',
  'second look — the question and the memory compared as a whole, which reorders the top results;',
  'still current / superseded — whether facts in the memory were later replaced;',
  'detail — decisions, constraints and dated memories with enough detail rank a little higher;',
  'covers the question — adds parts of the question the results above did not cover;',
  'pinned — about an entity you pinned (only when it is relevant to the question);',
  'other speaker — the question is about a person it names, and someone else wrote this memory;',
  'learned order — in a conversation between two people, the best results reordered by a small model learned from real conversations (how each search ranked the memory, whether it states something or only asks, who wrote it, whether it answers a question or sits beside other good matches, whether its author says it for the first time or comes back to it); it moves a result between places and gives it that place\'s score;',
  'graph — mentions an entity the question names; common entities only — mentions only entities that appear everywhere; meaning only — similar in meaning but shares no word with the question.',
];

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** Removes ids a note may still carry (memory, entity, job ids). */
export function withoutIds(text: string): string {
  return text.replace(/\s*\((?:memory|entity|id)\s+[0-9a-f-]{8,}\)/gi, '').replace(UUID, 'another memory').replace(/\s+/g, ' ').trim();
}

/** Score relative to the best score of its recall, on 0–1. */
export function relevanceOf(score: number, best: number): number {
  if (!(best > 0) || !Number.isFinite(score)) return 0;
  return Math.max(0, Math.min(1, score / best));
}

/** Splits a recall's results (best first) at the relevance floor: `shown` keeps at least the first. */
export function splitByRelevance<T extends { readonly score: number }>(results: readonly T[], floor = RELEVANCE_FLOOR): { shown: T[]; heldBack: T[] } {
  const best = Math.max(0, ...results.map((r) => r.score));
  const shown: T[] = [], heldBack: T[] = [];
  results.forEach((r, i) => (i === 0 || relevanceOf(r.score, best) >= floor ? shown : heldBack).push(r));
  return { shown, heldBack };
}

const snippet = (text: string, max = 80): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** How the memory was found, in words. */
function foundBy(e: Explain): string {
  const parts: string[] = [];
  const s = new Set(e.sources);
  if (s.has('lexical')) parts.push(e.termsHit !== undefined && e.termCount !== undefined ? `shares ${e.termsHit} of ${e.termCount} words with the question` : 'shares words with the question');
  if (s.has('vector') || (!s.has('lexical') && e.channels.semantic > 0 && !s.has('neighbour'))) parts.push(`is close in meaning (similarity ${e.channels.semantic.toFixed(2)})`);
  if (s.has('hint')) parts.push('matches a question this memory was expected to answer');
  if (s.has('traversal')) parts.push('is linked in the knowledge graph to an entity the question is about');
  if (s.has('neighbour')) parts.push('was said next to a strong match in the same conversation');
  return parts.length ? `Found because it ${parts.join('; ')}.` : 'Found by no direct match.';
}

interface StageChange {
  stage: string;
  ratio: number;
  adjustments: ScoreAdjustment[];
  /** A delta recorded without the score before it (an older record): shown as points, not a percentage. */
  points?: number;
}

/** The adjustments in the order they were made, netted per consecutive run of one stage. */
function stageChanges(e: Explain): StageChange[] {
  const all = [...e.boosts, ...e.penalties].map((a, i) => ({ a, order: a.seq ?? 1000 + i }));
  all.sort((x, y) => x.order - y.order);
  const out: StageChange[] = [];
  for (const { a } of all) {
    const family = a.stage.startsWith('rerank') ? 'rerank' : a.stage;
    const last = out[out.length - 1];
    const ratio = adjustmentRatio(a);
    const cur = last && last.stage === family ? last : { stage: family, ratio: 1, adjustments: [] };
    if (cur !== last) out.push(cur);
    cur.adjustments.push(a);
    if (a.factor === undefined && !(a.before !== undefined && a.before > 0)) cur.points = (cur.points ?? 0) + (a.delta ?? 0);
    else cur.ratio *= ratio;
  }
  return out;
}

/** The factor an adjustment applied (a delta as its share of the score before it). */
function adjustmentRatio(a: ScoreAdjustment): number {
  if (a.factor !== undefined) return a.factor;
  const before = a.before;
  if (before === undefined || !(before > 0)) return 1;
  return Math.max(0, (before + (a.delta ?? 0)) / before);
}

function pct(ratio: number): string {
  const p = (ratio - 1) * 100;
  const r = Math.abs(p) >= 10 ? Math.round(Math.abs(p)) : Math.round(Math.abs(p) * 10) / 10;
  return `${p >= 0 ? '+' : '−'}${r}%`;
}

/** The words for one stage's net change. `nameOf` gives a memory's text by id (results of the same recall). */
function stageLine(ch: StageChange, nameOf: (id: string) => string | undefined): string {
  const up = ch.points !== undefined ? ch.points >= 0 : ch.ratio >= 1;
  const note = ch.adjustments.find((a) => a.note)?.note;
  const points = ch.points !== undefined ? `${ch.points >= 0 ? '+' : '−'}${Math.abs(ch.points).toFixed(2)} on the score` : '';
  const change = ch.points !== undefined && Math.abs(ch.ratio - 1) >= MIN_CHANGE ? `${pct(ch.ratio)}, ${points}` : ch.points !== undefined ? points : pct(ch.ratio);
  switch (ch.stage) {
    case 'neighbours': return `Nearby turn: said next to a strong match in the same conversation (${change}).`;
    case 'graphBoost': return `Graph: mentions an entity the question names (${change}).`;
    case 'temporalPrior': return `Newer first: the question asks for the latest state (${change}).`;
    case 'dateWindow': return `Date named: written near the date the question names${note ? ` (${withoutIds(note).replace(/^.*\(([^)]*)\)$/, '$1')})` : ''} (${change}).`;
    case 'rerank': return `Second look: the question and the memory compared as a whole ${up ? 'moved it up' : 'moved it down'} (${change}).`;
    case 'gravity': return `Meaning only: similar in meaning but shares no word with the question (${change}).`;
    case 'hub': return `Common entities only: mentions only entities that appear in many memories (${change}).`;
    case 'resolution': return `Detail: a decision, constraint or dated note with enough detail (${change}).`;
    case 'currentness': {
      const replaced = ch.adjustments.find((a) => a.memoryId !== undefined)?.memoryId;
      if (replaced !== undefined) {
        const name = nameOf(replaced);
        return `Still current: it replaces an older memory${name ? ` ("${snippet(name)}")` : ''}, so it ranks above it (${change}).`;
      }
      return up ? `Still current: nothing in it was replaced (${change}).` : `Superseded: a newer memory replaced facts in it (${change}).`;
    }
    case 'recency': return `Newer: a small bonus for recent memories (${change}).`;
    case 'facets': return up ? `Covers the question: adds parts of the question the results above did not cover (${change}).` : `Repeats: covers only what the results above already cover (${change}).`;
    case 'speaker': return `Other speaker: ${note ?? 'written by someone other than the person the question is about'} (${change}).`;
    case 'learnedOrder': return `Learned order: ${note ?? (up ? 'moved up' : 'moved down')} (${change}).`;
    case 'learnedUse': return up ? `Used before: ${note ?? 'earlier answers that showed it used it'} (${change}).` : `Shown before, rarely used: ${note ?? 'earlier answers that showed it did not use it'} (${change}).`;
    case 'pins': return `Pinned: about ${note ? withoutIds(note).replace(/^about pinned /, '') : 'an entity you pinned'}, and relevant to the question (${change}).`;
    default: return `Other ranking step "${ch.stage}" (${change}).`;
  }
}

/** Notes worth a line, in plain words; notes that repeat a stage line or only name internals are dropped. */
function noteLine(n: string): string | undefined {
  if (n.startsWith('[currentness]')) return undefined; // the stage line and the superseded mark say it
  if (n === 'next to a recalled memory of the same session') return undefined; // the "found because" line says it
  if (n === 'also reached by graph traversal') return 'Also linked in the knowledge graph to an entity the question is about.';
  if (n === 'found by graph traversal' || n.startsWith('traversal-only evidence capped')) return 'Found only through the knowledge graph, so it ranks below direct matches.';
  if (n === 'lifted by a matching hint') return 'Matches a question this memory was expected to answer.';
  if (n.startsWith('hint-only match capped')) return 'Matches only a question it was expected to answer, so it ranks below direct matches.';
  if (n.startsWith('rerank:')) return `Second look skipped: ${withoutIds(n.slice('rerank:'.length).trim())}.`;
  if (n === 'historical question: superseded facts not down-weighted') return 'The question asks about the past, so replaced facts were not ranked down.';
  if (n.startsWith('constraint of a focal entity')) return `A rule about ${withoutIds(n.replace(/^constraint of a focal entity \(?/, '').replace(/\)$/, ''))}.`;
  const t = withoutIds(n);
  return t ? `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}` : undefined;
}

export interface ExplainTextOptions {
  /** The best score of the same recall (relevance is relative to it); without it only the match is given. */
  readonly best?: number;
  /** A memory's text by id, for changes that refer to another memory (default: none known). */
  readonly nameOf?: (id: string) => string | undefined;
}

/** A result's explanation as plain lines: relevance and match, how it was found, each step that changed it, notes. */
export function explainText(e: Explain, opts: ExplainTextOptions = {}): string[] {
  const nameOf = opts.nameOf ?? (() => undefined);
  const match = `match ${Math.max(0, Math.min(1, e.fused)).toFixed(2)} of 1`;
  const lines = [
    // Without the recall's best score (one result alone) relevance is unknown: only the match is given.
    opts.best !== undefined ? `Relevance ${relevanceOf(e.score, opts.best).toFixed(2)} of 1 (the best result is 1.00); ${match}.` : `${match.charAt(0).toUpperCase()}${match.slice(1)}.`,
    foundBy(e),
  ];
  for (const ch of stageChanges(e)) if (Math.abs(ch.ratio - 1) >= MIN_CHANGE || Math.abs(ch.points ?? 0) >= MIN_CHANGE) lines.push(stageLine(ch, nameOf));
  const seen = new Set(lines);
  for (const n of e.notes) {
    const l = noteLine(n);
    if (l && !seen.has(l)) { seen.add(l); lines.push(l); }
  }
  return lines.map(withoutIds);
}

/** Every result of one recall explained, with names taken from the recall's own results. */
export function explainResults(results: readonly RecallResult[]): Map<string, string[]> {
  const best = Math.max(0, ...results.map((r) => r.score));
  const byId = new Map(results.map((r) => [r.id, r.content]));
  const out = new Map<string, string[]>();
  for (const r of results) if (r.explain) out.set(r.id, explainText(r.explain, { best, nameOf: (id) => byId.get(id) }));
  return out;
}

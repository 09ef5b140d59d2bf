/**
 * Date window (docs/recall-design.md, "Date window"): a question that names a date ("on 13
 * October, 2023", "in July 2023", "in 2022") asks about what was said around then, and memory
 * text rarely carries that date while the memory's own time does. The named day, month or year
 * becomes a window (widened by `beforeDays` before and `afterDays` after: an event is talked
 * about in the days after it, and a date said may be a few days off the session's), and
 * candidates created inside it are scored `× (1 + boost)`. Queries without a full date, and
 * recalls with explicit since/until bounds, are left alone.
 */
import type { SearchConfig } from '../config/searchConfig';
import { applyFactor, sortByScore } from './recallTypes';
import type { Candidate } from './recallTypes';

const DAY_MS = 86_400_000;
/** The months' names, January first (dampening.ts's `mentionsDate` reads them too). */
export const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\\.?`;
const YEAR = '((?:19|20)\\d\\d)';
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+${YEAR}\\b`, 'i');
const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}\\b`, 'i');
const MONTH_YEAR = new RegExp(`\\b${MONTH},?\\s+(?:of\\s+)?${YEAR}\\b`, 'i');
const ISO_DAY = /\b((?:19|20)\d\d)-(\d{2})-(\d{2})\b/;
const ISO_MONTH = /\b((?:19|20)\d\d)-(\d{2})\b/;
const IN_YEAR = new RegExp(`\\b(?:in|during|of|since|from|by|until|before|after)\\s+${YEAR}\\b`, 'i');

/** The span of time a query names (ms, start inclusive, end exclusive), or undefined. */
export interface DateSpan { readonly startMs: number; readonly endMs: number; readonly label: string }

function monthIndex(name: string): number {
  const n = name.toLowerCase().replace(/\.$/, '');
  return MONTHS.findIndex((m) => m === n || m.startsWith(n) && n.length >= 3);
}

function day(y: number, m: number, d: number, label: string): DateSpan | undefined {
  if (m < 0 || m > 11 || d < 1 || d > 31) return undefined;
  const start = Date.UTC(y, m, d);
  return { startMs: start, endMs: start + DAY_MS, label };
}

function month(y: number, m: number, label: string): DateSpan | undefined {
  if (m < 0 || m > 11) return undefined;
  return { startMs: Date.UTC(y, m, 1), endMs: Date.UTC(y, m + 1, 1), label };
}

/** The first full date the query names: a day, a month of a year, or a year after "in"/"during"/...; else undefined. */
export function queryDateSpan(query: string): DateSpan | undefined {
  let m = MONTH_DAY_YEAR.exec(query);
  if (m) return day(Number(m[3]), monthIndex(m[1] as string), Number(m[2]), m[0]);
  m = DAY_MONTH_YEAR.exec(query);
  if (m) return day(Number(m[3]), monthIndex(m[2] as string), Number(m[1]), m[0]);
  m = ISO_DAY.exec(query);
  if (m) return day(Number(m[1]), Number(m[2]) - 1, Number(m[3]), m[0]);
  m = MONTH_YEAR.exec(query);
  if (m) return month(Number(m[2]), monthIndex(m[1] as string), m[0]);
  m = ISO_MONTH.exec(query);
  if (m) return month(Number(m[1]), Number(m[2]) - 1, m[0]);
  m = IN_YEAR.exec(query);
  if (m) return { startMs: Date.UTC(Number(m[1]), 0, 1), endMs: Date.UTC(Number(m[1]) + 1, 0, 1), label: m[0] };
  return undefined;
}

/** Candidates created within the query's date span (widened by the config's days) scored × (1 + boost). */
export function applyDateWindow(cands: Candidate[], query: string, hasBounds: boolean, cfg: SearchConfig['dateWindow']): Candidate[] {
  if (!cfg.enabled || hasBounds || cands.length === 0) return cands;
  const span = queryDateSpan(query);
  if (!span) return cands;
  const from = span.startMs - cfg.beforeDays * DAY_MS, to = span.endMs + cfg.afterDays * DAY_MS;
  let changed = false;
  for (const c of cands) {
    const t = Date.parse(c.createdAt);
    if (!Number.isFinite(t) || t < from || t >= to) continue;
    applyFactor(c, 'dateWindow', 1 + cfg.boost, `created near the date the query names (${span.label})`);
    changed = true;
  }
  return changed ? sortByScore(cands) : cands;
}

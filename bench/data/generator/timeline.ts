/**
 * Places a project's drafts on a realistic timeline: a few dozen working sessions spread over
 * ~18 months, each holding several memories a few minutes apart. A draft's position in [0, 1)
 * picks its session, so ordered positions (supersession chains, event series) give strictly
 * increasing createdAt values in different sessions.
 */
import type { Rng } from './prng';

/** First and last day of the set's sessions, and the reference "now" for freshness questions. */
export const TIMELINE_START = Date.UTC(2025, 4, 12);
export const TIMELINE_DAYS = 540;
export const DEVSET_NOW = '2026-11-20T00:00:00.000Z';
/** Average memories per session; sets how many sessions a project gets. */
export const MEMORIES_PER_SESSION = 9;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export interface Placed {
  pos: number;
  createdAt: string;
  sessionId: string;
}

/** Positions for a chronological series of n items, each at least `minGap` after the previous. */
export function seriesPositions(rng: Rng, n: number, minGap: number, maxGap: number): number[] {
  const span = (n - 1) * maxGap;
  const start = 0.03 + rng.next() * Math.max(0.01, 0.94 - span);
  const out = [start];
  for (let i = 1; i < n; i++) out.push(out[i - 1] + minGap + rng.next() * (maxGap - minGap));
  return out;
}

/** Assigns createdAt and sessionId to each position (returned in the input order). */
export function place(rng: Rng, projectKey: string, positions: readonly number[]): Placed[] {
  const sessionCount = Math.max(12, Math.ceil(positions.length / MEMORIES_PER_SESSION));
  const days = new Set<number>();
  while (days.size < sessionCount) days.add(rng.int(0, TIMELINE_DAYS - 1));
  const sessionDays = [...days].sort((a, b) => a - b);
  const starts = sessionDays.map((d) => TIMELINE_START + d * DAY_MS + rng.int(7 * 60, 17 * 60) * MINUTE_MS);

  const order = positions.map((pos, i) => ({ pos, i })).sort((a, b) => a.pos - b.pos || a.i - b.i);
  const out: Placed[] = new Array(positions.length);
  const clock = starts.slice();
  for (const { pos, i } of order) {
    const s = Math.min(sessionCount - 1, Math.max(0, Math.floor(pos * sessionCount)));
    clock[s] += rng.int(2, 14) * MINUTE_MS;
    const day = new Date(sessionDays[s] * DAY_MS + TIMELINE_START).toISOString().slice(0, 10).replace(/-/g, '');
    out[i] = { pos, createdAt: new Date(clock[s]).toISOString(), sessionId: `${projectKey}-${day}-${String(s + 1).padStart(2, '0')}` };
  }
  return out;
}

/**
 * Over-fetch: retrieval width = render width × overFetch (default 1 = the plain
 * behaviour). A filter hook (for example "already visible in this chat") runs on the wider pool
 * before slicing back to the render width, so a filtered turn still gets results.
 */
import type { Candidate } from './recallTypes';

/** Keeps a candidate when it returns true. */
export type RecallFilter = (candidate: Candidate) => boolean;

export function retrievalWidth(limit: number, overFetch: number): number {
  return Math.max(1, Math.floor(limit)) * Math.max(1, Math.floor(overFetch));
}

export function selectResults(ranked: readonly Candidate[], limit: number, overFetch: number, filter?: RecallFilter): Candidate[] {
  const pool = ranked.slice(0, retrievalWidth(limit, overFetch));
  const kept = filter ? pool.filter(filter) : pool;
  return kept.slice(0, limit);
}

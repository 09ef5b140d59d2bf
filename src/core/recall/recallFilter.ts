/**
 * The SQL filter every arm and the hydration step apply to memories (alias m): live rows only,
 * optionally one project and a created_at window. Values are always bound parameters.
 */
import type { SqlValue } from '../store/storeTypes';

export interface MemoryFilter {
  readonly project?: string;
  /** Inclusive ISO lower bound on created_at. */
  readonly since?: string;
  /** Inclusive ISO upper bound on created_at. */
  readonly until?: string;
}

export interface SqlClause {
  readonly sql: string;
  readonly params: SqlValue[];
}

export function filterClause(f: MemoryFilter, alias = 'm'): SqlClause {
  // Unary + keeps the planner off the low-selectivity is_deleted index (it would scan every live row).
  const parts = [`+${alias}.is_deleted = 0`];
  const params: SqlValue[] = [];
  if (f.project !== undefined) { parts.push(`${alias}.project = ?`); params.push(f.project); }
  if (f.since !== undefined) { parts.push(`${alias}.created_at >= ?`); params.push(f.since); }
  if (f.until !== undefined) { parts.push(`${alias}.created_at <= ?`); params.push(f.until); }
  return { sql: parts.join(' AND '), params };
}

export function hasTimeBounds(f: MemoryFilter): boolean {
  return f.since !== undefined || f.until !== undefined;
}

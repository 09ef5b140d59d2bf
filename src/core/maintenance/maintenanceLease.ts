import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * A lease row in maintenance_lease, taken inside the store's write transaction (serialised across
 * windows), so scheduled maintenance never runs in two windows at once.
 */
export const MAINTENANCE_LEASE = 'maintenance';

/**
 * Takes (or renews) the lease for `owner` unless another owner holds an unexpired one.
 */
export function acquireLease(db: SqlWriter, owner: string, nowMs: number, leaseMs: number, name = MAINTENANCE_LEASE): boolean {
  const nowIso = new Date(nowMs).toISOString();
  const row = db.get<{ owner: string; expires_at: string }>('SELECT owner, expires_at FROM maintenance_lease WHERE name = ?', [name]);
  if (row && row.owner !== owner && row.expires_at > nowIso) return false;
  db.run(`INSERT INTO maintenance_lease (name, owner, acquired_at, expires_at) VALUES (?, ?, ?, ?)
          ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
  [name, owner, nowIso, new Date(nowMs + leaseMs).toISOString()]);
  return true;
}

export function releaseLease(db: SqlWriter, owner: string, name = MAINTENANCE_LEASE): void {
  db.run('DELETE FROM maintenance_lease WHERE name = ? AND owner = ?', [name, owner]);
}

/** When the last scheduled run finished (ms), or 0. */
export function lastScheduledRunMs(db: SqlReader): number {
  const row = db.get<{ t: string | null }>("SELECT MAX(finished_at) AS t FROM maintenance_runs WHERE run_id LIKE 'scheduled:%' AND status IN ('completed', 'failed')");
  return row?.t ? Date.parse(row.t) : 0;
}

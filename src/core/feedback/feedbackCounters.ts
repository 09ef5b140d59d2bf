import type { SqlReader, SqlWriter } from '../store/storeTypes';

/** Per-agent counters in feedback_counters (sessions since the last decay, time of the last decay). */
export const SESSIONS_SINCE_DECAY = 'sessions_since_decay';
export const LAST_DECAY_AT_MS = 'last_decay_at_ms';

export function readCounter(db: SqlReader, agentId: string, name: string): number {
  return db.get<{ value: number }>('SELECT value FROM feedback_counters WHERE agent_id = ? AND name = ?', [agentId, name])?.value ?? 0;
}

export function writeCounter(db: SqlWriter, agentId: string, name: string, value: number, nowIso: string): void {
  db.run(`INSERT INTO feedback_counters (agent_id, name, value, updated_at) VALUES (?, ?, ?, ?)
          ON CONFLICT(agent_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, [agentId, name, value, nowIso]);
}

/** Decay is due every N sessions or once a day, whichever comes first. */
export const DECAY_PERIOD_MS = 86_400_000;

export function decayDue(sessionsSinceDecay: number, lastDecayAtMs: number, nowMs: number, intervalSessions: number): boolean {
  return sessionsSinceDecay >= intervalSessions || (lastDecayAtMs > 0 && nowMs - lastDecayAtMs >= DECAY_PERIOD_MS);
}

import { createHash } from 'node:crypto';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * What agent capture and the hooks remember about one agent session, whatever door it came
 * through (hook of any harness, VS Code chat history): the turn keys already read (so each turn is
 * captured once across harnesses, docs/agents.md "Idempotency"), the memories injected or returned
 * into it (the echo guard and "never the same memory twice"), and when. Kept in the store's meta
 * table under `agent.session:<hash of the session id>` so every process shares it (no migration).
 */
export interface AgentSessionEntry {
  readonly sessionId: string;
  readonly harnesses: string[];
  readonly turns: string[];
  /** Memories injected into (or returned to) the session: id and content. */
  readonly injected: { id: string; content: string }[];
  lastCaptureAt?: string;
  lastInjectionAt?: string;
}

/** Turn keys kept per session (a session longer than this forgets its oldest keys first). */
export const MAX_LEDGER_TURNS = 5_000;
/** Injected memories kept per session for the echo guard. */
export const MAX_LEDGER_INJECTED = 400;

export const AGENT_SESSION_PREFIX = 'agent.session:';
export const AGENT_ACTIVITY_PREFIX = 'agent.activity:';

export const agentSessionKey = (sessionId: string): string => `${AGENT_SESSION_PREFIX}${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}`;

export function readAgentSession(db: SqlReader, sessionId: string): AgentSessionEntry {
  const row = db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [agentSessionKey(sessionId)]);
  const empty: AgentSessionEntry = { sessionId, harnesses: [], turns: [], injected: [] };
  if (!row) return empty;
  try {
    const v = JSON.parse(row.value) as Partial<AgentSessionEntry>;
    return {
      sessionId,
      harnesses: Array.isArray(v.harnesses) ? v.harnesses.filter((x): x is string => typeof x === 'string') : [],
      turns: Array.isArray(v.turns) ? v.turns.filter((x): x is string => typeof x === 'string') : [],
      injected: Array.isArray(v.injected) ? v.injected.filter((x) => x && typeof x.id === 'string' && typeof x.content === 'string') : [],
      ...(typeof v.lastCaptureAt === 'string' ? { lastCaptureAt: v.lastCaptureAt } : {}),
      ...(typeof v.lastInjectionAt === 'string' ? { lastInjectionAt: v.lastInjectionAt } : {}),
    };
  } catch {
    return empty;
  }
}

export function writeAgentSession(db: SqlWriter, e: AgentSessionEntry): void {
  const value: AgentSessionEntry = { ...e, turns: e.turns.slice(-MAX_LEDGER_TURNS), injected: e.injected.slice(-MAX_LEDGER_INJECTED) };
  db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [agentSessionKey(e.sessionId), JSON.stringify(value)]);
}

export interface HarnessActivity { lastInjectionAt?: string; lastCaptureAt?: string }

export function readActivity(db: SqlReader): Map<string, HarnessActivity> {
  const out = new Map<string, HarnessActivity>();
  for (const r of db.all<{ key: string; value: string }>('SELECT key, value FROM meta WHERE key >= ? AND key < ?', [AGENT_ACTIVITY_PREFIX, `${AGENT_ACTIVITY_PREFIX}\uffff`])) {
    try {
      const v = JSON.parse(r.value) as HarnessActivity;
      out.set(r.key.slice(AGENT_ACTIVITY_PREFIX.length), {
        ...(typeof v.lastInjectionAt === 'string' ? { lastInjectionAt: v.lastInjectionAt } : {}),
        ...(typeof v.lastCaptureAt === 'string' ? { lastCaptureAt: v.lastCaptureAt } : {}),
      });
    } catch { /* an unreadable entry is as good as none */ }
  }
  return out;
}

/** Records that `harness` injected into or was captured from a session at `atIso`. */
export function noteActivity(db: SqlWriter, harness: string, kind: 'injection' | 'capture', atIso: string): void {
  const key = `${AGENT_ACTIVITY_PREFIX}${harness}`;
  const prev = readActivity(db).get(harness) ?? {};
  const next: HarnessActivity = { ...prev, ...(kind === 'injection' ? { lastInjectionAt: atIso } : { lastCaptureAt: atIso }) };
  db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, JSON.stringify(next)]);
}

/** Adds memories given to a session to its ledger and notes the harness's last injection. */
export function noteInjected(db: SqlWriter, harness: string, sessionId: string, memories: readonly { readonly id: string; readonly content: string }[], atIso: string): void {
  const e = readAgentSession(db, sessionId);
  const known = new Set(e.injected.map((m) => m.id));
  for (const m of memories) if (!known.has(m.id)) { e.injected.push({ id: m.id, content: m.content }); known.add(m.id); }
  if (!e.harnesses.includes(harness)) e.harnesses.push(harness);
  e.lastInjectionAt = atIso;
  writeAgentSession(db, e);
  if (memories.length) noteActivity(db, harness, 'injection', atIso);
}

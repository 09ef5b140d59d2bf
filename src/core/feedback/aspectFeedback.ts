import type { SqlWriter } from '../store/storeTypes';

/**
 * Aspect feedback and decay (docs/recall-design.md, "Aspect feedback and decay").
 */
export interface AspectFeedbackResult {
  readonly aspectsUpdated: number;
  readonly totalFtsConfirmations: number;
}

export interface AspectFeedbackOptions {
  /** Weight per FTS confirmation (default 0.02). */
  readonly delta: number;
  readonly minWeight: number;
  readonly maxWeight: number;
}

export interface AspectDecayOptions {
  readonly decayRate: number;
  readonly minWeight: number;
  readonly staleDays: number;
}

const DAY_MS = 86_400_000;

/**
 * Memories of the session with fts_hit_count > 0 → the aspect of one active attribute linked to
 * each → weight = clamp(weight + delta × confirmations, min, max), updated_at = now. Every
 * change is also logged in aspect_feedback_log for the knowledge stats.
 */
export function applyFtsOverlapFeedback(db: SqlWriter, sessionKey: string, agentId: string, options: AspectFeedbackOptions, nowIso: string): AspectFeedbackResult {
  const hits = db.all<{ memory_id: string; fts_hit_count: number }>(
    'SELECT memory_id, fts_hit_count FROM session_memories WHERE session_key = ? AND agent_id = ? AND fts_hit_count > 0 ORDER BY rank, memory_id',
    [sessionKey, agentId],
  );
  const perAspect = new Map<string, number>();
  let total = 0;
  for (const h of hits) {
    // unary + keeps the planner on idx_attributes_memory (it once chose idx_attributes_status and scanned every active row, bench/sessions.ts; migration 28 dropped that index, the + stays as the guard)
    const attr = db.get<{ aspect_id: string }>(
      "SELECT aspect_id FROM entity_attributes WHERE memory_id = ? AND +agent_id = ? AND +status = 'active' AND aspect_id IS NOT NULL ORDER BY created_at, id LIMIT 1",
      [h.memory_id, agentId],
    );
    if (!attr) continue;
    perAspect.set(attr.aspect_id, (perAspect.get(attr.aspect_id) ?? 0) + h.fts_hit_count);
    total += h.fts_hit_count;
  }
  let updated = 0;
  for (const [aspectId, confirmations] of [...perAspect.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const before = db.get<{ weight: number }>('SELECT weight FROM entity_aspects WHERE id = ? AND agent_id = ?', [aspectId, agentId]);
    if (!before) continue;
    const after = Math.min(options.maxWeight, Math.max(options.minWeight, before.weight + options.delta * confirmations));
    const r = db.run('UPDATE entity_aspects SET weight = ?, updated_at = ? WHERE id = ? AND agent_id = ?', [after, nowIso, aspectId, agentId]);
    if (!r.changes) continue;
    updated++;
    db.run('INSERT INTO aspect_feedback_log (aspect_id, agent_id, kind, session_key, confirmations, weight_before, weight_after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [aspectId, agentId, 'fts', sessionKey, confirmations, before.weight, after, nowIso]);
  }
  return { aspectsUpdated: updated, totalFtsConfirmations: total };
}

/**
 * Aspects not updated for staleDays lose decayRate, floored at minWeight; updated_at is refreshed,
 * so an aspect decays at most once per stale window. Returns how many aspects decayed.
 */
export function decayAspectWeights(db: SqlWriter, agentId: string, options: AspectDecayOptions, nowMs: number): number {
  const nowIso = new Date(nowMs).toISOString();
  const cutoff = new Date(nowMs - options.staleDays * DAY_MS).toISOString();
  const stale = db.all<{ id: string; weight: number }>(
    'SELECT id, weight FROM entity_aspects WHERE agent_id = ? AND updated_at < ? AND weight > ? ORDER BY id',
    [agentId, cutoff, options.minWeight],
  );
  for (const a of stale) {
    const after = Math.max(options.minWeight, a.weight - options.decayRate);
    db.run('UPDATE entity_aspects SET weight = ?, updated_at = ? WHERE id = ?', [after, nowIso, a.id]);
    db.run('INSERT INTO aspect_feedback_log (aspect_id, agent_id, kind, session_key, confirmations, weight_before, weight_after, created_at) VALUES (?, ?, ?, NULL, 0, ?, ?, ?)',
      [a.id, agentId, 'decay', a.weight, after, nowIso]);
  }
  return stale.length;
}

/** Agents that own graph aspects (maintenance decays each of them). */
export function aspectAgents(db: { all<T extends object>(sql: string): T[] }): string[] {
  return db.all<{ agent_id: string }>('SELECT DISTINCT agent_id FROM entity_aspects ORDER BY agent_id').map((r) => r.agent_id);
}

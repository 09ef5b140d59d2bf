import type { SqlReader } from '../store/storeTypes';
import type { CandidateSignals } from './features';
import { sqlPlaceholders } from '../store/sqlPlaceholders';

/**
 * Gathers the predictor's inputs for memories from the store: importance, age, access count,
 * weights of the aspects of their active attributes, links to pinned entities (through attributes
 * or mentions), past outcomes in earlier sessions, and the entities they link to (for slicing).
 */
export interface MemorySignals {
  readonly signals: CandidateSignals;
  readonly entityIds: readonly string[];
}

const DAY_MS = 86_400_000;

export function gatherSignals(db: SqlReader, options: {
  agentId: string;
  memoryIds: readonly string[];
  /** Baseline score per memory. */
  fusedScores: ReadonlyMap<string, number>;
  nowMs: number;
  /** Past outcomes count only from sessions other than this one, recorded before `beforeIso`. */
  excludeSessionKey: string;
  beforeIso: string;
  paidOffRelevance: number;
}): Map<string, MemorySignals> {
  const out = new Map<string, MemorySignals>();
  const ids = [...new Set(options.memoryIds)];
  if (!ids.length) return out;
  const memRows = db.all<{ id: string; importance: number; created_at: string; access_count: number }>(
    `SELECT id, importance, created_at, access_count FROM memories WHERE id IN (${sqlPlaceholders(ids.length)})`, ids);
  const mem = new Map(memRows.map((r) => [r.id, r]));
  const aspectW = new Map<string, number[]>();
  const entities = new Map<string, Set<string>>();
  const pinnedIds = new Set<string>();
  for (const r of db.all<{ id: string }>('SELECT id FROM entities WHERE agent_id = ? AND pinned = 1', [options.agentId])) pinnedIds.add(r.id);
  // unary + keeps the planner on idx_attributes_memory (the unselective status index it once chose is gone since migration 28; the + stays as the guard)
  for (const r of db.all<{ memory_id: string; entity_id: string | null; weight: number | null }>(
    `SELECT t.memory_id, COALESCE(t.entity_id, a.entity_id) AS entity_id, a.weight FROM entity_attributes t LEFT JOIN entity_aspects a ON a.id = t.aspect_id
     WHERE +t.agent_id = ? AND +t.status = 'active' AND t.memory_id IN (${sqlPlaceholders(ids.length)})`, [options.agentId, ...ids])) {
    if (r.weight !== null) aspectW.set(r.memory_id, [...(aspectW.get(r.memory_id) ?? []), r.weight]);
    if (r.entity_id) entities.set(r.memory_id, (entities.get(r.memory_id) ?? new Set()).add(r.entity_id));
  }
  for (const r of db.all<{ memory_id: string; entity_id: string }>(
    `SELECT m.memory_id, m.entity_id FROM memory_entity_mentions m JOIN entities e ON e.id = m.entity_id
     WHERE e.agent_id = ? AND m.memory_id IN (${sqlPlaceholders(ids.length)})`, [options.agentId, ...ids])) {
    entities.set(r.memory_id, (entities.get(r.memory_id) ?? new Set()).add(r.entity_id));
  }
  const past = new Map<string, { n: number; paid: number }>();
  for (const r of db.all<{ memory_id: string; n: number; paid: number }>(
    `SELECT memory_id, COUNT(*) AS n, SUM(fts_hit_count > 0 OR COALESCE(relevance_score, 0) >= ?) AS paid FROM session_memories
     WHERE agent_id = ? AND session_key <> ? AND created_ms < ? AND memory_id IN (${sqlPlaceholders(ids.length)}) GROUP BY memory_id`,
    [options.paidOffRelevance, options.agentId, options.excludeSessionKey, Date.parse(options.beforeIso), ...ids])) past.set(r.memory_id, { n: r.n, paid: r.paid });
  for (const id of ids) {
    const m = mem.get(id);
    const ents = [...(entities.get(id) ?? [])].sort();
    const p = past.get(id);
    out.set(id, {
      entityIds: ents,
      signals: {
        fusedScore: options.fusedScores.get(id) ?? 0,
        ageDays: m ? Math.max(0, (options.nowMs - Date.parse(m.created_at)) / DAY_MS) : 0,
        accessCount: m?.access_count ?? 0,
        importance: m?.importance ?? 0,
        aspectWeights: aspectW.get(id) ?? [],
        linkedToPinned: ents.some((e) => pinnedIds.has(e)),
        pastRelevance: p && p.n > 0 ? p.paid / p.n : undefined,
      },
    });
  }
  return out;
}

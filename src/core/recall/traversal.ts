/**
 * Knowledge-graph traversal over focal entities feeding the traversal
 * channel. Phase 1 walks the focal entities' constraints (always), aspects (by weight, at most
 * maxAspectsPerEntity each), their active attributes (by importance, at most maxAttributesPerAspect
 * per aspect) and, while the memory budget (maxPaths) lasts, memories that mention the entity.
 * Phase 2 follows dependencies one hop (relations with confidence·strength ≥ minDependencyStrength
 * and confidence ≥ minConfidence, at most maxBranching per focal entity) and collects the same for
 * the targets. The deadline is checked between steps; any exception returns what was collected.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { SqlReader } from '../store/storeTypes';
import { sqlPlaceholders } from '../store/sqlPlaceholders';

export interface TraversalResult {
  /** Memory id → best importance seen on a path to it. */
  readonly memoryScores: Map<string, number>;
  /** Memories holding an active constraint of a focal entity (surfaced unconditionally). */
  readonly constraintMemoryIds: Set<string>;
  readonly entityCount: number;
  readonly timedOut: boolean;
}


function collect(db: SqlReader, entityIds: readonly string[], cfg: SearchConfig['traversal'], acc: TraversalResult): void {
  if (entityIds.length === 0) return;
  const ids = [...entityIds];
  const put = (id: string, score: number): void => {
    if (!acc.memoryScores.has(id) && acc.memoryScores.size >= cfg.maxPaths) return;
    acc.memoryScores.set(id, Math.max(acc.memoryScores.get(id) ?? 0, score));
  };
  // An attribute belongs to its entity_id, or (entity_id NULL) to its aspect's entity. Two indexed
  // lookups (idx_attributes_entity, idx_aspects_entity + idx_attributes_aspect), not a COALESCE over
  // every active attribute of the store.
  for (const r of db.all<{ memory_id: string; importance: number }>(
    `SELECT c.memory_id AS memory_id, c.importance AS importance FROM (
       SELECT a.memory_id AS memory_id, a.importance AS importance FROM entity_attributes a
        WHERE a.entity_id IN (${sqlPlaceholders(ids.length)}) AND +a.kind = 'constraint' AND +a.status = 'active'
       UNION ALL
       SELECT a.memory_id, a.importance FROM entity_attributes a
        WHERE a.aspect_id IN (SELECT id FROM entity_aspects WHERE entity_id IN (${sqlPlaceholders(ids.length)}))
          AND +a.entity_id IS NULL AND +a.kind = 'constraint' AND +a.status = 'active'
     ) c JOIN memories m ON m.id = c.memory_id
      WHERE +m.is_deleted = 0
      ORDER BY c.importance DESC`, [...ids, ...ids])) {
    acc.constraintMemoryIds.add(r.memory_id);
    acc.memoryScores.set(r.memory_id, Math.max(acc.memoryScores.get(r.memory_id) ?? 0, r.importance));
  }
  const perEntity = new Map<string, number>();
  const aspects = db.all<{ id: string; entity_id: string }>(
    `SELECT id, entity_id FROM entity_aspects WHERE entity_id IN (${sqlPlaceholders(ids.length)}) AND +status = 'active' ORDER BY weight DESC, id`, ids)
    .filter((a) => { const n = perEntity.get(a.entity_id) ?? 0; perEntity.set(a.entity_id, n + 1); return n < cfg.maxAspectsPerEntity; });
  if (aspects.length > 0) {
    const perAspect = new Map<string, number>();
    for (const r of db.all<{ aspect_id: string; memory_id: string; importance: number }>(
      `SELECT a.aspect_id AS aspect_id, a.memory_id AS memory_id, a.importance AS importance FROM entity_attributes a JOIN memories m ON m.id = a.memory_id
        WHERE a.aspect_id IN (${sqlPlaceholders(aspects.length)}) AND +a.status = 'active' AND +m.is_deleted = 0 ORDER BY a.importance DESC LIMIT ?`,
      [...aspects.map((a) => a.id), cfg.maxAttributesPerAspect * aspects.length])) {
      const n = perAspect.get(r.aspect_id) ?? 0;
      if (n >= cfg.maxAttributesPerAspect) continue;
      perAspect.set(r.aspect_id, n + 1);
      put(r.memory_id, r.importance);
    }
  }
  const remaining = cfg.maxPaths - acc.memoryScores.size;
  if (remaining > 0) {
    for (const r of db.all<{ id: string; importance: number }>(
      `SELECT DISTINCT m.id AS id, m.importance AS importance FROM memory_entity_mentions mem JOIN memories m ON m.id = mem.memory_id
        WHERE mem.entity_id IN (${sqlPlaceholders(ids.length)}) AND +m.is_deleted = 0 ORDER BY mem.confidence DESC, m.importance DESC LIMIT ?`, [...ids, remaining])) {
      put(r.id, r.importance);
    }
  }
}

/** `agentId`: dependencies are followed only to that agent's entities; undefined = any. */
export function traverseKnowledgeGraph(db: SqlReader, focalIds: readonly string[], cfg: SearchConfig['traversal'], now: () => number = Date.now, agentId?: string): TraversalResult {
  const acc: TraversalResult = { memoryScores: new Map(), constraintMemoryIds: new Set(), entityCount: focalIds.length, timedOut: false };
  if (focalIds.length === 0) return acc;
  const deadline = now() + cfg.timeoutMs;
  try {
    collect(db, focalIds, cfg, acc);
    if (now() > deadline) return { ...acc, timedOut: true };
    if (cfg.maxBranching === 0 || acc.memoryScores.size >= cfg.maxPaths) return acc;
    const deps = db.all<{ id: string }>(
      `SELECT target_entity_id AS id FROM relations
        WHERE source_entity_id IN (${sqlPlaceholders(focalIds.length)}) AND confidence * strength >= ? AND confidence >= ?${agentId === undefined ? '' : ' AND target_entity_id IN (SELECT id FROM entities WHERE agent_id = ?)'}
        ORDER BY confidence * strength DESC, id LIMIT ?`,
      [...focalIds, cfg.minDependencyStrength, cfg.minConfidence, ...(agentId === undefined ? [] : [agentId]), cfg.maxBranching * focalIds.length])
      .map((r) => r.id).filter((id) => !focalIds.includes(id));
    collect(db, [...new Set(deps)], cfg, acc);
    return { ...acc, entityCount: focalIds.length + new Set(deps).size, timedOut: now() > deadline };
  } catch {
    return acc;
  }
}

/**
 * Graph-augmented search (seed 000, signet-spec §2.7): query tokens → entities whose canonical_name
 * contains a token (ordered by mentions, at most maxEntities) → one hop through relations in both
 * directions (at most maxNeighbours more) → memories through memory_entity_mentions (at most
 * maxMemories, not deleted). A deadline is checked after each step (what was gathered so far comes
 * back with timedOut); any exception gives an empty result. The boost itself is additive.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { SqlReader } from '../store/storeTypes';
import { graphTokens } from './queryTerms';

export interface GraphBoostResult {
  readonly memoryIds: Set<string>;
  readonly entityIds: string[];
  readonly timedOut: boolean;
}

const EMPTY = (): GraphBoostResult => ({ memoryIds: new Set(), entityIds: [], timedOut: false });

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

export function getGraphBoostIds(db: SqlReader, query: string, cfg: SearchConfig['graphBoost'], now: () => number = Date.now): GraphBoostResult {
  try {
    const deadline = now() + cfg.timeoutMs;
    const tokens = graphTokens(query);
    if (tokens.length === 0 || !db.hasTable('entities') || !db.hasTable('memory_entity_mentions')) return EMPTY();
    const where = tokens.map(() => "canonical_name LIKE ? ESCAPE '\\'").join(' OR ');
    const hits = db.all<{ id: string }>(
      `SELECT id FROM entities WHERE status = 'active' AND (${where}) ORDER BY mentions DESC, id LIMIT ?`,
      [...tokens.map((t) => `%${likeEscape(t)}%`), cfg.maxEntities]).map((r) => r.id);
    if (hits.length === 0) return EMPTY();
    if (now() > deadline) return { memoryIds: new Set(), entityIds: hits, timedOut: true };
    const ph = hits.map(() => '?').join(',');
    const neighbours = cfg.maxNeighbours === 0 ? [] : db.all<{ id: string }>(
      `SELECT DISTINCT id FROM (
         SELECT target_entity_id AS id FROM relations WHERE source_entity_id IN (${ph})
         UNION SELECT source_entity_id AS id FROM relations WHERE target_entity_id IN (${ph})
       ) WHERE id NOT IN (${ph}) LIMIT ?`, [...hits, ...hits, ...hits, cfg.maxNeighbours]).map((r) => r.id);
    const entityIds = [...hits, ...neighbours];
    if (now() > deadline) return { memoryIds: new Set(), entityIds, timedOut: true };
    const ph2 = entityIds.map(() => '?').join(',');
    const mems = db.all<{ id: string }>(
      `SELECT DISTINCT mem.memory_id AS id FROM memory_entity_mentions mem JOIN memories m ON m.id = mem.memory_id
        WHERE mem.entity_id IN (${ph2}) AND m.is_deleted = 0 LIMIT ?`, [...entityIds, cfg.maxMemories]).map((r) => r.id);
    return { memoryIds: new Set(mems), entityIds, timedOut: now() > deadline };
  } catch {
    return EMPTY();
  }
}

/**
 * Graph-augmented search (seed 000, signet-spec §2.7): query tokens → entities whose canonical_name
 * contains a token (ordered by mentions, at most maxEntities) → one hop through relations in both
 * directions (at most maxNeighbours more) → memories through memory_entity_mentions (at most
 * maxMemories, not deleted). A deadline is checked after each step (what was gathered so far comes
 * back with timedOut); any exception gives an empty result. The boost itself is additive.
 */
import type { SearchConfig } from '../config/searchConfig';
import type { SqlReader } from '../store/storeTypes';
import { buildMatchExpression } from './ftsQuery';
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

/**
 * Entities whose canonical name contains one of `tokens` as a word (entities_fts, quoted terms),
 * most mentioned first; without the FTS table, a substring LIKE on canonical_name.
 */
export function entitiesForTokens(db: SqlReader, tokens: readonly string[], limit: number): string[] {
  if (tokens.length === 0) return [];
  const match = buildMatchExpression(tokens, 'OR');
  if (db.hasTable('entities_fts') && match) {
    return db.all<{ id: string }>(
      `SELECT e.id AS id FROM entities_fts f JOIN entities e ON e.rowid = f.rowid
        WHERE entities_fts MATCH ? AND e.status = 'active' ORDER BY e.mentions DESC, e.id LIMIT ?`, [`canonical_name : (${match})`, limit]).map((r) => r.id);
  }
  const where = tokens.map(() => "canonical_name LIKE ? ESCAPE '\\'").join(' OR ');
  return db.all<{ id: string }>(
    `SELECT id FROM entities WHERE status = 'active' AND (${where}) ORDER BY mentions DESC, id LIMIT ?`,
    [...tokens.map((t) => `%${likeEscape(t)}%`), limit]).map((r) => r.id);
}

/** `exclude`: tokens not to match (the request's project name: every memory of it would qualify). */
export function getGraphBoostIds(db: SqlReader, query: string, cfg: SearchConfig['graphBoost'], now: () => number = Date.now, exclude: ReadonlySet<string> = new Set()): GraphBoostResult {
  try {
    const deadline = now() + cfg.timeoutMs;
    const tokens = graphTokens(query).filter((t) => !exclude.has(t));
    if (tokens.length === 0 || !db.hasTable('entities') || !db.hasTable('memory_entity_mentions')) return EMPTY();
    const hits = entitiesForTokens(db, tokens, cfg.maxEntities);
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
        WHERE mem.entity_id IN (${ph2}) AND +m.is_deleted = 0 LIMIT ?`, [...entityIds, cfg.maxMemories]).map((r) => r.id);
    return { memoryIds: new Set(mems), entityIds, timedOut: now() > deadline };
  } catch {
    return EMPTY();
  }
}

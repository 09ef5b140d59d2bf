/**
 * Graph-augmented search: query tokens → entities whose canonical_name
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
  /** Memory id → share of the boost weight it earns (1 for every memory without specificity). */
  readonly weights: Map<string, number>;
  readonly entityIds: string[];
  readonly timedOut: boolean;
}

const EMPTY = (): GraphBoostResult => ({ memoryIds: new Set(), weights: new Map(), entityIds: [], timedOut: false });

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

/**
 * Entities whose canonical name contains one of `tokens` as a word (entities_fts, quoted terms),
 * most mentioned first; when the tokens make no FTS match expression, a substring LIKE on
 * canonical_name.
 */
export function entitiesForTokens(db: SqlReader, tokens: readonly string[], limit: number, agentId?: string): string[] {
  if (tokens.length === 0) return [];
  const match = buildMatchExpression(tokens, 'OR');
  const agentParam = agentId === undefined ? [] : [agentId];
  if (match) {
    return db.all<{ id: string }>(
      `SELECT e.id AS id FROM entities_fts f JOIN entities e ON e.rowid = f.rowid
        WHERE entities_fts MATCH ? AND e.status = 'active'${agentId === undefined ? '' : ' AND e.agent_id = ?'} ORDER BY e.mentions DESC, e.id LIMIT ?`, [`canonical_name : (${match})`, ...agentParam, limit]).map((r) => r.id);
  }
  const where = tokens.map(() => "canonical_name LIKE ? ESCAPE '\\'").join(' OR ');
  return db.all<{ id: string }>(
    `SELECT id FROM entities WHERE status = 'active'${agentId === undefined ? '' : ' AND agent_id = ?'} AND (${where}) ORDER BY mentions DESC, id LIMIT ?`,
    [...agentParam, ...tokens.map((t) => `%${likeEscape(t)}%`), limit]).map((r) => r.id);
}

/**
 * How specific an entity is in this store: ln(N / mentions) / ln(N) over the N live memories, in
 * [0, 1]. An entity linked to one memory is fully specific; one linked to every memory (a
 * conversation's speaker, a project's main service in a small store) says nothing about which
 * memory answers and gets ~0.
 */
export function entitySpecificity(mentions: number, memoryCount: number): number {
  const n = Math.max(2, memoryCount);
  return Math.min(1, Math.max(0, Math.log(n / Math.max(1, mentions)) / Math.log(n)));
}

/** The entities of `ids` at least `minSpecificity` specific in this store, order kept (0 keeps all). */
export function specificEntities(db: SqlReader, ids: readonly string[], minSpecificity: number): string[] {
  if (minSpecificity <= 0 || ids.length === 0) return [...ids];
  const total = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE is_deleted = 0')?.n ?? 0;
  const mentions = new Map(db.all<{ id: string; mentions: number }>(`SELECT id, mentions FROM entities WHERE id IN (${ids.map(() => '?').join(',')})`, [...ids]).map((r) => [r.id, r.mentions]));
  return ids.filter((id) => entitySpecificity(mentions.get(id) ?? 0, total) >= minSpecificity);
}

/** Share of an entity name's words the query holds: "support group" is central to a question about a support group, "Caroline's support group" half. */
export function queryCoverage(canonicalName: string, queryTokens: ReadonlySet<string>): number {
  const words = graphTokens(canonicalName);
  if (words.length === 0) return 0;
  return words.filter((w) => queryTokens.has(w)).length / words.length;
}

/**
 * `exclude`: tokens not to match (the request's project name: every memory of it would qualify).
 * `agentId`: only this agent's entities boost (query hits and one-hop neighbours); undefined = all.
 */
export function getGraphBoostIds(db: SqlReader, query: string, cfg: SearchConfig['graphBoost'], now: () => number = Date.now, exclude: ReadonlySet<string> = new Set(), agentId?: string): GraphBoostResult {
  try {
    const deadline = now() + cfg.timeoutMs;
    const tokens = graphTokens(query).filter((t) => !exclude.has(t));
    if (tokens.length === 0) return EMPTY();
    const hits = entitiesForTokens(db, tokens, cfg.maxEntities, agentId);
    if (hits.length === 0) return EMPTY();
    if (now() > deadline) return { memoryIds: new Set(), weights: new Map(), entityIds: hits, timedOut: true };
    const ph = hits.map(() => '?').join(',');
    const neighbours = cfg.maxNeighbours === 0 ? [] : db.all<{ id: string }>(
      `SELECT DISTINCT id FROM (
         SELECT target_entity_id AS id FROM relations WHERE source_entity_id IN (${ph})
         UNION SELECT source_entity_id AS id FROM relations WHERE target_entity_id IN (${ph})
       ) WHERE id NOT IN (${ph})${agentId === undefined ? '' : ' AND id IN (SELECT id FROM entities WHERE agent_id = ?)'} LIMIT ?`,
      [...hits, ...hits, ...hits, ...(agentId === undefined ? [] : [agentId]), cfg.maxNeighbours]).map((r) => r.id);
    const entityIds = [...hits, ...neighbours];
    if (now() > deadline) return { memoryIds: new Set(), weights: new Map(), entityIds, timedOut: true };
    // Entity weight: flat 1, or specificity × centrality to the query (neighbours: half
    // their specificity), so a speaker or a store-wide hub adds next to nothing.
    const weightOf = new Map<string, number>();
    if (cfg.specificity) {
      const total = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE is_deleted = 0')?.n ?? 0;
      const queryTokens = new Set(tokens);
      const rows = db.all<{ id: string; canonical_name: string; mentions: number }>(
        `SELECT id, canonical_name, mentions FROM entities WHERE id IN (${entityIds.map(() => '?').join(',')})`, entityIds);
      const hitSet = new Set(hits);
      for (const r of rows) {
        const spec = entitySpecificity(r.mentions, total);
        weightOf.set(r.id, hitSet.has(r.id) ? spec * queryCoverage(r.canonical_name, queryTokens) : cfg.neighbourWeight * spec);
      }
    }
    const ordered = cfg.specificity ? [...entityIds].sort((a, b) => (weightOf.get(b) ?? 0) - (weightOf.get(a) ?? 0)) : entityIds;
    const weights = new Map<string, number>();
    // Most specific entities first, so the memory budget is not spent on a hub's memories.
    for (const e of ordered) {
      const w = cfg.specificity ? weightOf.get(e) ?? 0 : 1;
      if (w <= cfg.minEntityWeight && cfg.specificity) continue;
      const left = cfg.maxMemories - weights.size;
      if (left <= 0) break;
      for (const r of db.all<{ id: string }>(
        `SELECT DISTINCT mem.memory_id AS id FROM memory_entity_mentions mem JOIN memories m ON m.id = mem.memory_id
          WHERE mem.entity_id = ? AND +m.is_deleted = 0 LIMIT ?`, [e, cfg.maxMemories])) {
        if (!weights.has(r.id) && weights.size >= cfg.maxMemories) continue;
        weights.set(r.id, Math.max(weights.get(r.id) ?? 0, w));
      }
      if (now() > deadline) return { memoryIds: new Set(weights.keys()), weights, entityIds, timedOut: true };
    }
    return { memoryIds: new Set(weights.keys()), weights, entityIds, timedOut: now() > deadline };
  } catch {
    return EMPTY();
  }
}

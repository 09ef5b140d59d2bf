/**
 * Read queries behind the Knowledge panel over the graph tables: the entity list with its counts,
 * an entity's full structure (aspects, attributes, relations both ways), the table counts and the
 * focal set stored with the newest session. Rows only; the panel's adapter
 * (src/extension/knowledge/entityViews.ts) shapes them into protocol views.
 */
import type { SqlReader } from '../store/storeTypes';
import { ENTITY_HAS_KNOWLEDGE } from './graphQueries';

/** An entity with the counts the list shows. */
export interface EntityListRow {
  readonly id: string;
  readonly name: string;
  readonly entityType: string;
  readonly pinned: boolean;
  readonly pinnedAt: string | null;
  readonly mentions: number;
  readonly aspects: number;
  readonly attributes: number;
  readonly constraints: number;
  readonly relations: number;
}

export interface EntityListFilter {
  /** Free text matched against entity names (case-insensitive substring); '' for all. */
  readonly query: string;
  /** An entity_type, or null for every type. */
  readonly entityType: string | null;
}

interface EntityRow {
  id: string; name: string; entity_type: string; pinned: number; pinned_at: string | null; mentions: number;
  aspects: number; attributes: number; constraints: number; relations: number;
}

/* The unary + keeps SQLite (no ANALYZE statistics) from picking the low-selectivity status index
   over idx_attributes_entity: measured 11.5 s instead of ~15 ms for a 200-row page at 10k entities. */
const SUMMARY_COLUMNS = `e.id, e.name, e.entity_type, e.pinned, e.pinned_at, e.mentions,
  (SELECT COUNT(*) FROM entity_aspects a WHERE a.entity_id = e.id) AS aspects,
  (SELECT COUNT(*) FROM entity_attributes t WHERE t.entity_id = e.id AND +t.status = 'active' AND +t.kind = 'attribute') AS attributes,
  (SELECT COUNT(*) FROM entity_attributes t WHERE t.entity_id = e.id AND +t.status = 'active' AND +t.kind = 'constraint') AS constraints,
  (SELECT COUNT(*) FROM relations r WHERE r.source_entity_id = e.id) + (SELECT COUNT(*) FROM relations r WHERE r.target_entity_id = e.id) AS relations`;

/**
 * The list order of the Knowledge tab: pinned first, newest pin first, then mentions, recency,
 * name. It is exactly idx_entities_order, so pages are read off the index (ties keep the index's
 * rowid order): 0.3 ms for the first page and 11 ms at offset 9,800 of 10k entities.
 */
const LIST_ORDER = 'e.pinned DESC, e.pinned_at DESC, e.mentions DESC, e.updated_at DESC, e.name';

/** Ids per IN (...) list, below SQLite's default bound on host parameters. */
const ID_CHUNK = 500;

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

function toRow(r: EntityRow): EntityListRow {
  return {
    id: r.id, name: r.name, entityType: r.entity_type, pinned: r.pinned !== 0, pinnedAt: r.pinned_at, mentions: r.mentions,
    aspects: r.aspects, attributes: r.attributes, constraints: r.constraints, relations: r.relations,
  };
}

function filterClause(agentId: string, f: EntityListFilter): { clause: string; params: (string | number)[] } {
  const where = ['e.agent_id = ?', "+e.status = 'active'"];
  const params: (string | number)[] = [agentId];
  if (f.entityType) { where.push('e.entity_type = ?'); params.push(f.entityType); }
  const text = f.query.trim().toLowerCase();
  if (text) { where.push("(e.canonical_name LIKE ? ESCAPE '\\' OR lower(e.name) LIKE ? ESCAPE '\\')"); const p = `%${likeEscape(text)}%`; params.push(p, p); }
  // Without a search, an unpinned entity with nothing attached (no aspect, no relation: only mentions) is
  // not listed (docs/vscode.md, "Knowledge panel"); searching its name still finds it.
  else where.push(ENTITY_HAS_KNOWLEDGE);
  return { clause: where.join(' AND '), params };
}

/** Active entities matching a name substring (case-insensitive, LIKE-escaped) and a type. */
export function countEntities(db: SqlReader, agentId: string, f: EntityListFilter): number {
  const { clause, params } = filterClause(agentId, f);
  return db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM entities e WHERE ${clause}`, params)?.n ?? 0;
}

/** One page of matching entities in the list order, with their counts. */
export function entityPage(db: SqlReader, agentId: string, f: EntityListFilter & { readonly offset: number; readonly limit: number }): EntityListRow[] {
  const { clause, params } = filterClause(agentId, f);
  // Page the ids first, then count only for that page (counting for every row before the sort
  // would cost a store-sized scan per page).
  const ids = db.all<{ id: string }>(`SELECT e.id FROM entities e WHERE ${clause} ORDER BY ${LIST_ORDER} LIMIT ? OFFSET ?`, [...params, f.limit, f.offset]).map((r) => r.id);
  const byId = new Map<string, EntityRow>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    for (const r of db.all<EntityRow>(`SELECT ${SUMMARY_COLUMNS} FROM entities e WHERE e.id IN (${chunk.map(() => '?').join(', ')})`, chunk)) byId.set(r.id, r);
  }
  return ids.map((id) => byId.get(id)).filter((r): r is EntityRow => r !== undefined).map(toRow);
}

/** Entity types present among active entities (for the type filter), sorted. */
export function listEntityTypes(db: SqlReader, agentId: string): string[] {
  return db.all<{ t: string }>("SELECT DISTINCT entity_type AS t FROM entities WHERE agent_id = ? AND +status = 'active' ORDER BY t", [agentId]).map((r) => r.t).filter(Boolean);
}

export interface EntityAspectRow {
  readonly id: string;
  readonly name: string;
  readonly weight: number;
  readonly updatedAt: string | null;
}

export interface EntityAttributeRow {
  readonly id: string;
  readonly aspectId: string | null;
  readonly kind: string;
  readonly status: string;
  readonly importance: number;
  readonly content: string;
  readonly supersededBy: string | null;
  /** The memory the claim came from (team marks look it up). */
  readonly memoryId: string | null;
  /** The slot the claim fills (`value`, `port`, …), when it has one. */
  readonly claimKey: string | null;
  /** When the claim was made: its source memory's time. */
  readonly observedAt: string | null;
  /** The source memory's text, cut to SOURCE_CHARS (the sentence a keyed claim came from). */
  readonly source: string | null;
}

/** How much of a claim's source memory the detail carries. */
export const SOURCE_CHARS = 240;

/** A row an attribute was superseded by that is not on the entity (a replacing memory's claim row). */
export interface ReplacementRow {
  readonly id: string;
  readonly content: string;
  readonly observedAt: string | null;
}

/** The rows with these ids (replacements outside the entity), by id. */
export function readReplacements(db: SqlReader, ids: readonly string[]): Map<string, ReplacementRow> {
  const out = new Map<string, ReplacementRow>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    for (const r of db.all<{ id: string; content: string; created_at: string | null }>(
      `SELECT id, content, created_at FROM entity_attributes WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk)) {
      out.set(r.id, { id: r.id, content: r.content, observedAt: r.created_at });
    }
  }
  return out;
}

export interface EntityRelationRow {
  readonly id: string;
  readonly direction: 'incoming' | 'outgoing';
  readonly relationType: string;
  readonly otherId: string;
  readonly otherName: string | null;
  readonly strength: number;
  readonly confidence: number;
  readonly mentions: number;
}

export interface EntityStructure {
  readonly entity: EntityListRow & { readonly canonicalName: string; readonly description: string | null; readonly updatedAt: string };
  /** Heaviest first. */
  readonly aspects: readonly EntityAspectRow[];
  /** Every attribute of the entity (any status), most important and newest first. */
  readonly attributes: readonly EntityAttributeRow[];
  /** Outgoing and incoming, most mentioned and strongest first. */
  readonly relations: readonly EntityRelationRow[];
}

/** An entity of the agent with its aspects, attributes and relations both ways; undefined when absent. */
export function readEntityStructure(db: SqlReader, agentId: string, id: string): EntityStructure | undefined {
  const row = db.get<EntityRow & { canonical_name: string; description: string | null; updated_at: string }>(
    `SELECT ${SUMMARY_COLUMNS}, e.canonical_name, e.description, e.updated_at FROM entities e WHERE e.id = ? AND e.agent_id = ?`, [id, agentId]);
  if (!row) return undefined;
  const aspects = db.all<{ id: string; name: string; weight: number; updated_at: string | null }>(
    'SELECT id, name, weight, updated_at FROM entity_aspects WHERE entity_id = ? ORDER BY weight DESC, name, id', [id]);
  const attributes = db.all<{ id: string; aspect_id: string | null; kind: string; status: string; importance: number; content: string; superseded_by: string | null; memory_id: string | null; claim_key: string | null; created_at: string | null; source: string | null }>(
    `SELECT t.id, t.aspect_id, t.kind, t.status, t.importance, t.content, t.superseded_by, t.memory_id, t.claim_key, t.created_at,
            substr(m.content, 1, ${SOURCE_CHARS}) AS source
       FROM entity_attributes t LEFT JOIN memories m ON m.id = t.memory_id
     WHERE t.entity_id = ? ORDER BY t.importance DESC, t.updated_at DESC, t.id`, [id]);
  const relations = db.all<{ id: string; dir: string; relation_type: string; other_id: string; other_name: string | null; strength: number; confidence: number; mentions: number }>(
    `SELECT r.id, 'outgoing' AS dir, r.relation_type, r.target_entity_id AS other_id, o.name AS other_name, r.strength, r.confidence, r.mentions
       FROM relations r LEFT JOIN entities o ON o.id = r.target_entity_id WHERE r.source_entity_id = ?
     UNION ALL
     SELECT r.id, 'incoming' AS dir, r.relation_type, r.source_entity_id AS other_id, o.name AS other_name, r.strength, r.confidence, r.mentions
       FROM relations r LEFT JOIN entities o ON o.id = r.source_entity_id WHERE r.target_entity_id = ?
     ORDER BY 8 DESC, 7 DESC, 1`, [id, id]);
  return {
    entity: { ...toRow(row), canonicalName: row.canonical_name, description: row.description, updatedAt: row.updated_at },
    aspects: aspects.map((a) => ({ id: a.id, name: a.name, weight: a.weight, updatedAt: a.updated_at })),
    attributes: attributes.map((a) => ({ id: a.id, aspectId: a.aspect_id, kind: a.kind, status: a.status, importance: a.importance, content: a.content, supersededBy: a.superseded_by, memoryId: a.memory_id,
      claimKey: a.claim_key, observedAt: a.created_at, source: a.source })),
    relations: relations.map((r) => ({
      id: r.id, direction: r.dir === 'incoming' ? 'incoming' : 'outgoing', relationType: r.relation_type, otherId: r.other_id, otherName: r.other_name,
      strength: r.strength, confidence: r.confidence, mentions: r.mentions,
    })),
  };
}

export interface KnowledgeTableCounts {
  /** Live memories. */
  readonly memories: number;
  /** Active entities, and the pinned ones among them. */
  readonly entities: number;
  readonly pinned: number;
  readonly aspects: number;
  /** Active attributes and constraints. */
  readonly attributes: number;
  readonly constraints: number;
  readonly relations: number;
}

/** Table counts of an agent for the stats card. */
export function knowledgeTableCounts(db: SqlReader, agentId: string): KnowledgeTableCounts {
  const n = (sql: string, params: (string | number)[] = [agentId]): number => db.get<{ n: number }>(sql, params)?.n ?? 0;
  const kinds = db.all<{ kind: string; n: number }>("SELECT kind, COUNT(*) AS n FROM entity_attributes WHERE agent_id = ? AND status = 'active' GROUP BY kind", [agentId]);
  const ofKind = (k: string): number => kinds.find((r) => r.kind === k)?.n ?? 0;
  return {
    memories: n('SELECT COUNT(*) AS n FROM memories WHERE agent_id = ? AND is_deleted = 0'),
    entities: n("SELECT COUNT(*) AS n FROM entities WHERE agent_id = ? AND status = 'active'"),
    pinned: n("SELECT COUNT(*) AS n FROM entities WHERE agent_id = ? AND status = 'active' AND pinned = 1"),
    aspects: n('SELECT COUNT(*) AS n FROM entity_aspects WHERE agent_id = ?'),
    attributes: ofKind('attribute'),
    constraints: ofKind('constraint'),
    relations: n('SELECT COUNT(*) AS n FROM relations', []),
  };
}

/** The focal entity ids stored with the agent's newest session and when it started; undefined without sessions. */
export function latestSessionFocal(db: SqlReader, agentId: string): { readonly entityIds: string[]; readonly startedAt: string } | undefined {
  const row = db.get<{ focal_entity_ids: string | null; started_at: string }>('SELECT focal_entity_ids, started_at FROM sessions WHERE agent_id = ? ORDER BY started_at DESC LIMIT 1', [agentId]);
  if (!row) return undefined;
  let ids: unknown;
  try { ids = JSON.parse(row.focal_entity_ids ?? '[]'); } catch { ids = []; }
  return { entityIds: Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string' && x.length > 0) : [], startedAt: row.started_at };
}

/** Name and pin state of an entity; undefined when absent. */
export function entityNameAndPin(db: SqlReader, id: string): { readonly name: string; readonly pinned: boolean } | undefined {
  const e = db.get<{ name: string; pinned: number }>('SELECT name, pinned FROM entities WHERE id = ?', [id]);
  return e ? { name: e.name, pinned: e.pinned !== 0 } : undefined;
}

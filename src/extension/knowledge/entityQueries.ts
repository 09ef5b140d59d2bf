/**
 * Read queries of the Knowledge panel over the graph tables (signet-spec §1.5–1.7): the entity
 * list with its counts, an entity's detail, and the table counts. No other module lists entities
 * with counts or reads an entity's full structure, so these are the panel's own (read-only);
 * pinning, health and feedback stats come from their modules (see storeKnowledgeSource.ts).
 * Without the graph tables everything reads as empty.
 */
import type { SqlReader } from '../../core/store/storeTypes';
import { teamMarks } from '../../core/team/teamMarks';
import type { TeamMark } from '../../core/team/teamMarks';
import type {
  AspectView, AttributeStatus, AttributeView, EntityDetail, EntityHealthView, EntitySummary, KnowledgeCounts, RelationView,
} from '../../../webview/protocolTypes';
import type { EntityListQuery, EntityPage } from './knowledgeDataSource';

export type HealthLookup = (entityId: string) => EntityHealthView | null;

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
 * The list order of the reference Knowledge tab: pinned first, newest pin first, then mentions,
 * recency, name. It is exactly idx_entities_order, so pages are read off the index (ties keep the
 * index's rowid order): 0.3 ms for the first page and 11 ms at offset 9,800 of 10k entities.
 */
const LIST_ORDER = 'e.pinned DESC, e.pinned_at DESC, e.mentions DESC, e.updated_at DESC, e.name';

/** Ids per IN (...) list, below SQLite's default bound on host parameters. */
const ID_CHUNK = 500;

function hasGraph(db: SqlReader): boolean {
  return db.hasTable('entities') && db.hasTable('entity_aspects') && db.hasTable('entity_attributes') && db.hasTable('relations');
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

function toSummary(r: EntityRow, health: HealthLookup): EntitySummary {
  return {
    id: r.id, name: r.name || r.id, type: r.entity_type || 'unknown', pinned: r.pinned !== 0, pinnedAt: r.pinned ? r.pinned_at : null,
    mentions: Math.max(0, r.mentions), aspects: r.aspects, attributes: r.attributes, constraints: r.constraints, relations: r.relations,
    health: health(r.id),
  };
}

/** One page of entities matching a name substring (case-insensitive, LIKE-escaped) and a type. */
/** `types` defaults to listEntityTypes; the data source passes a cached one. */
export function listEntityPage(
  db: SqlReader, agentId: string, q: EntityListQuery, health: HealthLookup,
  types: () => string[] = () => listEntityTypes(db, agentId),
  /** Totals per (type, query) for the current store version, filled on first use. */
  totals: Map<string, number> = new Map(),
): EntityPage {
  if (!hasGraph(db)) return { entities: [], total: 0, types: [] };
  const where = ["e.agent_id = ?", "+e.status = 'active'"];
  const params: (string | number)[] = [agentId];
  if (q.entityType) { where.push('e.entity_type = ?'); params.push(q.entityType); }
  const text = q.query.trim().toLowerCase();
  if (text) { where.push("(e.canonical_name LIKE ? ESCAPE '\\' OR lower(e.name) LIKE ? ESCAPE '\\')"); const p = `%${likeEscape(text)}%`; params.push(p, p); }
  const clause = where.join(' AND ');
  const key = `${q.entityType ?? ''}\u0000${text}`;
  let total = totals.get(key);
  if (total === undefined) {
    total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM entities e WHERE ${clause}`, params)?.n ?? 0;
    totals.set(key, total);
  }
  // Page the ids first, then count only for that page (counting for every row before the sort
  // would cost a store-sized scan per page).
  const ids = db.all<{ id: string }>(`SELECT e.id FROM entities e WHERE ${clause} ORDER BY ${LIST_ORDER} LIMIT ? OFFSET ?`, [...params, q.limit, q.offset]).map((r) => r.id);
  const byId = new Map<string, EntityRow>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    for (const r of db.all<EntityRow>(`SELECT ${SUMMARY_COLUMNS} FROM entities e WHERE e.id IN (${chunk.map(() => '?').join(', ')})`, chunk)) byId.set(r.id, r);
  }
  const rows = ids.map((id) => byId.get(id)).filter((r): r is EntityRow => r !== undefined);
  return { entities: rows.map((r) => toSummary(r, health)), total, types: types() };
}

/** Entity types present (for the type filter), sorted. */
export function listEntityTypes(db: SqlReader, agentId: string): string[] {
  if (!db.hasTable('entities')) return [];
  return db.all<{ t: string }>("SELECT DISTINCT entity_type AS t FROM entities WHERE agent_id = ? AND +status = 'active' ORDER BY t", [agentId]).map((r) => r.t).filter(Boolean);
}

interface AttributeRow {
  id: string; aspect_id: string | null; kind: string; status: string; importance: number; content: string; superseded_by: string | null; memory_id: string | null;
}

function clamp01(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

/** "Superseded by …" for replaced claims; "Replaces …" for the current one (structured currentness). */
function currentnessNote(a: AttributeRow, byId: ReadonlyMap<string, AttributeRow>, replaces: ReadonlyMap<string, AttributeRow>): string | null {
  const short = (s: string) => (s.length > 160 ? s.slice(0, 159) + '…' : s);
  if (a.status === 'superseded') {
    const by = a.superseded_by ? byId.get(a.superseded_by) : undefined;
    if (by) return `Superseded by: ${short(by.content)}`;
    return a.superseded_by ? 'Superseded by a newer claim.' : 'Superseded: its memory was deleted or replaced.';
  }
  if (a.status === 'deleted') return 'Deleted.';
  const old = replaces.get(a.id);
  return old ? `Current; replaces: ${short(old.content)}` : null;
}

function toAttribute(a: AttributeRow, byId: ReadonlyMap<string, AttributeRow>, replaces: ReadonlyMap<string, AttributeRow>, marks: ReadonlyMap<string, TeamMark>): AttributeView {
  const team = a.memory_id ? marks.get(a.memory_id) : undefined;
  const status: AttributeStatus = a.status === 'superseded' || a.status === 'deleted' ? a.status : 'active';
  return {
    id: a.id, kind: a.kind === 'constraint' ? 'constraint' : 'attribute', status, importance: clamp01(a.importance),
    content: a.content, supersededBy: a.superseded_by, currentnessNote: currentnessNote(a, byId, replaces),
    team: team ? { author: team.author, mine: team.mine } : null,
  };
}

/** An entity with its aspects (heaviest first), attributes, and relations both ways; null when absent. */
export function readEntityDetail(db: SqlReader, agentId: string, id: string, health: HealthLookup): EntityDetail | null {
  if (!hasGraph(db)) return null;
  const row = db.get<EntityRow & { canonical_name: string; description: string | null; updated_at: string }>(
    `SELECT ${SUMMARY_COLUMNS}, e.canonical_name, e.description, e.updated_at FROM entities e WHERE e.id = ? AND e.agent_id = ?`, [id, agentId]);
  if (!row) return null;
  const aspects = db.all<{ id: string; name: string; weight: number; updated_at: string | null }>(
    'SELECT id, name, weight, updated_at FROM entity_aspects WHERE entity_id = ? ORDER BY weight DESC, name, id', [id]);
  const attrs = db.all<AttributeRow>(
    `SELECT id, aspect_id, kind, status, importance, content, superseded_by, memory_id FROM entity_attributes
     WHERE entity_id = ? ORDER BY importance DESC, updated_at DESC, id`, [id]);
  const byId = new Map(attrs.map((a) => [a.id, a]));
  const replaces = new Map<string, AttributeRow>();
  for (const a of attrs) if (a.superseded_by) replaces.set(a.superseded_by, a);
  const perAspect = new Map<string, AttributeView[]>();
  const unassigned: AttributeView[] = [];
  const aspectIds = new Set(aspects.map((a) => a.id));
  // Team memories and their author (docs/team.md "In VS Code"), one lookup for the entity.
  const marks = teamMarks(db, attrs.flatMap((a) => (a.memory_id ? [a.memory_id] : [])));
  for (const a of attrs) {
    const view = toAttribute(a, byId, replaces, marks);
    if (a.aspect_id && aspectIds.has(a.aspect_id)) {
      const list = perAspect.get(a.aspect_id) ?? [];
      list.push(view);
      perAspect.set(a.aspect_id, list);
    } else {
      unassigned.push(view);
    }
  }
  const aspectViews: AspectView[] = aspects.map((a) => ({ id: a.id, name: a.name, weight: clamp01(a.weight), updatedAt: a.updated_at, attributes: perAspect.get(a.id) ?? [] }));
  const relations = db.all<{ id: string; dir: string; relation_type: string; other_id: string; other_name: string | null; strength: number; confidence: number; mentions: number }>(
    `SELECT r.id, 'outgoing' AS dir, r.relation_type, r.target_entity_id AS other_id, o.name AS other_name, r.strength, r.confidence, r.mentions
       FROM relations r LEFT JOIN entities o ON o.id = r.target_entity_id WHERE r.source_entity_id = ?
     UNION ALL
     SELECT r.id, 'incoming' AS dir, r.relation_type, r.source_entity_id AS other_id, o.name AS other_name, r.strength, r.confidence, r.mentions
       FROM relations r LEFT JOIN entities o ON o.id = r.source_entity_id WHERE r.target_entity_id = ?
     ORDER BY 8 DESC, 7 DESC, 1`, [id, id]);
  const relationViews: RelationView[] = relations.map((r) => ({
    id: r.id, direction: r.dir === 'incoming' ? 'incoming' : 'outgoing', relationType: r.relation_type || 'related_to', otherId: r.other_id,
    otherName: r.other_name || r.other_id, strength: Math.max(0, r.strength), confidence: clamp01(r.confidence), mentions: Math.max(0, r.mentions),
  }));
  return {
    summary: toSummary(row, health), canonicalName: row.canonical_name || row.name, description: row.description || null, updatedAt: row.updated_at,
    aspects: aspectViews, unassigned, relations: relationViews,
  };
}

/** Table counts for the stats card (live memories; active entities; active attributes). */
export function readCounts(db: SqlReader, agentId: string): KnowledgeCounts {
  const count = (table: string, sql: string, params: (string | number)[] = [agentId]): number =>
    (db.hasTable(table) ? db.get<{ n: number }>(sql, params)?.n ?? 0 : 0);
  const kinds = db.hasTable('entity_attributes')
    ? db.all<{ kind: string; n: number }>("SELECT kind, COUNT(*) AS n FROM entity_attributes WHERE agent_id = ? AND status = 'active' GROUP BY kind", [agentId])
    : [];
  const ofKind = (k: string): number => kinds.find((r) => r.kind === k)?.n ?? 0;
  return {
    memories: count('memories', 'SELECT COUNT(*) AS n FROM memories WHERE agent_id = ? AND is_deleted = 0'),
    entities: count('entities', "SELECT COUNT(*) AS n FROM entities WHERE agent_id = ? AND status = 'active'"),
    pinned: count('entities', "SELECT COUNT(*) AS n FROM entities WHERE agent_id = ? AND status = 'active' AND pinned = 1"),
    aspects: count('entity_aspects', 'SELECT COUNT(*) AS n FROM entity_aspects WHERE agent_id = ?'),
    attributes: ofKind('attribute'),
    constraints: ofKind('constraint'),
    relations: count('relations', 'SELECT COUNT(*) AS n FROM relations', []),
  };
}

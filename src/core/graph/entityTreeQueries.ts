/**
 * Read queries behind the graph tree (src/extension/tree/graphTreeData.ts): an entity's hover
 * counts, its aspects with active-attribute counts, an aspect's attributes, an entity's relations
 * both ways and the memories that mention it. Rows only; the tree shapes them into nodes.
 */
import type { SqlReader } from '../store/storeTypes';

export interface EntityHoverCounts {
  readonly name: string;
  readonly type: string;
  readonly mentions: number;
  readonly pinned: boolean;
  readonly aspects: number;
  /** Active attributes and constraints. */
  readonly attributes: number;
  /** Relations in either direction. */
  readonly relations: number;
}

export function entityHoverCounts(db: SqlReader, entityId: string): EntityHoverCounts | undefined {
  const e = db.get<{ name: string; entity_type: string; mentions: number; pinned: number }>('SELECT name, entity_type, mentions, pinned FROM entities WHERE id = ?', [entityId]);
  if (!e) return undefined;
  const n = (sql: string, params: (string | number)[]): number => db.get<{ n: number }>(sql, params)?.n ?? 0;
  return {
    name: e.name, type: e.entity_type, mentions: e.mentions, pinned: e.pinned !== 0,
    aspects: n('SELECT COUNT(*) AS n FROM entity_aspects WHERE entity_id = ?', [entityId]),
    attributes: n("SELECT COUNT(*) AS n FROM entity_attributes WHERE entity_id = ? AND status = 'active'", [entityId]),
    relations: entityRelationCount(db, entityId),
  };
}

/** Relations of an entity in either direction. */
export function entityRelationCount(db: SqlReader, entityId: string): number {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM relations WHERE source_entity_id = ? OR target_entity_id = ?', [entityId, entityId])?.n ?? 0;
}

/** An entity's aspects, heaviest first, each with its number of active attributes. */
export function aspectsWithCounts(db: SqlReader, entityId: string): { readonly id: string; readonly name: string; readonly weight: number; readonly activeAttributes: number }[] {
  return db.all<{ id: string; name: string; weight: number; n: number }>(
    `SELECT a.id, a.name, a.weight, (SELECT COUNT(*) FROM entity_attributes x WHERE x.aspect_id = a.id AND x.status = 'active') AS n
       FROM entity_aspects a WHERE a.entity_id = ? ORDER BY a.weight DESC, a.name`, [entityId],
  ).map((a) => ({ id: a.id, name: a.name, weight: a.weight, activeAttributes: a.n }));
}

export interface AspectAttributeRow {
  readonly id: string;
  readonly kind: string;
  readonly content: string;
  readonly status: string;
  readonly importance: number;
  readonly memoryId: string | null;
}

/** An aspect's attributes: active first, then by importance, newest first. */
export function aspectAttributes(db: SqlReader, aspectId: string): AspectAttributeRow[] {
  return db.all<{ id: string; kind: string; content: string; status: string; importance: number; memory_id: string | null }>(
    `SELECT id, kind, content, status, importance, memory_id FROM entity_attributes WHERE aspect_id = ?
      ORDER BY status = 'active' DESC, importance DESC, created_at DESC`, [aspectId],
  ).map((x) => ({ id: x.id, kind: x.kind, content: x.content, status: x.status, importance: x.importance, memoryId: x.memory_id }));
}

export interface EntityRelationEdge {
  readonly id: string;
  readonly sourceEntityId: string;
  readonly targetEntityId: string;
  readonly relationType: string;
  readonly mentions: number;
  readonly strength: number;
  /** Name of the entity at the other end. */
  readonly otherName: string;
}

/** An entity's relations in either direction, most mentioned first. */
export function entityRelationEdges(db: SqlReader, entityId: string): EntityRelationEdge[] {
  return db.all<{ id: string; source_entity_id: string; target_entity_id: string; relation_type: string; mentions: number; strength: number; other_name: string }>(
    `SELECT r.id, r.source_entity_id, r.target_entity_id, r.relation_type, r.mentions, r.strength, o.name AS other_name
       FROM relations r JOIN entities o ON o.id = CASE WHEN r.source_entity_id = ? THEN r.target_entity_id ELSE r.source_entity_id END
      WHERE r.source_entity_id = ? OR r.target_entity_id = ? ORDER BY r.mentions DESC, r.relation_type`, [entityId, entityId, entityId],
  ).map((r) => ({
    id: r.id, sourceEntityId: r.source_entity_id, targetEntityId: r.target_entity_id, relationType: r.relation_type,
    mentions: r.mentions, strength: r.strength, otherName: r.other_name,
  }));
}

/** Live memories that mention an entity, newest first. */
export function entityMemories(db: SqlReader, entityId: string, limit = 200): { id: string; content: string; createdAt: string }[] {
  return db.all<{ id: string; content: string; created_at: string }>(
    `SELECT m.id, m.content, m.created_at FROM memory_entity_mentions x JOIN memories m ON m.id = x.memory_id
      WHERE x.entity_id = ? AND m.is_deleted = 0 GROUP BY m.id ORDER BY m.created_at DESC LIMIT ?`, [entityId, limit],
  ).map((r) => ({ id: r.id, content: r.content, createdAt: r.created_at }));
}

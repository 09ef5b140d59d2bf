import type { EdgeKind } from '../config/extractionConfig';
import { EDGE_KINDS } from '../config/extractionConfig';
import { MemoryError } from '../errors';
import type { SqlWriter } from '../store/storeTypes';
import { recordGraphOp } from './graphAudit';
import type { GraphWriteContext } from './graphWriteTypes';
import { canonicalName } from './keys';
import { upsertRelation } from './entityWrites';
import { unscopedEntityName } from './unscopedEntityName';

/**
 * Graph writes for clients that speak in free-form labels (the MCP reference memory server's
 * `relationType`, docs/mcp.md): a labelled relation is our typed edge (the label's edge kind when
 * it names one, else `related_to`) whose metadata keeps every label it was created with, so two
 * labels between the same pair stay two relations to the client. Also whole-entity deletion.
 * Call only through the apply path (graphApply.ts), inside one store.write transaction.
 */

/** Longest relation label accepted. */
export const MAX_RELATION_LABEL_CHARS = 200;

/** The edge kind a free-form label maps to: itself when it names one ("depends on" → depends_on), else related_to. */
export function edgeKindForLabel(label: string): EdgeKind {
  const k = label.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return (EDGE_KINDS as readonly string[]).includes(k) ? (k as EdgeKind) : 'related_to';
}

function parseMeta(raw: string | null): Record<string, unknown> {
  try { const v: unknown = raw ? JSON.parse(raw) : {}; return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {}; } catch { return {}; }
}

/** The labels a relation row carries (metadata.labels), or none. */
export function relationLabels(metadata: string | null): string[] {
  const labels = parseMeta(metadata).labels;
  return Array.isArray(labels) ? labels.filter((l): l is string => typeof l === 'string') : [];
}

function entityIdByName(db: SqlWriter, ctx: GraphWriteContext, name: string): string | undefined {
  return db.get<{ id: string }>(`SELECT id FROM entities WHERE agent_id = ? AND ${unscopedEntityName()}`, [ctx.agentId, canonicalName(name)])?.id;
}

function checkLabel(label: string): string {
  const l = label.trim();
  if (!l || l.length > MAX_RELATION_LABEL_CHARS) throw new MemoryError('E_INVALID_INPUT', `A relation type must have 1 to ${MAX_RELATION_LABEL_CHARS} characters.`);
  return l;
}

/**
 * Adds a label between two existing entities. Returns whether it is new (false: that exact label
 * was already there). Throws E_NOT_FOUND naming a missing endpoint.
 */
export function addRelationLabel(db: SqlWriter, ctx: GraphWriteContext, from: string, to: string, label: string): boolean {
  const l = checkLabel(label);
  const sourceId = entityIdByName(db, ctx, from);
  if (!sourceId) throw new MemoryError('E_NOT_FOUND', `Entity with name ${from} not found`);
  const targetId = entityIdByName(db, ctx, to);
  if (!targetId) throw new MemoryError('E_NOT_FOUND', `Entity with name ${to} not found`);
  if (sourceId === targetId) throw new MemoryError('E_INVALID_INPUT', 'A relation needs two different entities.');
  const type = edgeKindForLabel(l);
  const existing = db.get<{ id: string; metadata: string | null }>(
    'SELECT id, metadata FROM relations WHERE source_entity_id = ? AND target_entity_id = ? AND relation_type = ?', [sourceId, targetId, type]);
  if (existing && relationLabels(existing.metadata).includes(l)) return false;
  const row = existing ?? (() => {
    const r = upsertRelation(db, ctx, { sourceId, targetId, type, confidence: 1 });
    if (!r) throw new MemoryError('E_INVALID_INPUT', 'A relation needs two different entities.');
    return { id: r.id, metadata: db.get<{ metadata: string | null }>('SELECT metadata FROM relations WHERE id = ?', [r.id])?.metadata ?? null };
  })();
  const meta = parseMeta(row.metadata);
  meta.labels = [...relationLabels(row.metadata), l];
  db.run('UPDATE relations SET metadata = ?, updated_at = ? WHERE id = ?', [JSON.stringify(meta), ctx.nowIso, row.id]);
  recordGraphOp(db, ctx, { op: 'relation_label', targetKind: 'relation', targetId: row.id, details: { label: l } });
  return true;
}

/**
 * Removes a label; the relation goes when no label is left (a relation with no labels, e.g. one the
 * extractor made, is removed when the label is its own type). Returns whether anything matched.
 */
export function removeRelationLabel(db: SqlWriter, ctx: GraphWriteContext, from: string, to: string, label: string): boolean {
  const l = label.trim();
  const sourceId = entityIdByName(db, ctx, from);
  const targetId = entityIdByName(db, ctx, to);
  if (!sourceId || !targetId || !l) return false;
  const rows = db.all<{ id: string; relation_type: string; metadata: string | null }>(
    'SELECT id, relation_type, metadata FROM relations WHERE source_entity_id = ? AND target_entity_id = ?', [sourceId, targetId]);
  for (const r of rows) {
    const labels = relationLabels(r.metadata);
    const matches = labels.includes(l) || (labels.length === 0 && r.relation_type === l);
    if (!matches) continue;
    const left = labels.filter((x) => x !== l);
    if (left.length === 0) {
      db.run('DELETE FROM relations WHERE id = ?', [r.id]);
      recordGraphOp(db, ctx, { op: 'relation_delete', targetKind: 'relation', targetId: r.id, details: { label: l } });
    } else {
      const meta = parseMeta(r.metadata);
      meta.labels = left;
      db.run('UPDATE relations SET metadata = ?, updated_at = ? WHERE id = ?', [JSON.stringify(meta), ctx.nowIso, r.id]);
      recordGraphOp(db, ctx, { op: 'relation_unlabel', targetKind: 'relation', targetId: r.id, details: { label: l } });
    }
    return true;
  }
  return false;
}

/**
 * Deletes an entity with its relations, mention links, aspects and attributes (the memories stay;
 * the caller forgets the ones that belong to the entity first). Returns whether it existed.
 */
export function deleteEntity(db: SqlWriter, ctx: GraphWriteContext, name: string): boolean {
  const id = entityIdByName(db, ctx, name);
  if (!id) return false;
  const rels = db.run('DELETE FROM relations WHERE source_entity_id = ? OR target_entity_id = ?', [id, id]).changes;
  const mentions = db.run('DELETE FROM memory_entity_mentions WHERE entity_id = ?', [id]).changes;
  const attributes = db.run('DELETE FROM entity_attributes WHERE entity_id = ?', [id]).changes;
  db.run('DELETE FROM entity_aspects WHERE entity_id = ?', [id]);
  db.run('DELETE FROM entities WHERE id = ?', [id]);
  recordGraphOp(db, ctx, { op: 'entity_delete', targetKind: 'entity', targetId: id, details: { name, relations: rels, mentions, attributes } });
  return true;
}

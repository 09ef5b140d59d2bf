import type { EdgeKind, EntityType } from '../config/extractionConfig';
import { MemoryError } from '../errors';
import type { SqlWriter } from '../store/storeTypes';
import { isEdgeKind, isEntityType } from '../extraction/contract';
import { recordGraphOp } from './graphAudit';
import type { GraphWriteContext } from './graphWriteTypes';
import { canonicalName } from './keys';
import { unscopedEntityName } from './unscopedEntityName';

/**
 * Entity, mention and relation writes.
 * Call only through the apply path (graphApply.ts), inside one store.write transaction.
 */

/** Entity kinds the write path itself creates besides the extraction enum (chunk groups). */
export const INTERNAL_ENTITY_TYPES = ['chunk_group'] as const;
export type StoredEntityType = EntityType | (typeof INTERNAL_ENTITY_TYPES)[number];

/** Longest entity name accepted (paths and URLs can be long; anything longer is not a name). */
export const MAX_ENTITY_NAME_CHARS = 500;

export const isStoredEntityType = (t: unknown): t is StoredEntityType =>
  isEntityType(t) || (INTERNAL_ENTITY_TYPES as readonly string[]).includes(t as string);

export interface EntityInput {
  readonly name: string;
  readonly type: StoredEntityType;
  readonly description?: string;
}

export interface EntityUpsert {
  readonly id: string;
  readonly created: boolean;
}

function findEntity(db: SqlWriter, ctx: GraphWriteContext, canonical: string): { id: string; description: string | null } | undefined {
  return db.get<{ id: string; description: string | null }>(
    `SELECT id, description FROM entities WHERE agent_id = ? AND ${unscopedEntityName()}`, [ctx.agentId, canonical]);
}

/**
 * Inserts an entity by canonical name, or confirms the existing one: its name, type and a
 * non-empty description are kept (a concept is confirmed, never replaced); an empty description
 * is filled. A UNIQUE collision on insert falls back to the existing row.
 */
export function upsertEntity(db: SqlWriter, ctx: GraphWriteContext, input: EntityInput): EntityUpsert {
  const name = input.name.trim().replace(/\s+/g, ' ');
  if (!name || name.length > MAX_ENTITY_NAME_CHARS) throw new MemoryError('E_INVALID_INPUT', `An entity name must have 1 to ${MAX_ENTITY_NAME_CHARS} characters.`);
  if (!isStoredEntityType(input.type)) throw new MemoryError('E_INVALID_INPUT', `Unknown entity type '${String(input.type)}'.`);
  const canonical = canonicalName(name);
  const description = input.description?.trim() ?? '';
  const confirm = (row: { id: string; description: string | null }, via: string): EntityUpsert => {
    if (!row.description && description) {
      db.run('UPDATE entities SET description = ?, updated_at = ? WHERE id = ?', [description, ctx.nowIso, row.id]);
    }
    recordGraphOp(db, ctx, { op: 'entity_confirm', targetKind: 'entity', targetId: row.id, details: { name, via } });
    return { id: row.id, created: false };
  };
  const existing = findEntity(db, ctx, canonical);
  if (existing) return confirm(existing, 'canonical_name');
  const id = ctx.newId();
  const res = db.run(
    `INSERT OR IGNORE INTO entities (id, name, canonical_name, entity_type, description, mentions, agent_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)`,
    [id, name, canonical, input.type, description || null, ctx.agentId, ctx.nowIso, ctx.nowIso]);
  if (res.changes === 0) {
    const raced = findEntity(db, ctx, canonical);
    if (!raced) throw new MemoryError('E_INTERNAL', `Entity '${name}' collided on insert but could not be read back.`);
    return confirm(raced, 'unique_collision');
  }
  recordGraphOp(db, ctx, { op: 'entity_create', targetKind: 'entity', targetId: id, details: { name, type: input.type } });
  return { id, created: true };
}

/** Adds `by` to an entity's mention count. */
export function bumpEntityMentions(db: SqlWriter, ctx: GraphWriteContext, entityId: string, by: number): void {
  if (by <= 0) return;
  db.run('UPDATE entities SET mentions = mentions + ?, updated_at = ? WHERE id = ?', [by, ctx.nowIso, entityId]);
}

/**
 * Links a memory to an entity (INSERT OR IGNORE: re-processing a memory adds nothing). Returns
 * whether a new link was made; a memory that does not exist is not linked.
 */
export function linkMention(db: SqlWriter, ctx: GraphWriteContext, memoryId: string, entityId: string, mentionText: string, confidence: number): boolean {
  if (!db.get('SELECT 1 AS x FROM memories WHERE id = ?', [memoryId])) return false;
  const res = db.run(
    'INSERT OR IGNORE INTO memory_entity_mentions (memory_id, entity_id, mention_text, confidence) VALUES (?, ?, ?, ?)',
    [memoryId, entityId, mentionText, Math.min(1, Math.max(0, confidence))]);
  if (res.changes === 0) return false;
  recordGraphOp(db, ctx, { op: 'mention_link', targetKind: 'mention', targetId: entityId, memoryId, details: { mentionText } });
  return true;
}

export interface RelationInput {
  readonly sourceId: string;
  readonly targetId: string;
  readonly type: EdgeKind;
  readonly confidence: number;
  readonly instruction?: string;
  readonly memoryId?: string | null;
}

export type RelationUpsert = { readonly id: string; readonly created: boolean; readonly mentions: number; readonly confidence: number } | undefined;

/**
 * Upserts a relation on (source, target, type). A repeat increments mentions, averages the
 * confidence as (old × n + new) / (n + 1) and updates a non-empty instruction. Strength is the
 * configured pipeline strength (1.0). Self relations are ignored (undefined).
 */
export function upsertRelation(db: SqlWriter, ctx: GraphWriteContext, input: RelationInput): RelationUpsert {
  if (input.sourceId === input.targetId) return undefined;
  if (!isEdgeKind(input.type)) throw new MemoryError('E_INVALID_INPUT', `Unknown relation type '${String(input.type)}'.`);
  const conf = Math.min(1, Math.max(0, input.confidence));
  const instruction = input.instruction?.trim() ?? '';
  const row = db.get<{ id: string; mentions: number; confidence: number; metadata: string | null }>(
    'SELECT id, mentions, confidence, metadata FROM relations WHERE source_entity_id = ? AND target_entity_id = ? AND relation_type = ?',
    [input.sourceId, input.targetId, input.type]);
  if (row) {
    const n = row.mentions;
    const avg = (row.confidence * n + conf) / (n + 1);
    let meta: Record<string, unknown> = {};
    try { meta = row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : {}; } catch { meta = {}; }
    if (instruction) meta.instruction = instruction;
    db.run('UPDATE relations SET mentions = ?, confidence = ?, metadata = ?, updated_at = ? WHERE id = ?', [n + 1, avg, JSON.stringify(meta), ctx.nowIso, row.id]);
    recordGraphOp(db, ctx, { op: 'relation_confirm', targetKind: 'relation', targetId: row.id, memoryId: input.memoryId ?? null, details: { type: input.type, mentions: n + 1, confidence: avg } });
    return { id: row.id, created: false, mentions: n + 1, confidence: avg };
  }
  const id = ctx.newId();
  db.run(
    `INSERT INTO relations (id, source_entity_id, target_entity_id, relation_type, strength, confidence, mentions, metadata, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
    [id, input.sourceId, input.targetId, input.type, ctx.config.relationStrength, conf, JSON.stringify(instruction ? { instruction } : {}), ctx.nowIso, ctx.nowIso]);
  recordGraphOp(db, ctx, { op: 'relation_create', targetKind: 'relation', targetId: id, memoryId: input.memoryId ?? null, details: { type: input.type } });
  return { id, created: true, mentions: 1, confidence: conf };
}

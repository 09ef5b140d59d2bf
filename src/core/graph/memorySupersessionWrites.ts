import { MemoryError } from '../errors';
import type { SqlWriter } from '../store/storeTypes';
import { markSuperseded } from './attributeWrites';
import { recordGraphOp } from './graphAudit';
import type { GraphWriteContext } from './graphWriteTypes';

/**
 * Memory-level supersession: "this whole memory was replaced by that one" (a newer decision about
 * the same subject, a changed setting value; extraction/memorySupersession.ts finds them). It is
 * stored like attribute supersession so recall's currentness stage, forgetting (detachMemory.ts
 * restores what a forgotten memory superseded) and the audit trail treat both alike: each memory
 * gets one claim row in entity_attributes with no entity and no aspect, group_key
 * MEMORY_CLAIM_GROUP and the memory's text; the older claim is marked superseded by the newer.
 * These rows belong to no entity, so entity views, attribute conflict scans and aspect feedback
 * never see them; they have no normalized_content (only the same-content check on an aspect reads
 * it, and they have no aspect: migration 28).
 */
export const MEMORY_CLAIM_GROUP = 'memory';

const CLAIM_CHARS = 500;

/** The memory's claim row, created on first use; undefined when the memory is gone or deleted. */
export function memoryClaimId(db: SqlWriter, ctx: GraphWriteContext, memoryId: string): string | undefined {
  const row = db.get<{ id: string }>(
    'SELECT id FROM entity_attributes WHERE memory_id = ? AND entity_id IS NULL AND aspect_id IS NULL AND group_key = ? ORDER BY created_at LIMIT 1',
    [memoryId, MEMORY_CLAIM_GROUP]);
  if (row) return row.id;
  const mem = db.get<{ content: string; importance: number; created_at: string; agent_id: string; is_deleted: number }>(
    'SELECT content, importance, created_at, agent_id, is_deleted FROM memories WHERE id = ?', [memoryId]);
  if (!mem || mem.is_deleted) return undefined;
  const flat = mem.content.replace(/\s+/g, ' ').trim();
  const content = flat.length > CLAIM_CHARS ? `${flat.slice(0, CLAIM_CHARS - 1)}…` : flat;
  const id = ctx.newId();
  db.run(
    `INSERT INTO entity_attributes (id, entity_id, aspect_id, agent_id, memory_id, kind, content, normalized_content, confidence, importance,
       status, group_key, claim_key, created_at, updated_at)
     VALUES (?, NULL, NULL, ?, ?, 'attribute', ?, NULL, ?, ?, 'active', ?, NULL, ?, ?)`,
    [id, mem.agent_id, memoryId, content, ctx.config.heuristicRelationConfidence, mem.importance, MEMORY_CLAIM_GROUP, mem.created_at, ctx.nowIso]);
  recordGraphOp(db, ctx, { op: 'attribute_create', targetKind: 'attribute', targetId: id, memoryId, details: { kind: 'attribute', groupKey: MEMORY_CLAIM_GROUP } });
  return id;
}

/**
 * Marks memory `olderId` superseded by memory `newerId` (audited with `why`). False when either is
 * gone, they are the same, the "newer" one is in fact older, or the older one is already
 * superseded (its first replacement stays).
 */
export function supersedeMemory(db: SqlWriter, ctx: GraphWriteContext, olderId: string, newerId: string, why: string, opts: { readonly byUser?: boolean } = {}): boolean {
  if (olderId === newerId) throw new MemoryError('E_INVALID_INPUT', 'A memory cannot supersede itself.');
  const times = db.all<{ id: string; created_at: string; is_deleted: number }>('SELECT id, created_at, is_deleted FROM memories WHERE id IN (?, ?)', [olderId, newerId]);
  const older = times.find((t) => t.id === olderId);
  const newer = times.find((t) => t.id === newerId);
  // A person may keep the older of two memories ("keep older"); automatic paths never do.
  if (!older || !newer || older.is_deleted || newer.is_deleted || (!opts.byUser && newer.created_at < older.created_at)) return false;
  const oldClaim = memoryClaimId(db, ctx, olderId);
  const newClaim = memoryClaimId(db, ctx, newerId);
  if (!oldClaim || !newClaim) return false;
  if (!markSuperseded(db, ctx, oldClaim, newClaim, why)) return false;
  supersedeDerivedAttributes(db, ctx, olderId, newClaim, why);
  return true;
}

/**
 * The entity attributes and claims extracted from a superseded memory are superseded with it
 * (docs/extraction.md, "Current facts"), pointing at the replacing memory's claim row, so entity
 * views show them as history whichever path replaced the memory (heuristic or model supersession,
 * a conflict resolved by a person). Forgetting the replacing memory restores them
 * (detachMemory.ts restores every row superseded by one of its rows). Returns how many changed.
 */
export function supersedeDerivedAttributes(db: SqlWriter, ctx: GraphWriteContext, memoryId: string, byClaimId: string | null, why: string): number {
  const rows = db.all<{ id: string }>(
    "SELECT id FROM entity_attributes WHERE memory_id = ? AND entity_id IS NOT NULL AND status = 'active'", [memoryId]);
  let n = 0;
  for (const r of rows) if (markSuperseded(db, ctx, r.id, byClaimId, `memory superseded: ${why}`.slice(0, 300))) n++;
  return n;
}

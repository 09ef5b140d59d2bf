import { MemoryError } from '../errors';
import type { SqlReader, SqlWriter } from '../store/storeTypes';

/**
 * Entity pinning: the user's bet that an entity matters before the evidence does.
 * Pinned entities are always focal (see pinnedFocal.ts). Scoped by agent_id; idempotent.
 */
export interface PinnedEntity {
  readonly id: string;
  readonly name: string;
  readonly pinnedAt: string;
}

export interface PinResult {
  readonly entityId: string;
  readonly name: string;
  readonly pinned: boolean;
  readonly pinnedAt: string | null;
  /** False when the entity already had the requested state (nothing written). */
  readonly changed: boolean;
}

interface EntityPinRow { id: string; name: string; pinned: number; pinned_at: string | null }

/** Canonical form used to match a name (lowercase, whitespace collapsed; as the graph stores it). */
export function canonicalEntityName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Finds an entity of the agent by id, exact name or canonical name. */
export function findEntity(db: SqlReader, agentId: string, idOrName: string): EntityPinRow | undefined {
  const key = idOrName.trim();
  if (!key) return undefined;
  return db.get<EntityPinRow>('SELECT id, name, pinned, pinned_at FROM entities WHERE agent_id = ? AND id = ?', [agentId, key])
    ?? db.get<EntityPinRow>('SELECT id, name, pinned, pinned_at FROM entities WHERE agent_id = ? AND canonical_name = ? ORDER BY mentions DESC, id LIMIT 1', [agentId, canonicalEntityName(key)]);
}

/** Who pins (graph_ops.actor). */
export interface PinAudit {
  readonly actor: string;
}

const DEFAULT_AUDIT: PinAudit = { actor: 'user' };

/** Every pin and unpin is a graph mutation, so it lands in the graph_ops audit log. */
function auditPin(db: SqlWriter, op: 'pin' | 'unpin', entityId: string, agentId: string, nowIso: string, audit: PinAudit): void {
  db.run('INSERT INTO graph_ops (op, target_kind, target_id, memory_id, actor, details, created_at) VALUES (?, ?, ?, NULL, ?, ?, ?)',
    [op, 'entity', entityId, audit.actor, JSON.stringify({ agentId }), nowIso]);
}

function entityOrThrow(db: SqlReader, agentId: string, idOrName: string): EntityPinRow {
  const e = findEntity(db, agentId, idOrName);
  if (!e) throw new MemoryError('E_NOT_FOUND', `No entity named '${idOrName.trim()}' in this memory.`, { entity: idOrName, agentId });
  return e;
}

/** Pins an entity; pinning a pinned entity changes nothing (its pinned_at is kept). */
export function pinEntity(db: SqlWriter, agentId: string, idOrName: string, nowIso: string, audit: PinAudit = DEFAULT_AUDIT): PinResult {
  const e = entityOrThrow(db, agentId, idOrName);
  if (e.pinned && e.pinned_at) return { entityId: e.id, name: e.name, pinned: true, pinnedAt: e.pinned_at, changed: false };
  db.run('UPDATE entities SET pinned = 1, pinned_at = ?, updated_at = ? WHERE id = ? AND agent_id = ?', [nowIso, nowIso, e.id, agentId]);
  auditPin(db, 'pin', e.id, agentId, nowIso, audit);
  return { entityId: e.id, name: e.name, pinned: true, pinnedAt: nowIso, changed: true };
}

/** Unpins an entity; unpinning an unpinned entity changes nothing. */
export function unpinEntity(db: SqlWriter, agentId: string, idOrName: string, nowIso: string, audit: PinAudit = DEFAULT_AUDIT): PinResult {
  const e = entityOrThrow(db, agentId, idOrName);
  if (!e.pinned) return { entityId: e.id, name: e.name, pinned: false, pinnedAt: null, changed: false };
  db.run('UPDATE entities SET pinned = 0, pinned_at = NULL, updated_at = ? WHERE id = ? AND agent_id = ?', [nowIso, e.id, agentId]);
  auditPin(db, 'unpin', e.id, agentId, nowIso, audit);
  return { entityId: e.id, name: e.name, pinned: false, pinnedAt: null, changed: true };
}

/** The agent's pinned entities, newest pin first. */
export function getPinnedEntities(db: SqlReader, agentId: string): PinnedEntity[] {
  return db.all<{ id: string; name: string; pinned_at: string }>(
    "SELECT id, name, pinned_at FROM entities WHERE agent_id = ? AND pinned = 1 AND status = 'active' ORDER BY pinned_at DESC, updated_at DESC, id",
    [agentId],
  ).map((r) => ({ id: r.id, name: r.name, pinnedAt: r.pinned_at }));
}

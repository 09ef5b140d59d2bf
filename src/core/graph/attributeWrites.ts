import { MemoryError } from '../errors';
import { detectSyntacticContradiction } from '../extraction/contradiction';
import { normalizeContent } from '../memory/memoryRecords';
import type { SqlWriter } from '../store/storeTypes';
import { recordGraphOp } from './graphAudit';
import type { GraphWriteContext } from './graphWriteTypes';
import { canonicalName, normalizeKey } from './keys';

/**
 * Aspects, attributes and write-time supersession.
 * Call only through the apply path (graphApply.ts), inside one store.write transaction.
 */
export type AttributeKind = 'attribute' | 'constraint';

/** Upserts an aspect by (entity, canonical name); an existing one only gets updated_at. */
export function upsertAspect(db: SqlWriter, ctx: GraphWriteContext, entityId: string, name: string): string {
  const clean = name.trim().replace(/\s+/g, ' ');
  if (!clean || clean.length > 120) throw new MemoryError('E_INVALID_INPUT', 'An aspect name must have 1 to 120 characters.');
  const canonical = canonicalName(clean);
  const row = db.get<{ id: string }>('SELECT id FROM entity_aspects WHERE entity_id = ? AND canonical_name = ?', [entityId, canonical]);
  if (row) {
    db.run('UPDATE entity_aspects SET updated_at = ? WHERE id = ?', [ctx.nowIso, row.id]);
    return row.id;
  }
  const id = ctx.newId();
  db.run(
    'INSERT INTO entity_aspects (id, entity_id, agent_id, name, canonical_name, weight, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [id, entityId, ctx.agentId, clean, canonical, ctx.config.aspectWeight, ctx.nowIso, ctx.nowIso]);
  recordGraphOp(db, ctx, { op: 'aspect_create', targetKind: 'aspect', targetId: id, details: { entityId, name: clean } });
  return id;
}

export interface AttributeInput {
  readonly entityId: string;
  readonly aspectId: string;
  readonly memoryId: string | null;
  readonly kind: AttributeKind;
  readonly content: string;
  readonly groupKey: string | null;
  readonly claimKey: string | null;
  readonly importance: number;
  readonly confidence: number;
  /** When the claim was made (the source memory's time); decides which sibling is newer. */
  readonly observedAt: string;
}

export interface AttributeWrite {
  readonly id: string;
  /** False when an active attribute with the same content on the aspect was confirmed instead. */
  readonly created: boolean;
  /** Ids of attributes this write marked superseded (possibly the new one, if it was older). */
  readonly superseded: readonly string[];
}

interface Sibling { id: string; content: string; created_at: string }

/** Marks `oldId` superseded by `newId` (null: retired without a replacement) and audits it. */
export function markSuperseded(db: SqlWriter, ctx: GraphWriteContext, oldId: string, newId: string | null, why: string): boolean {
  const res = db.run("UPDATE entity_attributes SET status = 'superseded', superseded_by = ?, updated_at = ? WHERE id = ? AND status = 'active'", [newId, ctx.nowIso, oldId]);
  if (res.changes === 0) return false;
  recordGraphOp(db, ctx, { op: 'attribute_supersede', targetKind: 'attribute', targetId: oldId, details: { supersededBy: newId, why } });
  return true;
}

function siblings(db: SqlWriter, a: AttributeInput, id: string, claim: string | null, group: string | null): Sibling[] {
  return db.all<Sibling>(
    `SELECT id, content, created_at FROM entity_attributes
      WHERE aspect_id = ? AND status = 'active' AND kind = 'attribute' AND id <> ? AND group_key IS ? AND claim_key IS ?`,
    [a.aspectId, id, group, claim]);
}

/**
 * Writes an attribute. An active attribute with the same normalised content on the aspect is
 * confirmed (confidence up) instead of duplicated. A non-constraint attribute then supersedes its
 * siblings in the same aspect + group_key + claim_key slot (the newer claim wins); without a
 * claim key only a sibling the syntactic contradiction check flags is superseded. Constraints are
 * never superseded here.
 */
export function writeAttribute(db: SqlWriter, ctx: GraphWriteContext, a: AttributeInput): AttributeWrite {
  const content = a.content.trim();
  if (!content) throw new MemoryError('E_INVALID_INPUT', 'An attribute needs some text.');
  const normalized = normalizeContent(content);
  const same = db.get<{ id: string; confidence: number }>(
    "SELECT id, confidence FROM entity_attributes WHERE aspect_id = ? AND status = 'active' AND normalized_content = ?", [a.aspectId, normalized]);
  if (same) {
    const confidence = Math.min(1, Math.max(same.confidence, a.confidence) + ctx.config.confirmConfidenceStep);
    db.run('UPDATE entity_attributes SET confidence = ?, updated_at = ? WHERE id = ?', [confidence, ctx.nowIso, same.id]);
    recordGraphOp(db, ctx, { op: 'attribute_confirm', targetKind: 'attribute', targetId: same.id, memoryId: a.memoryId, details: { confidence } });
    return { id: same.id, created: false, superseded: [] };
  }
  const group = normalizeKey(a.groupKey);
  const claim = normalizeKey(a.claimKey);
  const id = ctx.newId();
  db.run(
    `INSERT INTO entity_attributes (id, entity_id, aspect_id, agent_id, memory_id, kind, content, normalized_content, confidence, importance,
       status, group_key, claim_key, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)`,
    [id, a.entityId, a.aspectId, ctx.agentId, a.memoryId, a.kind, content, normalized, a.confidence, a.importance, group, claim, a.observedAt, ctx.nowIso]);
  recordGraphOp(db, ctx, { op: 'attribute_create', targetKind: 'attribute', targetId: id, memoryId: a.memoryId, details: { kind: a.kind, groupKey: group, claimKey: claim } });
  const superseded: string[] = [];
  if (claim && a.memoryId) {
    // A value this memory replaced as a whole memory before this claim existed (memory-level
    // supersession ran first) now points at the claim that replaced it in the slot, so the entity's
    // history reads "220 since …; was 180" (memorySupersessionWrites.ts#supersedeDerivedAttributes).
    db.run(`UPDATE entity_attributes SET superseded_by = ? WHERE aspect_id = ? AND group_key IS ? AND claim_key IS ? AND status = 'superseded'
      AND superseded_by IN (SELECT id FROM entity_attributes WHERE memory_id = ? AND entity_id IS NULL)`, [id, a.aspectId, group, claim, a.memoryId]);
  }
  if (a.kind !== 'attribute') return { id, created: true, superseded };
  let candidates = siblings(db, a, id, claim, group);
  if (!claim) candidates = candidates.filter((s) => {
    const v = detectSyntacticContradiction(content, s.content, ctx.contradiction);
    return v.contradicts && v.confidence >= ctx.contradiction.minConfidence;
  });
  for (const s of candidates) {
    const newerIsNew = a.observedAt >= s.created_at;
    const [oldId, newId] = newerIsNew ? [s.id, id] : [id, s.id];
    if (markSuperseded(db, ctx, oldId, newId, claim ? `same claim slot ${group ?? '-'}/${claim}` : 'contradicting sibling')) superseded.push(oldId);
    if (!newerIsNew) break;
  }
  return { id, created: true, superseded };
}

/**
 * Automatic supersession decided outside the write (the semantic contradiction check): `oldId`
 * becomes superseded by `newId` only if both are active non-constraint attributes of the same
 * aspect and group and `newId` is not the older claim. Returns whether it changed anything.
 */
export function supersedeSibling(db: SqlWriter, ctx: GraphWriteContext, oldId: string, newId: string, why: string): boolean {
  const rows = db.all<{ id: string; aspect_id: string | null; group_key: string | null; kind: string; status: string; created_at: string }>(
    'SELECT id, aspect_id, group_key, kind, status, created_at FROM entity_attributes WHERE id IN (?, ?)', [oldId, newId]);
  const old = rows.find((r) => r.id === oldId);
  const neu = rows.find((r) => r.id === newId);
  if (!old || !neu) throw new MemoryError('E_NOT_FOUND', 'An attribute to supersede no longer exists.');
  if (old.kind !== 'attribute' || neu.kind !== 'attribute' || old.status !== 'active' || neu.status !== 'active') return false;
  if (old.aspect_id !== neu.aspect_id || old.group_key !== neu.group_key || neu.created_at < old.created_at) return false;
  return markSuperseded(db, ctx, oldId, newId, why);
}

export interface SupersedeClaimInput {
  readonly attributeId: string;
  /** The replacing value; without it the claim is retired with no replacement. */
  readonly content?: string;
  readonly memoryId?: string | null;
  readonly observedAt: string;
}

/**
 * Explicit supersede-claim operation: writes the new value into the same entity, aspect, kind,
 * group and claim slot and marks the old attribute superseded by it (constraints included:
 * explicit supersession is how a constraint is changed).
 */
export function supersedeClaim(db: SqlWriter, ctx: GraphWriteContext, input: SupersedeClaimInput): { supersededId: string; replacementId: string | null } {
  const old = db.get<{ id: string; entity_id: string | null; aspect_id: string | null; kind: AttributeKind; group_key: string | null; claim_key: string | null; importance: number; confidence: number; status: string }>(
    'SELECT id, entity_id, aspect_id, kind, group_key, claim_key, importance, confidence, status FROM entity_attributes WHERE id = ?', [input.attributeId]);
  if (!old) throw new MemoryError('E_NOT_FOUND', `No attribute with id ${input.attributeId}.`);
  if (old.status !== 'active') throw new MemoryError('E_INVALID_INPUT', `Attribute ${input.attributeId} is already ${old.status}.`);
  let replacementId: string | null = null;
  const content = input.content?.trim();
  if (content) {
    replacementId = ctx.newId();
    db.run(
      `INSERT INTO entity_attributes (id, entity_id, aspect_id, agent_id, memory_id, kind, content, normalized_content, confidence, importance,
         status, group_key, claim_key, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)`,
      [replacementId, old.entity_id, old.aspect_id, ctx.agentId, input.memoryId ?? null, old.kind, content, normalizeContent(content),
        old.confidence, old.importance, old.group_key, old.claim_key, input.observedAt, ctx.nowIso]);
    recordGraphOp(db, ctx, { op: 'attribute_create', targetKind: 'attribute', targetId: replacementId, memoryId: input.memoryId ?? null, details: { replaces: old.id } });
  }
  markSuperseded(db, ctx, old.id, replacementId, 'explicit supersede_claim');
  return { supersededId: old.id, replacementId };
}

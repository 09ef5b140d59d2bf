import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import { DEFAULT_CONTRADICTION_CONFIG } from '../config/extractionConfig';
import type { ContradictionConfig, EdgeKind } from '../config/extractionConfig';
import { DEFAULT_GRAPH_CONFIG } from '../config/graphConfig';
import type { GraphConfig } from '../config/graphConfig';
import { MemoryError } from '../errors';
import type { ExtractionPayload } from '../extraction/contract';
import type { MemoryStore, SqlWriter } from '../store/storeTypes';
import { applyExtractionPayload } from './applyExtraction';
import type { ExtractionApplySummary, PayloadOrigin } from './applyExtraction';
import { supersedeClaim, supersedeSibling, upsertAspect, writeAttribute } from './attributeWrites';
import type { AttributeKind, AttributeWrite } from './attributeWrites';
import { bumpEntityMentions, isStoredEntityType, linkMention, upsertEntity, upsertRelation } from './entityWrites';
import type { EntityUpsert, RelationUpsert, StoredEntityType } from './entityWrites';
import type { GraphWriteContext } from './graphWriteTypes';
import { compactGraphOps } from './graphOpsRetention';
import { canonicalName } from './keys';
import { detachMemoryFromGraph } from './detachMemory';
import type { DetachSummary } from './detachMemory';
import { propagateMemoryStatus } from './propagateMemoryStatus';
import { supersedeMemory } from './memorySupersessionWrites';
import { mergeEntityInto } from './mergeEntities';
import type { EntityMergeSummary } from './mergeEntities';
import { addRelationLabel, deleteEntity, removeRelationLabel } from './labelledGraphWrites';
import { unscopedEntityName } from './unscopedEntityName';

/**
 * The graph's single audited author: every graph mutation is one of these
 * operations, validated here and recorded in graph_ops by the writes it performs.
 */
export type GraphOp =
  | { readonly op: 'apply_extraction'; readonly sources: readonly string[]; readonly payload: ExtractionPayload; readonly origin: PayloadOrigin }
  | { readonly op: 'upsert_entity'; readonly name: string; readonly type: StoredEntityType; readonly description?: string; readonly memoryId?: string; readonly mentionText?: string; readonly confidence?: number }
  | { readonly op: 'upsert_relation'; readonly from: string; readonly to: string; readonly type: EdgeKind; readonly confidence: number; readonly instruction?: string; readonly memoryId?: string }
  | { readonly op: 'write_attribute'; readonly entity: string; readonly aspect: string; readonly kind: AttributeKind; readonly content: string; readonly groupKey?: string | null; readonly claimKey?: string | null; readonly importance?: number; readonly confidence?: number; readonly memoryId?: string }
  | { readonly op: 'supersede_claim'; readonly attributeId: string; readonly content?: string; readonly memoryId?: string }
  | { readonly op: 'propagate_memory_status' }
  | { readonly op: 'detach_memory'; readonly memoryId: string }
  | { readonly op: 'supersede_attribute'; readonly attributeId: string; readonly supersededBy: string; readonly why: string }
  | { readonly op: 'supersede_memory'; readonly olderId: string; readonly newerId: string; readonly why: string; readonly byUser?: boolean }
  | { readonly op: 'merge_entities'; readonly keepId: string; readonly mergeId: string; readonly canonical?: string }
  | { readonly op: 'label_relation'; readonly from: string; readonly to: string; readonly label: string; readonly remove?: boolean }
  | { readonly op: 'delete_entity'; readonly name: string };

export type GraphOpResult =
  | { readonly op: 'apply_extraction'; readonly summary: ExtractionApplySummary }
  | { readonly op: 'upsert_entity'; readonly entity: EntityUpsert }
  | { readonly op: 'upsert_relation'; readonly relation: RelationUpsert }
  | { readonly op: 'write_attribute'; readonly attribute: AttributeWrite }
  | { readonly op: 'supersede_claim'; readonly supersededId: string; readonly replacementId: string | null }
  | { readonly op: 'propagate_memory_status'; readonly count: number }
  | { readonly op: 'detach_memory'; readonly summary: DetachSummary }
  | { readonly op: 'supersede_attribute'; readonly superseded: boolean }
  | { readonly op: 'supersede_memory'; readonly superseded: boolean }
  | { readonly op: 'merge_entities'; readonly summary: EntityMergeSummary }
  | { readonly op: 'label_relation'; readonly changed: boolean }
  | { readonly op: 'delete_entity'; readonly deleted: boolean };

const unit = (v: number | undefined, field: string): void => {
  if (v !== undefined && (!Number.isFinite(v) || v < 0 || v > 1)) throw new MemoryError('E_INVALID_INPUT', `${field} must be a number from 0 to 1.`);
};
const text = (v: unknown, field: string): void => {
  if (typeof v !== 'string' || !v.trim()) throw new MemoryError('E_INVALID_INPUT', `${field} must be non-empty text.`);
};

/** Validates the shape of an operation; throws a coded E_INVALID_INPUT naming the problem. */
export function validateGraphOp(op: GraphOp): void {
  switch (op.op) {
    case 'apply_extraction':
      if (!Array.isArray(op.sources) || op.sources.some((s) => typeof s !== 'string')) throw new MemoryError('E_INVALID_INPUT', 'sources must be memory ids.');
      if (typeof op.payload !== 'object' || op.payload === null) throw new MemoryError('E_INVALID_INPUT', 'payload must be an extraction payload.');
      if (op.origin !== 'llm' && op.origin !== 'heuristic') throw new MemoryError('E_INVALID_INPUT', 'origin must be llm or heuristic.');
      return;
    case 'upsert_entity':
      text(op.name, 'name');
      if (!isStoredEntityType(op.type)) throw new MemoryError('E_INVALID_INPUT', `Unknown entity type '${String(op.type)}'.`);
      unit(op.confidence, 'confidence');
      return;
    case 'upsert_relation':
      text(op.from, 'from'); text(op.to, 'to'); unit(op.confidence, 'confidence');
      return;
    case 'write_attribute':
      text(op.entity, 'entity'); text(op.aspect, 'aspect'); text(op.content, 'content');
      if (op.kind !== 'attribute' && op.kind !== 'constraint') throw new MemoryError('E_INVALID_INPUT', 'kind must be attribute or constraint.');
      unit(op.importance, 'importance'); unit(op.confidence, 'confidence');
      return;
    case 'supersede_claim':
      text(op.attributeId, 'attributeId');
      return;
    case 'propagate_memory_status':
      return;
    case 'detach_memory':
      text(op.memoryId, 'memoryId');
      return;
    case 'supersede_attribute':
      text(op.attributeId, 'attributeId'); text(op.supersededBy, 'supersededBy'); text(op.why, 'why');
      if (op.attributeId === op.supersededBy) throw new MemoryError('E_INVALID_INPUT', 'An attribute cannot supersede itself.');
      return;
    case 'supersede_memory':
      text(op.olderId, 'olderId'); text(op.newerId, 'newerId'); text(op.why, 'why');
      if (op.olderId === op.newerId) throw new MemoryError('E_INVALID_INPUT', 'A memory cannot supersede itself.');
      return;
    case 'merge_entities':
      text(op.keepId, 'keepId'); text(op.mergeId, 'mergeId');
      if (op.keepId === op.mergeId) throw new MemoryError('E_INVALID_INPUT', 'An entity cannot be merged into itself.');
      if (op.canonical !== undefined) text(op.canonical, 'canonical');
      return;
    case 'label_relation':
      text(op.from, 'from'); text(op.to, 'to'); text(op.label, 'relationType');
      return;
    case 'delete_entity':
      text(op.name, 'name');
      return;
    default:
      throw new MemoryError('E_INVALID_INPUT', `Unknown graph operation '${String((op as { op: unknown }).op)}'.`);
  }
}

function entityId(db: SqlWriter, ctx: GraphWriteContext, name: string): string {
  const row = db.get<{ id: string }>(`SELECT id FROM entities WHERE agent_id = ? AND ${unscopedEntityName()}`, [ctx.agentId, canonicalName(name)]);
  if (!row) throw new MemoryError('E_NOT_FOUND', `No entity named '${name}'.`);
  return row.id;
}

const observedAt = (db: SqlWriter, ctx: GraphWriteContext, memoryId: string | undefined): string =>
  (memoryId ? db.get<{ created_at: string }>('SELECT created_at FROM memories WHERE id = ?', [memoryId])?.created_at : undefined) ?? ctx.nowIso;

/**
 * Applies one validated operation inside the caller's write transaction, then keeps the audit log
 * within its retention (graphOpsRetention.ts).
 */
export function applyGraphOp(db: SqlWriter, ctx: GraphWriteContext, op: GraphOp): GraphOpResult {
  const result = applyOneGraphOp(db, ctx, op);
  compactGraphOps(db);
  return result;
}

function applyOneGraphOp(db: SqlWriter, ctx: GraphWriteContext, op: GraphOp): GraphOpResult {
  validateGraphOp(op);
  switch (op.op) {
    case 'apply_extraction':
      return { op: op.op, summary: applyExtractionPayload(db, ctx, op.sources, op.payload, op.origin) };
    case 'upsert_entity': {
      const entity = upsertEntity(db, ctx, { name: op.name, type: op.type, description: op.description ?? '' });
      const linked = op.memoryId ? linkMention(db, ctx, op.memoryId, entity.id, op.mentionText ?? op.name, op.confidence ?? ctx.config.mentionConfidence) : false;
      bumpEntityMentions(db, ctx, entity.id, op.memoryId ? Number(linked) : 1);
      return { op: op.op, entity };
    }
    case 'upsert_relation': {
      const relation = upsertRelation(db, ctx, { sourceId: entityId(db, ctx, op.from), targetId: entityId(db, ctx, op.to), type: op.type, confidence: op.confidence, instruction: op.instruction ?? '', memoryId: op.memoryId ?? null });
      return { op: op.op, relation };
    }
    case 'write_attribute': {
      const eid = entityId(db, ctx, op.entity);
      const attribute = writeAttribute(db, ctx, {
        entityId: eid, aspectId: upsertAspect(db, ctx, eid, op.aspect), memoryId: op.memoryId ?? null, kind: op.kind, content: op.content,
        groupKey: op.groupKey ?? null, claimKey: op.claimKey ?? null, importance: op.importance ?? 0.5, confidence: op.confidence ?? 0.7,
        observedAt: observedAt(db, ctx, op.memoryId),
      });
      return { op: op.op, attribute };
    }
    case 'supersede_claim':
      return { op: op.op, ...supersedeClaim(db, ctx, { attributeId: op.attributeId, content: op.content, memoryId: op.memoryId ?? null, observedAt: observedAt(db, ctx, op.memoryId) }) };
    case 'propagate_memory_status':
      return { op: op.op, count: propagateMemoryStatus(db, ctx) };
    case 'detach_memory':
      return { op: op.op, summary: detachMemoryFromGraph(db, ctx, op.memoryId) };
    case 'supersede_attribute':
      return { op: op.op, superseded: supersedeSibling(db, ctx, op.attributeId, op.supersededBy, op.why) };
    case 'supersede_memory':
      return { op: op.op, superseded: supersedeMemory(db, ctx, op.olderId, op.newerId, op.why, { byUser: op.byUser === true }) };
    case 'merge_entities':
      return { op: op.op, summary: mergeEntityInto(db, ctx, op.keepId, op.mergeId, op.canonical) };
    case 'label_relation':
      return { op: op.op, changed: op.remove ? removeRelationLabel(db, ctx, op.from, op.to, op.label) : addRelationLabel(db, ctx, op.from, op.to, op.label) };
    case 'delete_entity':
      return { op: op.op, deleted: deleteEntity(db, ctx, op.name) };
  }
}

export interface GraphActor {
  readonly actor: string;
  readonly reason: string;
  readonly clock: Clock;
  readonly agentId?: string;
  readonly config?: GraphConfig;
  readonly contradiction?: ContradictionConfig;
  readonly newId?: () => string;
}

export function graphContext(a: GraphActor): GraphWriteContext {
  return {
    actor: a.actor, reason: a.reason, nowIso: isoFromMs(a.clock.now()), newId: a.newId ?? randomUUID, agentId: a.agentId ?? 'default',
    config: a.config ?? DEFAULT_GRAPH_CONFIG, contradiction: a.contradiction ?? DEFAULT_CONTRADICTION_CONFIG,
  };
}

/** Applies operations in one transaction (all or nothing). The store label is "graph". */
export async function applyGraphOps(store: MemoryStore, actor: GraphActor, ops: readonly GraphOp[]): Promise<GraphOpResult[]> {
  for (const op of ops) validateGraphOp(op);
  return store.write('graph', (db) => {
    const ctx = graphContext(actor);
    return ops.map((op) => applyGraphOp(db, ctx, op));
  });
}

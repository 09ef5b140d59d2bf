import { DEFAULT_REDACTION_CONFIG } from '../config/redactionConfig';
import { redactSecrets } from '../memory/redaction';
import { isEdgeKind, isEmptyPayload, isEntityType, isFactType, nameKey } from '../extraction/contract';
import type { ExtractionPayload } from '../extraction/contract';
import type { SqlWriter } from '../store/storeTypes';
import { writeAttribute, upsertAspect } from './attributeWrites';
import { bumpEntityMentions, linkMention, upsertEntity, upsertRelation } from './entityWrites';
import type { GraphWriteContext } from './graphWriteTypes';

/** Where a payload came from: decides the confidence of its relations. */
export type PayloadOrigin = 'llm' | 'heuristic';

export interface ExtractionApplySummary {
  readonly entitiesCreated: number;
  readonly entitiesConfirmed: number;
  readonly mentionsAdded: number;
  readonly relationsCreated: number;
  readonly relationsConfirmed: number;
  readonly attributesCreated: number;
  readonly attributesConfirmed: number;
  readonly superseded: number;
  /** The attribute each fact became (or confirmed), by fact index; null for a skipped fact. */
  readonly factAttributeIds: readonly (string | null)[];
  /** Items dropped by the re-check before insert, with the reason. */
  readonly skipped: readonly { readonly item: string; readonly reason: string }[];
}

const EMPTY: ExtractionApplySummary = {
  entitiesCreated: 0, entitiesConfirmed: 0, mentionsAdded: 0, relationsCreated: 0, relationsConfirmed: 0,
  attributesCreated: 0, attributesConfirmed: 0, superseded: 0, factAttributeIds: [], skipped: [],
};

/**
 * Every free-text field of a payload, redacted (docs/ingest.md "Redaction"): an LLM extractor can
 * echo or invent a secret, and graph rows are store files like any other. Names are redacted the
 * same way wherever they appear, so relations and facts still find their entities.
 */
function redactPayload(p: ExtractionPayload): ExtractionPayload {
  const r = <T>(v: T): T => (typeof v === 'string' ? redactSecrets(v, DEFAULT_REDACTION_CONFIG).text as T : v);
  return {
    ...(p.entities ? { entities: p.entities.map((e) => ({ ...e, name: r(e.name), description: r(e.description) })) } : {}),
    ...(p.relations ? { relations: p.relations.map((x) => ({ ...x, from: r(x.from), to: r(x.to), instruction: r(x.instruction) })) } : {}),
    ...(p.facts ? { facts: p.facts.map((f) => ({ ...f, entity: r(f.entity), content: r(f.content), aspect: r(f.aspect), group_key: r(f.group_key), claim_key: r(f.claim_key) })) } : {}),
  };
}

/**
 * Applies an extraction payload for its source memories:
 * an existing concept is confirmed (mentions up, provenance added, content kept), never
 * replaced; relations are keyed by (from, to, type) and a repeat updates the instruction;
 * relations to undeclared endpoints are dropped; self relations ignored; every kind is
 * re-checked before insert (out-of-enum items skipped); an empty payload writes nothing.
 */
export function applyExtractionPayload(db: SqlWriter, ctx: GraphWriteContext, sources: readonly string[], given: ExtractionPayload, origin: PayloadOrigin): ExtractionApplySummary {
  if (isEmptyPayload(given)) return EMPTY;
  const payload = redactPayload(given);
  const s = { ...EMPTY, skipped: [] as { item: string; reason: string }[], factAttributeIds: [] as (string | null)[] };
  const ids = new Map<string, string>();
  for (const [i, e] of (payload.entities ?? []).entries()) {
    if (!isEntityType(e.type)) { s.skipped.push({ item: `entities/${i}`, reason: `entity type '${String(e.type)}' not allowed` }); continue; }
    if (typeof e.name !== 'string' || !e.name.trim()) { s.skipped.push({ item: `entities/${i}`, reason: 'empty name' }); continue; }
    if (ids.has(nameKey(e.name))) continue;
    const up = upsertEntity(db, ctx, { name: e.name, type: e.type, description: e.description ?? '' });
    ids.set(nameKey(e.name), up.id);
    if (up.created) s.entitiesCreated++; else s.entitiesConfirmed++;
    let added = 0;
    for (const m of sources) if (linkMention(db, ctx, m, up.id, e.name, ctx.config.mentionConfidence)) added++;
    bumpEntityMentions(db, ctx, up.id, sources.length ? added : 1);
    s.mentionsAdded += added;
  }
  const memoryId = sources[0] ?? null;
  const confidence = origin === 'llm' ? ctx.config.llmRelationConfidence : ctx.config.heuristicRelationConfidence;
  for (const [i, r] of (payload.relations ?? []).entries()) {
    if (!isEdgeKind(r.type)) { s.skipped.push({ item: `relations/${i}`, reason: `relation type '${String(r.type)}' not allowed` }); continue; }
    const from = ids.get(nameKey(r.from));
    const to = ids.get(nameKey(r.to));
    if (!from || !to) { s.skipped.push({ item: `relations/${i}`, reason: 'endpoint not declared in this payload' }); continue; }
    if (from === to) { s.skipped.push({ item: `relations/${i}`, reason: 'self relation' }); continue; }
    const up = upsertRelation(db, ctx, { sourceId: from, targetId: to, type: r.type, confidence, instruction: r.instruction, memoryId });
    if (up?.created) s.relationsCreated++; else if (up) s.relationsConfirmed++;
  }
  const observedAt = memoryId ? db.get<{ created_at: string }>('SELECT created_at FROM memories WHERE id = ?', [memoryId])?.created_at ?? ctx.nowIso : ctx.nowIso;
  for (const [i, f] of (payload.facts ?? []).entries()) {
    s.factAttributeIds.push(null);
    if (!isFactType(f.type)) { s.skipped.push({ item: `facts/${i}`, reason: `fact type '${String(f.type)}' not allowed` }); continue; }
    const entityId = ids.get(nameKey(f.entity));
    if (!entityId) { s.skipped.push({ item: `facts/${i}`, reason: 'entity not declared in this payload' }); continue; }
    if (!f.content?.trim() || !f.aspect?.trim()) { s.skipped.push({ item: `facts/${i}`, reason: 'empty content or aspect' }); continue; }
    const aspectId = upsertAspect(db, ctx, entityId, f.aspect);
    const w = writeAttribute(db, ctx, {
      entityId, aspectId, memoryId, kind: f.type === 'constraint' ? 'constraint' : 'attribute', content: f.content,
      groupKey: f.group_key, claimKey: f.claim_key, importance: f.importance, confidence: f.confidence, observedAt,
    });
    s.factAttributeIds[i] = w.id;
    if (w.created) s.attributesCreated++; else s.attributesConfirmed++;
    s.superseded += w.superseded.length;
  }
  return s;
}

/**
 * Graph facts the post-fusion stages need for a candidate set: entity links and mention degrees
 * (hub dampening) and attribute states with replacements (structured currentness; a memory-level
 * claim, graph/memorySupersessionWrites.ts, comes first and is flagged `wholeMemory`).
 */
import { MEMORY_CLAIM_GROUP } from '../graph/memorySupersessionWrites';
import type { SqlReader } from '../store/storeTypes';
import type { AttributeState } from './currentness';
import type { HubInput } from './dampening';
import { sqlPlaceholders } from '../store/sqlPlaceholders';


export function loadHubInput(db: SqlReader, memoryIds: readonly string[]): HubInput {
  const entitiesByMemory = new Map<string, string[]>();
  const degreeByEntity = new Map<string, number>();
  if (memoryIds.length === 0) return { entitiesByMemory, degreeByEntity };
  const links = db.all<{ memory_id: string; entity_id: string }>(
    `SELECT memory_id, entity_id FROM memory_entity_mentions WHERE memory_id IN (${sqlPlaceholders(memoryIds.length)})`, [...memoryIds]);
  for (const l of links) {
    const list = entitiesByMemory.get(l.memory_id) ?? [];
    list.push(l.entity_id);
    entitiesByMemory.set(l.memory_id, list);
    degreeByEntity.set(l.entity_id, 0);
  }
  const ents = [...degreeByEntity.keys()];
  if (ents.length > 0) {
    // entities.mentions is the maintained count of linking memories, so the degree is a
    // lookup instead of a COUNT over every mention of a hub entity.
    for (const r of db.all<{ id: string; n: number }>(`SELECT id, mentions AS n FROM entities WHERE id IN (${sqlPlaceholders(ents.length)})`, ents)) {
      degreeByEntity.set(r.id, r.n);
    }
  }
  return { entitiesByMemory, degreeByEntity };
}

// `+a.status` keeps the planner on idx_attributes_memory: without statistics it picked the status
// index, which matches nearly every attribute, and scanned them all on every recall (docs/store.md,
// "Measured: recall as users run it").
export function loadAttributeStates(db: SqlReader, memoryIds: readonly string[]): Map<string, AttributeState[]> {
  const out = new Map<string, AttributeState[]>();
  if (memoryIds.length === 0) return out;
  const rows = db.all<{ memory_id: string; status: 'active' | 'superseded'; content: string; repl: string | null; repl_mem: string | null; whole: number }>(
    `SELECT a.memory_id AS memory_id, a.status AS status, a.content AS content, r.content AS repl, r.memory_id AS repl_mem,
            (a.entity_id IS NULL AND a.aspect_id IS NULL AND a.group_key IS ?) AS whole
       FROM entity_attributes a LEFT JOIN entity_attributes r ON r.id = a.superseded_by
      WHERE a.memory_id IN (${sqlPlaceholders(memoryIds.length)}) AND +a.status IN ('active', 'superseded')
      ORDER BY whole DESC, a.importance DESC, a.created_at DESC`, [MEMORY_CLAIM_GROUP, ...memoryIds]);
  for (const r of rows) {
    const list = out.get(r.memory_id) ?? [];
    const perStatus = list.filter((s) => s.status === r.status).length;
    if (perStatus >= 3) continue;
    const state: AttributeState = {
      status: r.status, content: r.content,
      ...(r.whole ? { wholeMemory: true } : {}),
      ...(r.repl !== null ? { replacement: r.repl } : {}),
      ...(r.repl_mem !== null && r.repl_mem !== r.memory_id ? { replacementMemoryId: r.repl_mem } : {}),
    };
    list.push(state);
    out.set(r.memory_id, list);
  }
  return out;
}

/**
 * Pin priority (docs/recall-design.md, "Pins"): a pinned entity is the user's statement that it
 * matters, so among the memories that answer the question, the ones linked to a pinned entity
 * rank above equally relevant ones. A pin is never evidence of relevance by itself: a memory must
 * have been found by the query (keywords, meaning or hints) and score at least `floor` × the best
 * candidate's score before its pin counts, and a pin adds no candidate. So a pin reorders the head
 * of a relevant answer and leaves unrelated answers as they were.
 */
import type { SqlReader } from '../store/storeTypes';
import { sqlPlaceholders } from '../store/sqlPlaceholders';
import { applyFactor, sortByScore } from './recallTypes';
import type { Candidate } from './recallTypes';
import type { PinConfig } from '../config/searchConfig';

/** Pinned entities of a candidate set: memory id → names of the pinned entities it mentions. */
export function loadPinnedLinks(db: SqlReader, memoryIds: readonly string[], agentId: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (memoryIds.length === 0) return out;
  const pinned = db.all<{ id: string; name: string }>("SELECT id, name FROM entities WHERE pinned = 1 AND status = 'active' AND agent_id = ?", [agentId]);
  if (pinned.length === 0) return out;
  const names = new Map(pinned.map((p) => [p.id, p.name]));
  const rows = db.all<{ memory_id: string; entity_id: string }>(
    `SELECT memory_id, entity_id FROM memory_entity_mentions WHERE memory_id IN (${sqlPlaceholders(memoryIds.length)}) AND entity_id IN (${sqlPlaceholders(pinned.length)})`,
    [...memoryIds, ...pinned.map((p) => p.id)]);
  for (const r of rows) {
    const list = out.get(r.memory_id) ?? [];
    list.push(names.get(r.entity_id) as string);
    out.set(r.memory_id, list);
  }
  return out;
}

/** Whether the query itself found the candidate (not only the graph or a neighbouring turn). */
function foundByQuery(c: Candidate): boolean {
  return c.channels.lexical > 0 || c.channels.semantic > 0 || c.channels.hint > 0;
}

/** Lifts relevant candidates linked to a pinned entity by `lift`; returns them sorted by score. */
export function applyPinPriority(cands: Candidate[], pinnedLinks: ReadonlyMap<string, readonly string[]>, cfg: PinConfig): Candidate[] {
  if (pinnedLinks.size === 0 || cands.length === 0) return cands;
  const best = Math.max(...cands.map((c) => c.score));
  if (!(best > 0)) return cands;
  let changed = false;
  for (const c of cands) {
    const names = pinnedLinks.get(c.id);
    if (!names || !foundByQuery(c) || c.score < cfg.floor * best) continue;
    applyFactor(c, 'pins', cfg.lift, `about pinned ${[...new Set(names)].sort().join(', ')}`);
    changed = true;
  }
  return changed ? sortByScore(cands) : cands;
}

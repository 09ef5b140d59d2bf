import type { SqlWriter } from '../store/storeTypes';
import { recordGraphOp } from './graphAudit';
import type { GraphWriteContext } from './graphWriteTypes';

export interface DetachSummary {
  readonly mentionsRemoved: number;
  readonly attributesRemoved: number;
  /** Attributes a removed one had superseded, made current again. */
  readonly attributesRestored: number;
  /** Relations observed only in this memory, removed; others lose this memory's observations. */
  readonly relationsRemoved: number;
  /** Entities left with no mention, relation or attribute, removed with the memory. */
  readonly entitiesRemoved: number;
}

/**
 * Removes everything the graph holds from one memory, for forget (hard delete): its mention
 * links (entity mention counts drop accordingly), the attributes it produced (a claim they had
 * superseded becomes current again), its relation observations, and entities that existed only because of it (unpinned, no
 * remaining mention, relation or attribute). Every change is audited.
 */
export function detachMemoryFromGraph(db: SqlWriter, ctx: GraphWriteContext, memoryId: string): DetachSummary {
  const linked = db.all<{ entity_id: string }>('SELECT entity_id FROM memory_entity_mentions WHERE memory_id = ?', [memoryId]);
  db.run('DELETE FROM memory_entity_mentions WHERE memory_id = ?', [memoryId]);
  for (const l of linked) {
    db.run('UPDATE entities SET mentions = MAX(0, mentions - 1), updated_at = ? WHERE id = ?', [ctx.nowIso, l.entity_id]);
    recordGraphOp(db, ctx, { op: 'mention_unlink', targetKind: 'mention', targetId: l.entity_id, memoryId });
  }
  const attrs = db.all<{ id: string; entity_id: string | null }>('SELECT id, entity_id FROM entity_attributes WHERE memory_id = ?', [memoryId]);
  let restored = 0;
  for (const a of attrs) {
    restored += db.run("UPDATE entity_attributes SET status = 'active', superseded_by = NULL, updated_at = ? WHERE superseded_by = ? AND status = 'superseded'", [ctx.nowIso, a.id]).changes;
    db.run('DELETE FROM entity_attributes WHERE id = ?', [a.id]);
    recordGraphOp(db, ctx, { op: 'attribute_delete', targetKind: 'attribute', targetId: a.id, memoryId });
  }
  // Relations carry no memory column; their observations are in the audit trail (relation_create /
  // relation_confirm rows with this memory_id), which is what `mentions` counts.
  const observed = db.all<{ id: string; n: number; mentions: number; source_entity_id: string; target_entity_id: string }>(
    `SELECT r.id, COUNT(*) AS n, r.mentions, r.source_entity_id, r.target_entity_id FROM graph_ops g JOIN relations r ON r.id = g.target_id
      WHERE g.memory_id = ? AND g.op IN ('relation_create', 'relation_confirm') GROUP BY r.id`, [memoryId]);
  let relationsRemoved = 0;
  const ends: string[] = [];
  for (const r of observed) {
    if (r.n >= r.mentions) {
      db.run('DELETE FROM relations WHERE id = ?', [r.id]);
      recordGraphOp(db, ctx, { op: 'relation_delete', targetKind: 'relation', targetId: r.id, memoryId });
      relationsRemoved++;
      ends.push(r.source_entity_id, r.target_entity_id);
    } else {
      db.run('UPDATE relations SET mentions = mentions - ?, updated_at = ? WHERE id = ?', [r.n, ctx.nowIso, r.id]);
      recordGraphOp(db, ctx, { op: 'relation_unobserve', targetKind: 'relation', targetId: r.id, memoryId, details: { removed: r.n } });
    }
  }
  const candidates = new Set([...linked.map((l) => l.entity_id), ...ends, ...attrs.map((a) => a.entity_id).filter((e): e is string => e !== null)]);
  let entitiesRemoved = 0;
  for (const id of candidates) {
    const orphan = db.get<{ x: number }>(
      `SELECT 1 AS x FROM entities e WHERE e.id = ? AND e.pinned = 0
         AND NOT EXISTS (SELECT 1 FROM memory_entity_mentions m WHERE m.entity_id = e.id)
         AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.source_entity_id = e.id OR r.target_entity_id = e.id)
         AND NOT EXISTS (SELECT 1 FROM entity_attributes a WHERE a.entity_id = e.id)`, [id]);
    if (!orphan) continue;
    db.run('DELETE FROM entities WHERE id = ?', [id]);
    recordGraphOp(db, ctx, { op: 'entity_delete', targetKind: 'entity', targetId: id, memoryId, details: { why: 'only source forgotten' } });
    entitiesRemoved++;
  }
  return { mentionsRemoved: linked.length, attributesRemoved: attrs.length, attributesRestored: restored, relationsRemoved, entitiesRemoved };
}

import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import { MemoryError } from '../errors';
import { isStoredEntityType } from '../graph/entityWrites';
import { applyGraphOp, graphContext } from '../graph/graphApply';
import type { MemoryStore } from '../store/storeTypes';
import type { MergeProposal } from './duplicatesAndConflicts';

/**
 * Accepts a merge the user approved: the kept memory takes over the dropped one's entity links
 * (through the graph apply path, audited), then the dropped memory is soft-deleted and its
 * attributes superseded. Refuses when either memory is gone or already deleted.
 */
export function acceptMerge(store: MemoryStore, proposal: MergeProposal, clock: Clock): Promise<{ relinked: number }> {
  return store.write('consolidation.merge', (db) => {
    const rows = db.all<{ id: string; is_deleted: number; agent_id: string }>('SELECT id, is_deleted, agent_id FROM memories WHERE id IN (?, ?)', [proposal.keepId, proposal.dropId]);
    if (rows.length !== 2 || rows.some((r) => r.is_deleted)) throw new MemoryError('E_NOT_FOUND', 'One of the memories to merge no longer exists.');
    const ctx = graphContext({ actor: 'user', reason: `merge ${proposal.dropId} into ${proposal.keepId}`, clock, agentId: rows[0]?.agent_id ?? 'default' });
    const links = db.all<{ name: string; entity_type: string; mention_text: string | null; confidence: number }>(
      `SELECT e.name, e.entity_type, m.mention_text, m.confidence FROM memory_entity_mentions m JOIN entities e ON e.id = m.entity_id
        WHERE m.memory_id = ? AND e.scope IS NULL`, [proposal.dropId]);
    let relinked = 0;
    for (const l of links) {
      const r = applyGraphOp(db, ctx, { op: 'upsert_entity', name: l.name, type: isStoredEntityType(l.entity_type) ? l.entity_type : 'unknown', memoryId: proposal.keepId, mentionText: l.mention_text ?? l.name, confidence: l.confidence });
      if (r.op === 'upsert_entity') relinked++;
    }
    const now = isoFromMs(clock.now());
    db.run('UPDATE memories SET is_deleted = 1, deleted_at = ?, updated_at = ? WHERE id = ?', [now, now, proposal.dropId]);
    db.run("DELETE FROM memory_jobs WHERE memory_id = ? AND status = 'pending'", [proposal.dropId]);
    applyGraphOp(db, ctx, { op: 'propagate_memory_status' });
    return { relinked };
  });
}

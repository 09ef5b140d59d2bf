import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { isoFromMs } from '../clock';
import { MemoryError } from '../errors';
import type { DetachSummary } from '../graph/detachMemory';
import { applyGraphOp, graphContext } from '../graph/graphApply';
import type { PurgeReport } from '../store/durableStore';
import type { MemoryStore, SqlWriter } from '../store/storeTypes';

/** Soft delete and forget (hard delete) of a memory. */

function requireMemory(db: SqlWriter, id: string): { is_deleted: number; agent_id: string } {
  const row = db.get<{ is_deleted: number; agent_id: string }>('SELECT is_deleted, agent_id FROM memories WHERE id = ?', [id]);
  if (!row) throw new MemoryError('E_NOT_FOUND', `No memory with id ${id}.`);
  return row;
}

/**
 * Soft delete: the memory leaves recall and dedup (a later remember of the same text creates a
 * new row) but stays on disk; its attributes are superseded right away (propagateMemoryStatus)
 * and its queued jobs are dropped. Returns false when it was already deleted.
 */
export function softDeleteMemory(store: MemoryStore, id: string, clock: Clock): Promise<boolean> {
  return store.write('memory.delete', (db) => {
    const row = requireMemory(db, id);
    if (row.is_deleted) return false;
    const now = isoFromMs(clock.now());
    db.run('UPDATE memories SET is_deleted = 1, deleted_at = ?, updated_at = ? WHERE id = ?', [now, now, id]);
    db.run("DELETE FROM memory_jobs WHERE memory_id = ? AND status = 'pending'", [id]);
    const ctx = graphContext({ actor: 'user', reason: 'memory deleted', clock, agentId: row.agent_id });
    applyGraphOp(db, ctx, { op: 'propagate_memory_status' });
    return true;
  });
}

export interface ForgetSummary extends DetachSummary {
  readonly vectorsRemoved: number;
  readonly hintsRemoved: number;
  readonly jobsRemoved: number;
}

/**
 * Forget: hard delete. Removes the memory row (its FTS row goes with it, by trigger), its vectors,
 * hints (and their FTS rows), jobs, session links, and everything the graph holds from it
 * (mentions, attributes, entities that existed only because of it), in one transaction.
 */
export function forgetMemory(store: MemoryStore, id: string, clock: Clock, actor = 'user'): Promise<ForgetSummary> {
  return store.write('memory.forget', (db) => forgetMemoryInTransaction(db, id, clock, actor));
}

/** forgetMemory's work inside an open transaction (team replication forgets tombstoned replicas in its pull transaction). */
export function forgetMemoryInTransaction(db: SqlWriter, id: string, clock: Clock, actor = 'user'): ForgetSummary {
  const row = requireMemory(db, id);
  const ctx = graphContext({ actor, reason: 'memory forgotten', clock, agentId: row.agent_id, newId: randomUUID });
  const result = applyGraphOp(db, ctx, { op: 'detach_memory', memoryId: id });
  const detached = result.op === 'detach_memory' ? result.summary : { mentionsRemoved: 0, attributesRemoved: 0, attributesRestored: 0, relationsRemoved: 0, entitiesRemoved: 0 };
  const vectorsRemoved = db.run("DELETE FROM embeddings WHERE source_type = 'memory' AND source_id = ?", [id]).changes;
  const hintsRemoved = db.run('DELETE FROM memory_hints WHERE memory_id = ?', [id]).changes;
  const jobsRemoved = db.run('DELETE FROM memory_jobs WHERE memory_id = ?', [id]).changes;
  db.run('DELETE FROM session_memories WHERE memory_id = ?', [id]);
  db.run('DELETE FROM memory_conflicts WHERE older_id = ? OR newer_id = ?', [id, id]);
  db.run('DELETE FROM memories WHERE id = ?', [id]);
  return { ...detached, vectorsRemoved, hintsRemoved, jobsRemoved };
}

/** Stores whose files can be rewritten without deleted data (the durable store). */
interface PurgeableStore {
  purgeDeleted(): Promise<PurgeReport>;
}

function isPurgeable(store: object): store is PurgeableStore {
  return typeof (store as Partial<PurgeableStore>).purgeDeleted === 'function';
}

/**
 * Forget, then purge: the memory is hard-deleted and the store's files are rewritten, so its text,
 * vectors and index entries are in no file of the store folder afterwards (journal, snapshots,
 * FTS shadow tables; docs/store.md, "Forget means gone"). Files kept aside by an earlier repair
 * are not touched. `purge` is undefined for stores without files (tests).
 */
export async function forgetMemoryCompletely(store: MemoryStore, id: string, clock: Clock, actor = 'user'): Promise<ForgetSummary & { readonly purge: PurgeReport | undefined }> {
  const summary = await forgetMemory(store, id, clock, actor);
  const purge = isPurgeable(store) ? await store.purgeDeleted() : undefined;
  return { ...summary, purge };
}

/**
 * The review part's data over the engine (reviewController.ts): conflicts and answers through
 * MemoryEngine's capabilities, merges from the graph audit trail. The engine is opened on first use.
 */
import type { MemoryEngine } from '../../core/engine/memoryEngine';
import { entityMergesSince, graphOpsCursor } from '../../core/maintenance/maintenanceUndo';
import { PROTOCOL_LIMITS } from '../../../src/shared/knowledgeProtocol';
import type { ConflictView } from '../../../src/shared/knowledgeProtocolTypes';
import type { ReviewSource } from './reviewController';

const cut = (s: string): string => (s.length > PROTOCOL_LIMITS.contentLength ? `${s.slice(0, PROTOCOL_LIMITS.contentLength - 1)}…` : s);

export function engineReviewSource(runtime: () => Promise<MemoryEngine>): ReviewSource {
  return {
    async conflicts(): Promise<ConflictView[]> {
      const rt = await runtime();
      return rt.conflicts({ limit: PROTOCOL_LIMITS.conflictsMax }).map((c) => ({
        id: c.id, reason: c.reason.slice(0, PROTOCOL_LIMITS.typeLength), current: c.current,
        older: { id: c.older.id, content: cut(c.older.content), createdAt: c.older.createdAt },
        newer: { id: c.newer.id, content: cut(c.newer.content), createdAt: c.newer.createdAt },
      }));
    },
    async resolveConflict(id, choice): Promise<string> {
      return (await (await runtime()).resolveConflict(id, choice)).message;
    },
    async mergesSince(cursor) {
      const rt = await runtime();
      return rt.store.read((db) => (cursor === undefined ? { cursor: graphOpsCursor(db), merges: [] } : entityMergesSince(db, cursor)));
    },
    async mergedInto(id) {
      return (await runtime()).mergedInto(id);
    },
  };
}

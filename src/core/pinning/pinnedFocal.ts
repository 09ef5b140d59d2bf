import type { SqlReader } from '../store/storeTypes';
import { getPinnedEntities } from './pinning';

/**
 * Pinned entities are priority 0 of focal resolution: always unioned with whatever
 * the project/checkpoint/query chain resolved, never a fallback. `source` stays the non-pinned
 * resolution source.
 */
export interface FocalEntities {
  readonly entityIds: string[];
  readonly entityNames: string[];
  readonly pinnedEntityIds: string[];
  readonly source: string;
}

export interface ResolvedFocal {
  readonly entityIds: readonly string[];
  readonly entityNames: readonly string[];
  readonly source: string;
}

export function unionPinnedFocal(db: SqlReader, agentId: string, resolved: ResolvedFocal): FocalEntities {
  const pinned = getPinnedEntities(db, agentId);
  const ids: string[] = [];
  const names: string[] = [];
  const add = (id: string, name: string): void => { if (!ids.includes(id)) { ids.push(id); names.push(name); } };
  for (const p of pinned) add(p.id, p.name);
  resolved.entityIds.forEach((id, i) => add(id, resolved.entityNames[i] ?? id));
  return { entityIds: ids, entityNames: names, pinnedEntityIds: pinned.map((p) => p.id), source: resolved.source };
}

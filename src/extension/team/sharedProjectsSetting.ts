/**
 * The agentMemory.team.sharedProjects setting mirrored into the store's team state, free of
 * `vscode` so it is unit-tested: projects the setting lists are shared; on a change, projects it
 * no longer lists stop being shared (docs/team.md).
 */
import type { MemoryStore } from '../../core/store/storeTypes';
import { shareProject } from '../../core/team/teamAdmin';
import { readTeamState } from '../../core/team/teamState';

/** The setting's project names: strings, trimmed, empty ones dropped. */
export function sharedProjectsFrom(raw: unknown): string[] {
  return Array.isArray(raw) ? raw.filter((p): p is string => typeof p === 'string' && p.trim().length > 0).map((p) => p.trim()) : [];
}

/** Shares every project in `now`; with `previous` (the value before a change), stops sharing those removed. */
export async function mirrorSharedProjects(store: MemoryStore, now: readonly string[], previous: readonly string[] | undefined): Promise<void> {
  const current = store.read((db) => readTeamState(db).sharedProjects);
  for (const p of now) if (!current.includes(p)) await shareProject(store, p, true);
  if (previous) for (const p of previous) if (!now.includes(p) && current.includes(p)) await shareProject(store, p, false);
}

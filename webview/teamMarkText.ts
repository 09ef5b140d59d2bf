/**
 * How a team memory and its author read (docs/team.md "In VS Code"), shared by the graph tree and
 * the Knowledge panel so both say the same: "team · alice" for a teammate's memory, "shared by
 * you" for this store's own shared memory.
 */
import type { TeamMarkView } from '../src/shared/knowledgeProtocolTypes';

export function teamMarkLabel(team: TeamMarkView): string {
  return team.mine ? 'shared by you' : `team · ${team.author ?? 'unknown author'}`;
}

/** The sentence of a hover: who shared it with the team. */
export function teamMarkSentence(team: TeamMarkView): string {
  if (team.mine) return team.author ? `Shared with the team by you (${team.author}).` : 'Shared with the team by you.';
  return `Shared with the team by ${team.author ?? 'an unknown author'}.`;
}

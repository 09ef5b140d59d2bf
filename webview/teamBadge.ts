/** The badge that marks a team memory and its author on attribute rows and recall results. */
import { h } from './dom';
import type { TeamMarkView } from '../src/shared/knowledgeProtocolTypes';
import { teamMarkLabel, teamMarkSentence } from './teamMarkText';

/** null for a personal memory (no badge). */
export function teamBadge(team: TeamMarkView | null): HTMLElement | null {
  return team ? h('span', { class: `badge team${team.mine ? ' mine' : ''}`, title: teamMarkSentence(team) }, teamMarkLabel(team)) : null;
}

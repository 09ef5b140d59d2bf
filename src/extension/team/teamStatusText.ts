/**
 * Texts of the team state for the status bar item, its tooltip and `@memory /status` (pure, so the
 * unit layer tests them without VS Code). docs/team.md, "In VS Code".
 */
import type { TeamStatus } from '../../core/team/teamSync';

export function describeTeam(s: TeamStatus): string {
  if (s.state === 'off' || !s.server) return 'Team memory: not connected.';
  const projects = s.sharedProjects.length ? s.sharedProjects.join(', ') : 'no project shared yet';
  const partial = s.replica === 'partial' ? ' Partial replica: recall also asks the team server.' : '';
  if (s.state === 'connected') return `Team memory: connected to ${s.server} (${projects}); ${s.waiting} waiting to push.${partial}`;
  if (s.state === 'offline') return `Team memory: offline, ${s.waiting} waiting to push (${s.reason ?? 'server unreachable'}).${partial}`;
  return `Team memory: error — ${s.reason ?? 'unknown'} (${s.waiting} waiting).${partial}`;
}

/** The status bar text, or undefined when the item should be hidden (team memory off). */
export function teamBarText(s: TeamStatus | undefined): string | undefined {
  if (!s || s.state === 'off' || !s.server) return undefined;
  if (s.state === 'connected') return '$(organization) Team';
  if (s.state === 'offline') return `$(cloud-offline) Team: ${s.waiting} waiting`;
  return '$(error) Team';
}

/** A memory id from a command argument: a string, or a tree/panel item carrying `memoryId` or `id`. */
export function memoryIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object') {
    const o = arg as { id?: unknown; memoryId?: unknown };
    if (typeof o.memoryId === 'string') return o.memoryId;
    if (typeof o.id === 'string') return o.id;
  }
  return undefined;
}

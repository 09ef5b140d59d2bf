/**
 * Where Memory: Connect Agents… can write hooks, and the record of what it wrote, free of `vscode`
 * so it is unit-tested (docs/agents.md, "Connecting agents"). VS Code reads every location here
 * (chat.hookFilesLocations defaults), Claude Code reads its own two.
 */
import { accessSync, constants } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import type { HookFileFormat, HookHarness, WrittenHook } from '../../core/hooks/hookConfigMerge';

export type TargetScope = 'user' | 'workspace';

export interface HookTarget {
  /** `<harness>:<scope>`, e.g. `claude-code:user`. */
  readonly id: string;
  readonly harness: HookHarness;
  readonly scope: TargetScope;
  readonly format: HookFileFormat;
  readonly file: string;
  readonly label: string;
  readonly detail: string;
}

/** The hook file Agent Memory owns in a hooks folder. */
export const HOOK_FILE_NAME = 'agent-memory.json';

/** Every target available: user-level ones always, workspace ones when a folder is open. */
export function hookTargets(home: string, workspaceFolder: string | undefined): HookTarget[] {
  const out: HookTarget[] = [
    {
      id: 'vscode:user', harness: 'vscode', scope: 'user', format: 'vscode-hooks', file: join(home, '.copilot', 'hooks', HOOK_FILE_NAME),
      label: 'VS Code agents — every workspace', detail: 'Copilot agent mode and the agents VS Code hosts (Local, Copilot CLI, Claude, Codex), through ~/.copilot/hooks',
    },
    {
      id: 'claude-code:user', harness: 'claude-code', scope: 'user', format: 'claude-settings', file: join(home, '.claude', 'settings.json'),
      label: 'Claude Code — every project', detail: 'Claude Code in a terminal, through ~/.claude/settings.json (VS Code reads it too)',
    },
  ];
  if (workspaceFolder) {
    out.push(
      {
        id: 'vscode:workspace', harness: 'vscode', scope: 'workspace', format: 'vscode-hooks', file: join(workspaceFolder, '.github', 'hooks', HOOK_FILE_NAME),
        label: 'VS Code agents — this workspace', detail: 'through .github/hooks in this workspace (it names paths of this machine: keep it out of commits)',
      },
      {
        id: 'claude-code:workspace', harness: 'claude-code', scope: 'workspace', format: 'claude-settings', file: join(workspaceFolder, '.claude', 'settings.local.json'),
        label: 'Claude Code — this project', detail: 'through .claude/settings.local.json (Claude Code\'s uncommitted project settings)',
      },
    );
  }
  return out;
}

/** What one connection wrote, kept in the extension's global state so Disconnect removes exactly that. */
export interface Connection {
  readonly targetId: string;
  readonly harness: HookHarness;
  readonly file: string;
  readonly format: HookFileFormat;
  readonly written: readonly WrittenHook[];
  /** The file did not exist before: Disconnect deletes it when nothing else is left in it. */
  readonly createdFile: boolean;
  readonly store: string;
  readonly connectedAt: string;
}

export const CONNECTIONS_KEY = 'agentMemory.agentConnections';

/** Reads the record defensively (an older or damaged one yields what still parses). */
export function readConnections(v: unknown): Connection[] {
  if (!Array.isArray(v)) return [];
  return v.filter((c): c is Connection => typeof c === 'object' && c !== null && typeof (c as Connection).file === 'string'
    && typeof (c as Connection).targetId === 'string' && Array.isArray((c as Connection).written));
}

/**
 * The Node.js a hook runs the bundled CLI with: `node` on PATH, else the extension host's own
 * runtime when it is Node (code-server, remote hosts). Undefined: none found (the desktop host is
 * Electron, which would need ELECTRON_RUN_AS_NODE in the command).
 */
export function findNode(pathVar: string | undefined, platform: NodeJS.Platform, execPath: string): string | undefined {
  const names = platform === 'win32' ? ['node.exe', 'node.cmd'] : ['node'];
  for (const dir of (pathVar ?? '').split(delimiter).filter(Boolean)) {
    for (const n of names) {
      const candidate = join(dir, n);
      try { accessSync(candidate, constants.X_OK); return candidate; } catch { /* not here */ }
    }
  }
  return /^node(\.exe)?$/i.test(basename(execPath)) ? execPath : undefined;
}

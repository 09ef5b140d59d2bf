import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { MemoryError } from '../errors';

/**
 * The one writer of agent hook configuration (docs/agents.md, "Connecting"): Memory: Connect /
 * Disconnect Agents (src/extension/agents/connectAgents.ts) and `agent-memory hook install |
 * uninstall` (src/cli/commands/hook.ts) both build their command, entries and merges here. It adds
 * Agent Memory's hooks without disturbing anything else in the file, and removes either exactly
 * what was written (the extension keeps the record) or every entry of ours (the CLI, which keeps
 * none: ours are recognised by HOOK_COMMAND_MARK in the command). File shapes:
 * - `vscode-hooks`: a hook file of its own (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`),
 *   `{"hooks": {"SessionStart": [{"type": "command", "command": …, "timeout": …}]}}`;
 * - `claude-settings`: Claude Code's settings (`~/.claude/settings.json`, `.claude/settings*.json`),
 *   `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": …, "timeout": …}]}]}}`
 *   next to the user's other settings and hooks (VS Code reads these too);
 * - `copilot-hooks`: Copilot CLI's `.github/hooks/*.json` dialect, camelCase events and
 *   `{"type": "command", "bash": …, "timeoutSec": …}`.
 * The merge functions are pure text in, text out; readHookConfig / writeHookConfig do the file I/O
 * for the CLI (atomic replace).
 */

export type HookFileFormat = 'vscode-hooks' | 'claude-settings' | 'copilot-hooks';
export type HookHarness = 'vscode' | 'claude-code' | 'copilot';

/** Every command we write contains this (the subcommand and its first flag): how ours are recognised. */
export const HOOK_COMMAND_MARK = ' hook --harness ';

/** One entry added to one event's list: what unmerge looks for (deep equality). */
export interface WrittenHook {
  readonly event: string;
  readonly entry: Record<string, unknown>;
}

/** The events Agent Memory hooks for a harness: inject at start and per prompt, capture at stop and before compaction. */
export const HOOK_EVENTS: Readonly<Record<HookHarness, readonly string[]>> = {
  vscode: ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact'],
  'claude-code': ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'SessionEnd'],
  copilot: ['sessionStart', 'userPromptSubmitted', 'agentStop', 'sessionEnd'],
};

/**
 * Seconds a harness lets one hook call run. Above the call's own deadline (HOOK_DEADLINE_MS, 20 s,
 * src/cli/commands/hook.ts), so the call always ends itself, answering nothing, before the harness
 * would kill it.
 */
export const HOOK_TIMEOUT_SECONDS = 30;

/** Quotes one argument for the shell that runs hook commands (sh on POSIX, cmd/PowerShell on Windows). */
export function shellQuote(arg: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `"${arg.replace(/"/g, '""')}"`;
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** What runs the CLI: node and the bundled `dist/cli.js`, or a launcher script that does (hookLauncher.ts). */
export type HookProgram = { readonly node: string; readonly cliJs: string } | { readonly launcher: string };

/** The command a hook runs: `<program> hook --harness H --store DIR` (the event comes in the payload). */
export function hookCommand(o: HookProgram & { readonly store: string; readonly harness: HookHarness; readonly platform?: NodeJS.Platform }): string {
  const q = (a: string): string => shellQuote(a, o.platform);
  const program = 'launcher' in o ? [q(o.launcher)] : [q(o.node), q(o.cliJs)];
  return [...program, 'hook', '--harness', o.harness, '--store', q(o.store)].join(' ');
}

/** The entries to add for a harness in a file format. */
export function hookEntries(format: HookFileFormat, harness: HookHarness, command: string): WrittenHook[] {
  const hook = format === 'copilot-hooks' ? { type: 'command', bash: command, timeoutSec: HOOK_TIMEOUT_SECONDS } : { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
  return HOOK_EVENTS[harness].map((event) => ({ event, entry: format === 'claude-settings' ? { hooks: [hook] } : hook }));
}

/** A whole `.github/hooks/<name>.json` naming our command for every event of VS Code or Copilot CLI. */
export function githubHookFile(command: string, harness: 'vscode' | 'copilot'): { version: 1; hooks: Record<string, unknown[]> } {
  const hooks: Record<string, unknown[]> = {};
  for (const w of hookEntries(harness === 'copilot' ? 'copilot-hooks' : 'vscode-hooks', harness, command)) (hooks[w.event] ??= []).push(w.entry);
  return { version: 1, hooks };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseConfig(text: string | undefined, file: string): Record<string, unknown> {
  if (text === undefined || !text.trim()) return {};
  let v: unknown;
  try { v = JSON.parse(text); } catch {
    throw new MemoryError('E_INVALID_INPUT', `${file} is not valid JSON (comments or a trailing comma?); nothing was written. Fix it or remove it, then connect again.`, { file });
  }
  if (!isObject(v)) throw new MemoryError('E_INVALID_INPUT', `${file} does not hold a JSON object; nothing was written.`, { file });
  if (v.hooks !== undefined && !isObject(v.hooks)) throw new MemoryError('E_INVALID_INPUT', `${file}: "hooks" is not an object; nothing was written.`, { file });
  for (const [event, list] of Object.entries(isObject(v.hooks) ? v.hooks : {})) {
    if (!Array.isArray(list)) throw new MemoryError('E_INVALID_INPUT', `${file}: hooks.${event} is not a list; nothing was written.`, { file });
  }
  return v;
}

export interface MergeResult {
  readonly text: string;
  /** The entries added (entries already present are not added twice and not listed). */
  readonly written: readonly WrittenHook[];
}

/** Adds the entries to the configuration text (empty/undefined: a new file), keeping every other key and hook. */
export function mergeHooks(text: string | undefined, entries: readonly WrittenHook[], file: string): MergeResult {
  const config = parseConfig(text, file);
  const hooks = isObject(config.hooks) ? { ...config.hooks } : {};
  const written: WrittenHook[] = [];
  for (const w of entries) {
    const list = Array.isArray(hooks[w.event]) ? [...(hooks[w.event] as unknown[])] : [];
    if (list.some((e) => isDeepStrictEqual(e, w.entry))) continue;
    list.push(w.entry);
    hooks[w.event] = list;
    written.push(w);
  }
  return { text: `${JSON.stringify({ ...config, hooks }, null, 2)}\n`, written };
}

export interface UnmergeResult {
  /** The configuration without our entries; undefined when nothing else is left in it (delete the file). */
  readonly text: string | undefined;
  readonly removed: number;
}

/** Removes exactly the written entries (one occurrence each); empty event lists and an empty `hooks` go too. */
export function unmergeHooks(text: string | undefined, written: readonly WrittenHook[], file: string): UnmergeResult {
  if (text === undefined) return { text: undefined, removed: 0 };
  const config = parseConfig(text, file);
  const hooks = isObject(config.hooks) ? { ...config.hooks } : {};
  let removed = 0;
  for (const w of written) {
    const list = hooks[w.event];
    if (!Array.isArray(list)) continue;
    const at = list.findIndex((e) => isDeepStrictEqual(e, w.entry));
    if (at < 0) continue;
    const next = [...list];
    next.splice(at, 1);
    removed++;
    if (next.length) hooks[w.event] = next; else delete hooks[w.event];
  }
  return { text: withHooks(config, hooks), removed };
}

function withHooks(config: Record<string, unknown>, hooks: Record<string, unknown>): string | undefined {
  const rest: Record<string, unknown> = { ...config };
  if (Object.keys(hooks).length) rest.hooks = hooks; else delete rest.hooks;
  return Object.keys(rest).length ? `${JSON.stringify(rest, null, 2)}\n` : undefined;
}

const COMMAND_KEYS = ['command', 'bash', 'powershell', 'windows', 'linux', 'osx'];

/** Whether one hook (flat entry or an inner hook of Claude's group) runs Agent Memory's hook command. */
export function isOurHook(hook: unknown): boolean {
  return isObject(hook) && COMMAND_KEYS.some((k) => typeof hook[k] === 'string' && (hook[k] as string).includes(HOOK_COMMAND_MARK));
}

/**
 * Removes every hook of ours, whoever wrote it (the CLI keeps no record; install replaces earlier
 * ones of ours with this): flat entries that are ours go, Claude groups lose their hooks of ours
 * and go when nothing is left in them; emptied events and an emptied `hooks` go too.
 */
export function removeOurHooks(text: string | undefined, file: string): UnmergeResult {
  if (text === undefined) return { text: undefined, removed: 0 };
  const config = parseConfig(text, file);
  const hooks: Record<string, unknown> = {};
  let removed = 0;
  for (const [event, list] of Object.entries(isObject(config.hooks) ? config.hooks : {})) {
    const kept: unknown[] = [];
    for (const entry of list as unknown[]) {
      if (isOurHook(entry)) { removed++; continue; }
      if (isObject(entry) && Array.isArray(entry.hooks)) {
        const inner = entry.hooks.filter((h) => !isOurHook(h));
        removed += entry.hooks.length - inner.length;
        if (inner.length < entry.hooks.length && !inner.length) continue;
        kept.push(inner.length < entry.hooks.length ? { ...entry, hooks: inner } : entry);
      } else kept.push(entry);
    }
    if (kept.length) hooks[event] = kept;
  }
  return { text: withHooks(config, hooks), removed };
}

/** A hook configuration file's text; undefined when it does not exist. */
export function readHookConfig(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Replaces a hook configuration file at once (a temp file renamed over it), creating its folder. */
export function writeHookConfig(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.agent-memory-${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** `hook install`: our entries replace any earlier ones of ours in the file; returns what was added. */
export function installHooksInFile(path: string, entries: readonly WrittenHook[]): WrittenHook[] {
  const cleared = removeOurHooks(readHookConfig(path), path);
  const merged = mergeHooks(cleared.text, entries, path);
  writeHookConfig(path, merged.text);
  return [...merged.written];
}

/** `hook uninstall`: removes every entry of ours; returns how many went. Other content is kept (an emptied file becomes `{}`). */
export function uninstallHooksInFile(path: string): number {
  const text = readHookConfig(path);
  if (text === undefined) return 0;
  const r = removeOurHooks(text, path);
  if (r.removed) writeHookConfig(path, r.text ?? '{}\n');
  return r.removed;
}

import { isDeepStrictEqual } from 'node:util';
import { MemoryError } from '../errors';

/**
 * Writing Agent Memory's hooks into an agent's hook configuration without disturbing anything
 * else in it, and removing exactly what was written (docs/agents.md, "Connecting agents"). Two file
 * shapes, both read by VS Code (chat.hookFilesLocations):
 * - `vscode-hooks`: a hook file of its own (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`),
 *   `{"hooks": {"SessionStart": [{"type": "command", "command": …, "timeout": …}]}}`;
 * - `claude-settings`: Claude Code's settings (`~/.claude/settings.json`, `.claude/settings.local.json`),
 *   `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": …, "timeout": …}]}]}}`
 *   next to the user's other settings and hooks.
 * Pure text in, text out; the caller reads and writes the file and keeps the returned record.
 */

export type HookFileFormat = 'vscode-hooks' | 'claude-settings';
export type HookHarness = 'vscode' | 'claude-code';

/** One entry added to one event's list: what unmerge looks for (deep equality). */
export interface WrittenHook {
  readonly event: string;
  readonly entry: Record<string, unknown>;
}

/** The events Agent Memory hooks for a harness: inject at start and per prompt, capture at stop and before compaction. */
export const HOOK_EVENTS: Readonly<Record<HookHarness, readonly string[]>> = {
  vscode: ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact'],
  'claude-code': ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'SessionEnd'],
};

/** Seconds a hook may run before the agent gives up on it (the hook itself never blocks the agent). */
export const HOOK_TIMEOUT_SECONDS = 15;

/** Quotes one argument for the shell that runs hook commands (sh on POSIX, cmd/PowerShell on Windows). */
export function shellQuote(arg: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `"${arg.replace(/"/g, '""')}"`;
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The command a hook runs: `node <dist/cli.js> hook --harness H --store DIR` (the event comes in the payload). */
export function hookCommand(o: { readonly node: string; readonly cliJs: string; readonly store: string; readonly harness: HookHarness; readonly platform?: NodeJS.Platform }): string {
  const q = (a: string): string => shellQuote(a, o.platform);
  return [q(o.node), q(o.cliJs), 'hook', '--harness', o.harness, '--store', q(o.store)].join(' ');
}

/** The entries to add for a harness in a file format. */
export function hookEntries(format: HookFileFormat, harness: HookHarness, command: string): WrittenHook[] {
  const hook = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
  return HOOK_EVENTS[harness].map((event) => ({ event, entry: format === 'claude-settings' ? { hooks: [hook] } : hook }));
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
  const rest: Record<string, unknown> = { ...config };
  if (Object.keys(hooks).length) rest.hooks = hooks; else delete rest.hooks;
  return { text: Object.keys(rest).length ? `${JSON.stringify(rest, null, 2)}\n` : undefined, removed };
}

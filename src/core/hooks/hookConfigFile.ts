import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryError } from '../errors';

/**
 * Writing and removing our entries in a hook configuration file (docs/agents.md, "Connecting"),
 * leaving everything else in it as it was. Claude Code's settings.json (`hooks.<Event>[] =
 * {matcher?, hooks: [{type: "command", command, timeout}]}`, also read by VS Code) and the
 * `.github/hooks/*.json` files of VS Code and Copilot CLI (`{version: 1, hooks: {<event>: [{type,
 * command | bash | powershell, timeout | timeoutSec}]}}`) are both handled. Ours are recognised by
 * the command containing HOOK_COMMAND_MARK, so uninstall removes exactly what install wrote.
 */
export const HOOK_COMMAND_MARK = ' hook --harness ';
/** The events a connection subscribes to, per dialect. */
export const CLAUDE_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'SessionEnd'] as const;
/** Seconds a harness waits for one hook call. */
export const HOOK_TIMEOUT_SECONDS = 30;

const q = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`);

/** The command line a hook runs: node, the bundled CLI, `hook --harness H --store DIR`. */
export function hookCommandLine(nodePath: string, cliPath: string, harness: string, storeDir: string): string {
  return `${q(nodePath)} ${q(cliPath)}${HOOK_COMMAND_MARK}${harness} --store ${q(storeDir)}`;
}

type Json = Record<string, unknown>;

function readJson(path: string): Json {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  if (!text.trim()) return {};
  let v: unknown;
  try { v = JSON.parse(text); } catch { throw new MemoryError('E_INVALID_INPUT', `${path} is not valid JSON; it was left unchanged. Fix or remove it, then try again.`); }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new MemoryError('E_INVALID_INPUT', `${path} does not hold a JSON object; it was left unchanged.`);
  return v as Json;
}

function writeJson(path: string, v: Json): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.agent-memory-${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(v, null, 2) + '\n');
  renameSync(tmp, path);
}

const isOurs = (h: unknown): boolean => typeof h === 'object' && h !== null && ['command', 'bash', 'linux', 'osx'].some((k) => typeof (h as Json)[k] === 'string' && ((h as Json)[k] as string).includes(HOOK_COMMAND_MARK));

/** Removes our entries from a `hooks` object (both the flat and Claude's nested shape); drops emptied events. */
function withoutOurs(hooks: Json): Json {
  const out: Json = {};
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) { out[event] = list; continue; }
    const kept: unknown[] = [];
    for (const entry of list) {
      if (isOurs(entry)) continue;
      if (typeof entry === 'object' && entry !== null && Array.isArray((entry as Json).hooks)) {
        const inner = ((entry as Json).hooks as unknown[]).filter((h) => !isOurs(h));
        if (!inner.length) continue;
        kept.push({ ...(entry as Json), hooks: inner });
      } else kept.push(entry);
    }
    if (kept.length) out[event] = kept;
  }
  return out;
}

/** What install writes into a Claude Code settings file (shown to the user before and after). */
export function claudeHookEntries(command: string): Json {
  return Object.fromEntries(CLAUDE_EVENTS.map((e) => [e, [{ hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }] }]]));
}

/** Adds our hooks to a Claude Code settings file (replacing earlier ones of ours); returns what was added. */
export function installClaudeHooks(settingsPath: string, command: string): Json {
  const doc = readJson(settingsPath);
  const hooks = withoutOurs(typeof doc.hooks === 'object' && doc.hooks !== null && !Array.isArray(doc.hooks) ? doc.hooks as Json : {});
  const ours = claudeHookEntries(command);
  for (const [event, entries] of Object.entries(ours)) hooks[event] = [...(Array.isArray(hooks[event]) ? hooks[event] as unknown[] : []), ...(entries as unknown[])];
  writeJson(settingsPath, { ...doc, hooks });
  return ours;
}

/** Removes our hooks from a settings file; returns how many entries went. Other content is kept. */
export function uninstallHooks(settingsPath: string): number {
  if (!existsSync(settingsPath)) return 0;
  const doc = readJson(settingsPath);
  if (typeof doc.hooks !== 'object' || doc.hooks === null || Array.isArray(doc.hooks)) return 0;
  const before = JSON.stringify(doc.hooks).split(HOOK_COMMAND_MARK).length - 1;
  const hooks = withoutOurs(doc.hooks as Json);
  const after = JSON.stringify(hooks).split(HOOK_COMMAND_MARK).length - 1;
  const next: Json = { ...doc };
  if (Object.keys(hooks).length) next.hooks = hooks; else delete next.hooks;
  writeJson(settingsPath, next);
  return before - after;
}

/** A `.github/hooks/<name>.json` for VS Code / Copilot CLI naming our command for every event (docs/agents.md). */
export function githubHookFile(command: string, harness: 'vscode' | 'copilot'): Json {
  const events = harness === 'copilot' ? ['sessionStart', 'userPromptSubmitted', 'agentStop', 'sessionEnd'] : ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact'];
  const entry = harness === 'copilot' ? { type: 'command', bash: command, timeoutSec: HOOK_TIMEOUT_SECONDS } : { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
  return { version: 1, hooks: Object.fromEntries(events.map((e) => [e, [entry]])) };
}

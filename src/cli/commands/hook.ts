/**
 * `agent-memory hook [--event NAME] [--harness vscode|claude-code|copilot]`: one agent hook call
 * (docs/agents.md). Reads the harness's JSON on stdin, writes the harness's JSON on stdout when
 * there is context to add, and ALWAYS exits 0: a failure of ours (bad payload, missing transcript,
 * a busy store, a timeout) is written to `<store>/hooks.log` and the hook answers nothing, so the
 * agent is never blocked or broken by it.
 *
 * `agent-memory hook install|uninstall --harness claude-code [--project [DIR]]`: adds (or removes
 * exactly) our hooks in ~/.claude/settings.json, or DIR/.claude/settings.json with --project.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MemoryError, userMessage } from '../../core/errors';
import { hookCommand as hookCommandText, hookEntries, installHooksInFile, uninstallHooksInFile } from '../../core/hooks/hookConfigMerge';
import { parseHookEvent } from '../../core/hooks/hookEvent';
import type { HookEventName } from '../../core/hooks/hookEvent';
import { runHookEvent } from '../../core/hooks/hookHandlers';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { cliStoreDir, noCliLlm, openCliEngine } from '../openCliStore';
import type { CliCommand, CliIo } from '../run';
import { log } from '../hookLog';
import { runHookService, startService } from '../hookService';
import { askService, serviceEnabled } from '../hookServiceClient';
import { readStdin } from '../readStdin';

/** Longest one hook call may take before it gives up and answers nothing (below every harness's timeout). */
export const HOOK_DEADLINE_MS = 20_000;
/** Events that do something; the others answer nothing without opening the store (they cost only the process start). */
const HANDLED_EVENTS: ReadonlySet<HookEventName> = new Set(['SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd']);

/** Set when a call gave up at its deadline: the CLI then exits instead of waiting for the abandoned work. */
let timedOut = false;

/** Runs one hook call from `stdin`; never throws, always 0. Exposed for tests that pass the payload. */
export async function runHookCall(args: ParsedArgs, io: CliIo, stdin: string): Promise<number> {
  const storeDir = cliStoreDir(args);
  const started = Date.now();
  let label = 'hook';
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const event = parseHookEvent(stdin, { ...(stringFlag(args, 'event') ? { event: stringFlag(args, 'event') } : {}), ...(stringFlag(args, 'harness') ? { harness: stringFlag(args, 'harness') } : {}) });
    label = `${event.harness} ${event.event} session=${event.sessionId.slice(0, 80)}`;
    if (!HANDLED_EVENTS.has(event.event)) { log(storeDir, `${label}: ok, event not used`); return 0; }
    const quiet: CliIo = { stdout: () => undefined, stderr: (t) => log(storeDir, `${label}: ${t.trim()}`) };
    const work = (async () => {
      const engine = await openCliEngine(args, quiet, { llm: noCliLlm, settings: { 'models.intraOpThreads': 1 } });
      try { return await runHookEvent(engine, event); } finally { await engine.close(); }
    })();
    const deadline = new Promise<never>((_, rej) => { timer = setTimeout(() => (timedOut = true, rej(new MemoryError('E_TIMEOUT', `gave up after ${HOOK_DEADLINE_MS} ms (store busy?); nothing was answered`))), HOOK_DEADLINE_MS); });
    const result = await Promise.race([work, deadline]);
    if (result.output) io.stdout(JSON.stringify(result.output) + '\n');
    log(storeDir, `${label}: ok in ${Date.now() - started} ms: ${result.note}`);
  } catch (e) {
    log(storeDir, `${label}: ERROR ${userMessage(e)} (after ${Date.now() - started} ms; nothing answered)`);
  } finally {
    if (timer) clearTimeout(timer);
  }
  return 0;
}

function claudeSettingsPath(args: ParsedArgs): string {
  const project = args.flags.project;
  if (project === undefined) return join(process.env.HOME ?? homedir(), '.claude', 'settings.json');
  return join(resolve(typeof project === 'string' ? project : '.'), '.claude', 'settings.json');
}

function installCommand(args: ParsedArgs, io: CliIo, remove: boolean): number {
  const harness = stringFlag(args, 'harness');
  if (harness !== 'claude-code') throw new MemoryError('E_USAGE', `hook ${remove ? 'uninstall' : 'install'} needs --harness claude-code (VS Code and Copilot are connected from VS Code: Memory: Connect Agents…).`);
  const path = claudeSettingsPath(args);
  if (remove) {
    const n = uninstallHooksInFile(path);
    io.stdout(n ? `Removed ${n} Agent Memory hook(s) from ${path}.\n` : `No Agent Memory hooks in ${path}; nothing changed.\n`);
    return 0;
  }
  const cli = realpathSync(process.argv[1] ?? '');
  const command = hookCommandText({ node: process.execPath, cliJs: cli, harness: 'claude-code', store: cliStoreDir(args) });
  const added = installHooksInFile(path, hookEntries('claude-settings', 'claude-code', command));
  const shown: Record<string, unknown[]> = {};
  for (const w of added) (shown[w.event] ??= []).push(w.entry);
  io.stdout(`Added to ${path} (other settings and hooks kept):\n${JSON.stringify({ hooks: shown }, null, 2)}\nUndo with: agent-memory hook uninstall --harness claude-code${args.flags.project !== undefined ? ' --project' : ''}\n`);
  return 0;
}

export const hookCommand: CliCommand = async (args, io) => {
  const sub = args.positionals[0];
  if (sub === 'install' || sub === 'uninstall') return installCommand(args, io, sub === 'uninstall');
  if (sub !== undefined) throw new MemoryError('E_USAGE', `unknown hook subcommand '${sub}' (install, uninstall, or none to handle one event from stdin)`);
  // dist/cli.js may already have read stdin and asked the service (hookFastPath.ts)
  const handoff = io.hookHandoff;
  let stdin = handoff?.stdin ?? '';
  if (!handoff) {
    try { stdin = await readStdin(); } catch (e) { log(cliStoreDir(args), `hook: ERROR reading stdin: ${userMessage(e)}`); return 0; }
  }
  const storeDir = cliStoreDir(args);
  let startAfter = serviceEnabled() && handoff?.serviceAsked === true;
  if (serviceEnabled() && !startAfter) {
    const event = stringFlag(args, 'event');
    const harness = stringFlag(args, 'harness');
    const reply = await askService(storeDir, { stdin, ...(event ? { event } : {}), ...(harness ? { harness } : {}) });
    if (reply) {
      if (reply.stdout) io.stdout(reply.stdout);
      log(storeDir, reply.log);
      return 0;
    }
    startAfter = true;
  }
  const code = await runHookCall(args, io, stdin);
  // No service answered: start one for the next calls, after this call is answered in-process
  // and its engine closed, so that its warm-up does not compete with this answer for the CPU.
  if (startAfter) {
    try { startService(realpathSync(process.argv[1] ?? ''), storeDir); } catch { /* the next call tries again */ }
  }
  // the abandoned work (a wait on a busy store) must not keep the agent waiting for this process
  if (timedOut) setTimeout(() => process.exit(0), 50).unref();
  return code;
};

/** `--project` with no value (end of line or another flag next) means the current folder. */
export function normaliseHookArgv(argv: readonly string[]): string[] {
  if (!argv.includes('hook')) return [...argv];
  return argv.map((a, i) => (a === '--project' && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('--')) ? '--project=.' : a));
}

/** `agent-memory hook-service --store DIR`: the per-store hook service (hookService.ts); started by hook calls. */
export const hookServiceCommand: CliCommand = async (args) => {
  const storeDir = cliStoreDir(args);
  try { return await runHookService(args, (l) => log(storeDir, l)); } catch (e) { log(storeDir, `hook-service: ERROR ${userMessage(e)}`); return 0; }
};

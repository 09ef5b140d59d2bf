/**
 * `agent-memory mcp install --client claude-code|cursor|codex|vscode [--write] [--file PATH]`:
 * prints the client's configuration for `agent-memory mcp`, or merges it into the client's file
 * (other servers and settings are kept; an existing `agent-memory` entry is replaced). Locations
 * and formats: docs/mcp.md, "Setup per client".
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { MemoryError } from '../../core/errors';
import { stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { CliIo } from '../run';

export const MCP_CLIENTS = ['claude-code', 'cursor', 'codex', 'vscode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];
const SERVER_KEY = 'agent-memory';

export interface ServerLaunch { readonly command: string; readonly args: readonly string[] }

/** How a client starts this CLI: node + the absolute path of dist/cli.js when run from it, else the `agent-memory` bin. */
export function serverLaunch(storeDir: string | undefined, cliPath = process.argv[1]): ServerLaunch {
  const store = storeDir ? ['--store', resolve(storeDir)] : [];
  if (cliPath && basename(cliPath) === 'cli.js') return { command: process.execPath, args: [resolve(cliPath), ...store, 'mcp'] };
  return { command: 'agent-memory', args: [...store, 'mcp'] };
}

/** The file each client reads (project-level for Claude Code and VS Code, user-level for Cursor and Codex). */
export function defaultConfigFile(client: McpClient, cwd = process.cwd(), home = homedir()): string {
  switch (client) {
    case 'claude-code': return join(cwd, '.mcp.json');
    case 'vscode': return join(cwd, '.vscode', 'mcp.json');
    case 'cursor': return join(home, '.cursor', 'mcp.json');
    case 'codex': return join(home, '.codex', 'config.toml');
  }
}

const tomlString = (s: string): string => JSON.stringify(s);

/** The snippet as the client's file holds it. */
export function configSnippet(client: McpClient, launch: ServerLaunch): string {
  const entry = { command: launch.command, args: [...launch.args] };
  if (client === 'codex') return `[mcp_servers.${SERVER_KEY}]\ncommand = ${tomlString(entry.command)}\nargs = [${entry.args.map(tomlString).join(', ')}]\n`;
  if (client === 'vscode') return JSON.stringify({ servers: { [SERVER_KEY]: { type: 'stdio', ...entry } } }, null, 2) + '\n';
  return JSON.stringify({ mcpServers: { [SERVER_KEY]: { type: 'stdio', ...entry } } }, null, 2) + '\n';
}

function mergeJson(existing: string, client: McpClient, launch: ServerLaunch, file: string): string {
  let doc: Record<string, unknown> = {};
  if (existing.trim()) {
    try { doc = JSON.parse(existing) as Record<string, unknown>; } catch { throw new MemoryError('E_INVALID_INPUT', `${file} is not valid JSON (comments are not supported); fix it or merge the printed snippet by hand.`); }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new MemoryError('E_INVALID_INPUT', `${file} does not hold a JSON object.`);
  }
  const key = client === 'vscode' ? 'servers' : 'mcpServers';
  const servers = (typeof doc[key] === 'object' && doc[key] !== null && !Array.isArray(doc[key]) ? doc[key] : {}) as Record<string, unknown>;
  const entry = client === 'vscode' ? { type: 'stdio', command: launch.command, args: [...launch.args] } : { type: 'stdio', command: launch.command, args: [...launch.args] };
  return JSON.stringify({ ...doc, [key]: { ...servers, [SERVER_KEY]: entry } }, null, 2) + '\n';
}

/** Replaces the [mcp_servers.agent-memory] table (up to the next table header) or appends it. */
function mergeToml(existing: string, launch: ServerLaunch): string {
  const section = configSnippet('codex', launch);
  const lines = existing.split('\n');
  const start = lines.findIndex((l) => l.trim() === `[mcp_servers.${SERVER_KEY}]` || l.trim() === `[mcp_servers."${SERVER_KEY}"]`);
  if (start < 0) return (existing.trim() ? existing.replace(/\n*$/, '\n\n') : '') + section;
  let end = start + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end] ?? '')) end++;
  return [...lines.slice(0, start), ...section.trimEnd().split('\n'), '', ...lines.slice(end)].join('\n').replace(/\n{3,}/g, '\n\n');
}

/** The merged file content (pure: the command writes it). */
export function mergedConfig(client: McpClient, existing: string, launch: ServerLaunch, file: string): string {
  return client === 'codex' ? mergeToml(existing, launch) : mergeJson(existing, client, launch, file);
}

export async function mcpInstallCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const client = stringFlag(args, 'client');
  if (!client || !(MCP_CLIENTS as readonly string[]).includes(client)) throw new MemoryError('E_USAGE', `mcp install needs --client ${MCP_CLIENTS.join('|')}`);
  const c = client as McpClient;
  const launch = serverLaunch(stringFlag(args, 'store'));
  if (args.flags.write !== true) {
    io.stdout(configSnippet(c, launch));
    io.stderr(`agent-memory: add this to ${defaultConfigFile(c)} (or run again with --write to merge it there)\n`);
    return 0;
  }
  const file = resolve(stringFlag(args, 'file') ?? defaultConfigFile(c));
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const merged = mergedConfig(c, existing, launch, file);
  mkdirSync(dirname(file), { recursive: true });
  // Write beside, then rename: an interrupted write never leaves the client's file half written.
  const tmp = `${file}.agent-memory-${process.pid}.tmp`;
  writeFileSync(tmp, merged);
  renameSync(tmp, file);
  io.stdout(`${existing ? 'updated' : 'created'} ${file}: ${SERVER_KEY} runs \`${[launch.command, ...launch.args].join(' ')}\`\n`);
  return 0;
}

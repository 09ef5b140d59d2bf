/**
 * Starts MCP servers over stdio for the tests: `agent-memory mcp` from the built dist/cli.js, and
 * the reference memory server (@modelcontextprotocol/server-memory), each driven by the official
 * SDK client.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const ROOT = join(__dirname, '..', '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
export const REFERENCE_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

export function requireBuiltCli(): void {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first (the MCP tests run the built CLI, as clients do).');
}

export interface Connected {
  readonly client: Client;
  readonly stderr: string[];
  close(): Promise<void>;
}

async function connect(command: string, args: string[], env: Record<string, string> = {}): Promise<Connected> {
  const transport = new StdioClientTransport({ command, args, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' });
  const stderr: string[] = [];
  transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
  const client = new Client({ name: 'agent-memory-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return { client, stderr, close: () => client.close() };
}

/** `agent-memory --store DIR [--set K=V]... mcp` */
export function connectAgentMemory(store: string, sets: readonly string[] = []): Promise<Connected> {
  requireBuiltCli();
  return connect(process.execPath, [CLI, '--store', store, ...sets.flatMap((s) => ['--set', s]), 'mcp']);
}

/** The reference server on its own memory file. */
export function connectReference(memoryFile: string): Promise<Connected> {
  return connect(process.execPath, [REFERENCE_SERVER], { MEMORY_FILE_PATH: memoryFile });
}

export async function call(c: Connected, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return await c.client.callTool({ name, arguments: args }) as CallToolResult;
}

export function textOf(r: CallToolResult): string {
  return r.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

export interface Graph { entities: { name: string; entityType: string; observations: string[] }[]; relations: { from: string; to: string; relationType: string }[] }

export function graphOf(r: CallToolResult): Graph {
  return r.structuredContent as unknown as Graph;
}

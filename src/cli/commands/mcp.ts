/**
 * `agent-memory mcp`: Agent Memory as an MCP server over stdio (docs/mcp.md), on the same engine,
 * store, settings (--store, --set, config.json) and lock rules as every command. stdout carries
 * protocol messages only: the engine logs, and anything a library prints, go to stderr.
 * `agent-memory mcp install --client claude-code|cursor|codex|vscode [--write]`: the client's
 * configuration snippet (mcpInstall.ts).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MemoryError } from '../../core/errors';
import { createMemoryMcpServer } from '../../core/mcp/mcpServer';
import type { CliEngineOptions } from '../openCliStore';
import { openCliEngine } from '../openCliStore';
import type { ParsedArgs } from '../args';
import type { CliCommand, CliIo } from '../run';
import { mcpInstallCommand } from './mcpInstall';
import { checkedStdin } from '../mcpStdin';

export const CLI_VERSION = '0.1.0';

/** Library output that would corrupt the protocol stream goes to stderr instead. */
function keepStdoutForProtocol(io: CliIo): void {
  const toErr = (...a: unknown[]): void => { io.stderr(a.map(String).join(' ') + '\n'); };
  console.log = toErr; console.info = toErr; console.debug = toErr;
}

async function serve(args: ParsedArgs, io: CliIo, options: CliEngineOptions): Promise<number> {
  keepStdoutForProtocol(io);
  const engine = await openCliEngine(args, io, options);
  const mcp = createMemoryMcpServer(engine, {
    version: CLI_VERSION, readOnly: engine.currentSettings.mcpReadOnly,
    logger: { warn: (m: string) => io.stderr(`agent-memory mcp: ${m}\n`) },
  });
  const stdin = process.stdin.pipe(checkedStdin((line) => process.stdout.write(line)));
  const transport = new StdioServerTransport(stdin as unknown as typeof process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    stdin.once('end', () => resolve());
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await mcp.server.connect(transport);
  io.stderr(`agent-memory mcp: serving ${engine.store.dir}${engine.currentSettings.mcpReadOnly ? ' (read-only)' : ''} on stdio\n`);
  try {
    await closed;
  } finally {
    mcp.dispose();
    await mcp.server.close().catch(() => undefined);
    await engine.close();
  }
  return 0;
}

export function makeMcpCommand(options: CliEngineOptions = {}): CliCommand {
  return async (args, io) => {
    const [sub, ...rest] = args.positionals;
    if (sub === undefined) return serve(args, io, options);
    if (sub === 'install') return mcpInstallCommand({ ...args, positionals: rest }, io);
    throw new MemoryError('E_USAGE', `unknown mcp subcommand '${sub}'; use \`agent-memory mcp\` or \`agent-memory mcp install --client claude-code|cursor|codex|vscode\``);
  };
}

export const mcpCommand: CliCommand = makeMcpCommand();

/**
 * The serving half of `agent-memory mcp` (commands/mcp.ts): the MCP SDK's stdio transport on an
 * engine opened like every command's. Kept apart so that only `mcp` loads the SDK (esbuild.mjs).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMemoryMcpServer } from '../core/mcp/mcpServer';
import type { CliEngineOptions } from './openCliStore';
import { openCliEngine } from './openCliStore';
import type { ParsedArgs } from './args';
import type { CliIo } from './run';
import { checkedStdin } from './mcpStdin';

export const CLI_VERSION = '0.1.0';

/** Library output that would corrupt the protocol stream goes to stderr instead. */
function keepStdoutForProtocol(io: CliIo): void {
  const toErr = (...a: unknown[]): void => { io.stderr(a.map(String).join(' ') + '\n'); };
  console.log = toErr; console.info = toErr; console.debug = toErr;
}

export async function serveMcp(args: ParsedArgs, io: CliIo, options: CliEngineOptions): Promise<number> {
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


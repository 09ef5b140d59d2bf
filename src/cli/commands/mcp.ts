/**
 * `agent-memory mcp`: Agent Memory as an MCP server over stdio (docs/mcp.md), on the same engine,
 * store, settings (--store, --set, config.json) and lock rules as every command. stdout carries
 * protocol messages only: the engine logs, and anything a library prints, go to stderr.
 * `agent-memory mcp install --client claude-code|cursor|codex|vscode [--write]`: the client's
 * configuration snippet (mcpInstall.ts).
 *
 * The server itself (the MCP SDK and zod, about 1.6 MB of JavaScript) lives in mcpServe.ts, loaded
 * only when `mcp` serves: the production build gives it a bundle of its own (dist/mcpServe.js,
 * esbuild.mjs), so every other command — the agent hooks above all — starts without parsing it.
 */
import { MemoryError } from '../../core/errors';
import type { CliEngineOptions } from '../openCliStore';
import type { CliCommand } from '../run';
import { mcpInstallCommand } from './mcpInstall';

export function makeMcpCommand(options: CliEngineOptions = {}): CliCommand {
  return async (args, io) => {
    const [sub, ...rest] = args.positionals;
    if (sub === undefined) return (await import('../mcpServe.js')).serveMcp(args, io, options);
    if (sub === 'install') return mcpInstallCommand({ ...args, positionals: rest }, io);
    throw new MemoryError('E_USAGE', `unknown mcp subcommand '${sub}'; use \`agent-memory mcp\` or \`agent-memory mcp install --client claude-code|cursor|codex|vscode\``);
  };
}

export const mcpCommand: CliCommand = makeMcpCommand();

import { MemoryError, userMessage } from '../core/errors';
import { checkFlags, parseArgs } from './args';
import type { ParsedArgs } from './args';
import { rememberCommand } from './commands/remember';
import { getCommand } from './commands/get';
import { statsCommand } from './commands/stats';
import { recallCommand } from './commands/recall';
import { embedCommand } from './commands/embed';
import { sessionCommand } from './commands/session';
import { pinCommand } from './commands/pin';
import { unpinCommand } from './commands/unpin';
import { pinnedCommand } from './commands/pinned';
import { healthCommand } from './commands/health';
import { maintainCommand } from './commands/maintain';
import { ingestCommand } from './commands/ingest';
import { entitiesCommand } from './commands/entities';
import { graphCommand } from './commands/graph';
import { forgetCommand } from './commands/forget';
import { fetchCommand } from './commands/fetch';
import { importCommand } from './commands/import';
import { exportCommand } from './commands/export';
import { storeCommand } from './commands/store';
import { teamCommand } from './commands/team';
import { extractCommand } from './commands/extract';
import { configCommand } from './commands/config';
import { hookCommand, hookServiceCommand, normaliseHookArgv } from './commands/hook';
import { mcpCommand } from './commands/mcp';
import type { HookHandoff } from './hookFastPath';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** A hook call whose stdin dist/cli.js already read (hookFastPath.ts); only `hook` reads it. */
  readonly hookHandoff?: HookHandoff;
}

/** A CLI command: returns the exit code (0 ok, 1 error, 2 usage). */
export type CliCommand = (args: ParsedArgs, io: CliIo) => Promise<number>;

const USAGE = `usage: agent-memory [--store DIR] [--workspace DIR] [--set KEY=VALUE]... <command> [options]

  --workspace DIR      the folder's dependency, file and folder names help extraction name entities

commands:
  help                 show this help
  version              print the version
  remember [--type T] [--source-id ID] [--session S] [--project P] [--created-at ISO] [--no-wait] TEXT
                       store a memory; prints its id once embedded and extracted (--no-wait: once durable)
  get ID [--json]      show one memory
  stats [--json]       counts and store facts
  recall [--limit K] [--json] [--explain] [--all] [--session S] [--project P] [--only lexical|vector] QUERY | --stdin
                       hybrid recall; --stdin reads one JSON request a line
  embed [--json] [--model M] [--models DIR] TEXT...
                       one vector per text from the configured embedding model
  session start [--session KEY] [--project P] [--query TEXT] [--json] | turn KEY [--role R] TEXT | end KEY [--json]
                       session lifecycle: injection at start, transcript turns, feedback at end
  pin NAME / unpin NAME [--json]   pin or unpin an entity (always focal when pinned)
  pinned [--json]      pinned entities, newest first
  health [--since ISO] [--min N] [--json]   per-entity ranker health and feedback stats
  maintain [TASK...] [--json]   run maintenance tasks (all when none named), one report
  ingest FILE.jsonl [--no-wait] [--llm-url URL --llm-model M]   bulk remember; waits until embedded and extracted
  entities [--json] [--limit N]   knowledge-graph entities, pinned first
  graph NAME [--json]  an entity's aspects, attributes (with status) and relations
  forget ID [--json]   hard delete a memory with its vectors, hints and graph traces; purges it from every store file
  fetch URL [--allow-private] [--project P] [--no-wait] [--json]   fetch a document and remember it
  import FILE [--format vscode|claude|jsonl] [--project P] [--no-wait] [--json]   import another agent's transcript
  export [--format jsonl|markdown] [--out FILE] [--project P]   live memories as ingest JSONL or Markdown
  store check [--json] | store recover [--json]
                       check the store files read-only / repair, set damaged files aside, say what was lost
  team init URL | connect URL | status | sync [--full] | share (--project P | ID) | unshare (--project P | ID) | disconnect
                       team memory through PostgreSQL (password from PGPASSWORD or ~/.pgpass; docs/team.md)
  team search QUERY [--project P] [--limit K] [--only lexical] [--json]
                       hybrid search on the team server (tsvector + pgvector when the server has it)
  extract [--json] [--who NAME] TEXT | --stdin   entities, relations and facts of a text, as ingest extracts them;
                       --stdin reads one JSON {"text", "who"?} a line and writes one JSON result a line
  mcp                  serve Agent Memory to MCP clients over stdio (tools, resources, the session-start prompt; docs/mcp.md)
  mcp install --client claude-code|cursor|codex|vscode [--write] [--file PATH]
                       print (or merge into the client's file) the configuration that starts \`agent-memory mcp\`
  config list [--json] | get KEY [--json] | set KEY VALUE | unset KEY
                       the settings every command runs on (the VS Code agentMemory.* keys), with where each
                       value comes from: --set KEY=VALUE > AGENT_MEMORY_<KEY> > <store>/config.json > default
  hook [--event NAME] [--harness vscode|claude-code|copilot]
                       one agent hook call: the harness's JSON on stdin, context JSON on stdout; always exits 0
                       (errors go to <store>/hooks.log); docs/agents.md
  hook install|uninstall --harness claude-code [--project [DIR]]
                       add or remove exactly our hooks in ~/.claude/settings.json (or DIR/.claude/settings.json)
  hook-service         the per-store hook service hook calls start on demand (exits when idle; docs/agents.md)
`;

/** Commands register here; each issue adds its own module and one line. */
const commands: Record<string, CliCommand> = {
  help: async (_a, io) => { io.stdout(USAGE); return 0; },
  version: async (_a, io) => { io.stdout('0.1.0\n'); return 0; },
  remember: rememberCommand,
  get: getCommand,
  stats: statsCommand,
  recall: recallCommand,
  embed: embedCommand,
  session: sessionCommand,
  pin: pinCommand,
  unpin: unpinCommand,
  pinned: pinnedCommand,
  health: healthCommand,
  maintain: maintainCommand,
  ingest: ingestCommand,
  entities: entitiesCommand,
  graph: graphCommand,
  forget: forgetCommand,
  fetch: fetchCommand,
  import: importCommand,
  export: exportCommand,
  store: storeCommand,
  team: teamCommand,
  extract: extractCommand,
  config: configCommand,
  hook: hookCommand,
  'hook-service': hookServiceCommand,
  mcp: mcpCommand,
};

/** The flags each command takes; anything else is a usage error (exit 2). */
const LLM = ['llm-url', 'llm-model'];
const COMMAND_FLAGS: Record<string, readonly string[]> = {
  help: [], version: [],
  remember: ['type', 'source-id', 'session', 'project', 'created-at', 'no-wait'],
  get: ['json'], stats: ['json'],
  recall: ['limit', 'json', 'explain', 'all', 'session', 'project', 'only', 'stdin'],
  embed: ['json', 'model', 'models', 'cache'],
  session: ['session', 'project', 'query', 'json', 'role', 'harness'],
  pin: ['json', 'agent'], unpin: ['json', 'agent'], pinned: ['json', 'agent'],
  health: ['since', 'min', 'json', 'agent'],
  maintain: ['json'],
  ingest: ['no-wait', ...LLM],
  entities: ['json', 'limit'], graph: ['json'], forget: ['json'],
  fetch: ['allow-private', 'project', 'no-wait', 'json', ...LLM],
  import: ['format', 'project', 'no-wait', 'json', ...LLM],
  export: ['format', 'out', 'project'],
  store: ['json'],
  team: ['json', 'project', 'model', 'limit', 'only', 'full'],
  extract: ['json', 'stdin', 'who'],
  config: ['json'],
  hook: ['event', 'harness', 'project'],
  'hook-service': [],
  mcp: ['client', 'write', 'file'],
};

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parseArgs(normaliseHookArgv(argv));
  } catch (e) {
    io.stderr(`agent-memory: ${userMessage(e)}\n${USAGE}`);
    return 2;
  }
  const name = args.positionals[0];
  if (!name) { io.stderr(USAGE); return 2; }
  const command = commands[name];
  if (!command) { io.stderr(`agent-memory: unknown command '${name}'\n${USAGE}`); return 2; }
  try {
    checkFlags(args, name, COMMAND_FLAGS[name] ?? []);
    return await command({ ...args, positionals: args.positionals.slice(1) }, io);
  } catch (e) {
    io.stderr(`agent-memory: ${userMessage(e)}\n`);
    return e instanceof MemoryError && e.code === 'E_USAGE' ? 2 : 1;
  }
}

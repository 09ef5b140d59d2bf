/**
 * Agent Memory as an MCP server (docs/mcp.md): the official SDK's McpServer over one engine, with
 * our tools, the reference memory server's nine tools (same names and argument shapes,
 * referenceGraph.ts), resources (pinned entities, recent memories, one per pinned entity) with
 * subscriptions and list-changed notifications, and the `session-start` prompt. Transport-free:
 * the CLI connects it to stdio (src/cli/commands/mcp.ts), tests to whatever they like.
 * Cancellation: a cancelled call stops before its write (the SDK aborts `extra.signal`); progress:
 * a call that carries a progressToken gets notifications while its memories are embedded and
 * extracted.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MemoryError, userMessage } from '../errors';
import type { Logger } from '../logger';
import { formatInjection } from '../sessions/sessionStart';
import { MCP_MAX_REMEMBER_CHARS, MCP_MAX_RESULTS, MCP_SETTLE_MS, entityNamesStarting, mcpEntity, mcpForget, mcpPinned, mcpRecall, mcpRemember, mcpSetPinned, recentMemories } from './memoryTools';
import {
  REF_LIMITS, addObservations, createEntities, createRelations, deleteEntities, deleteObservations, deleteRelations, openNodes, readGraph, searchNodes,
} from './referenceGraph';
import type { McpEngine, RefGraph } from './referenceGraph';

export interface MemoryMcpOptions {
  readonly version: string;
  /** agentMemory.mcp.readOnly: only the reading tools are offered. */
  readonly readOnly: boolean;
  readonly logger: Pick<Logger, 'warn'>;
  /** How long a write waits for embedding and extraction (default MCP_SETTLE_MS). */
  readonly settleMs?: number;
}

export const MCP_SERVER_NAME = 'agent-memory';
export const RESOURCE_PINNED = 'memory://pinned';
export const RESOURCE_RECENT = 'memory://recent';
export const ENTITY_RESOURCE_TEMPLATE = 'memory://entity/{name}';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const NAME = z.string().min(1).max(500);
const OBSERVATION = z.string().max(2000);
const MANY = REF_LIMITS.items;
const EntitySchema = z.object({
  name: NAME.describe('The name of the entity'),
  entityType: z.string().max(REF_LIMITS.entityTypeChars).describe('The type of the entity'),
  observations: z.array(OBSERVATION).max(REF_LIMITS.observationsPerEntity).describe('An array of observation contents associated with the entity'),
});
const RelationSchema = z.object({
  from: NAME.describe('The name of the entity where the relation starts'),
  to: NAME.describe('The name of the entity where the relation ends'),
  relationType: z.string().max(200).describe('The type of the relation'),
});
const GraphOutput = {
  entities: z.array(EntitySchema),
  relations: z.array(RelationSchema),
  truncated: z.object({ entities: z.number(), relations: z.number(), note: z.string() }).optional(),
};
const MessageOutput = { success: z.boolean(), message: z.string() };

const json = (v: unknown): string => JSON.stringify(v, null, 2);
const text = (t: string, structured?: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text: t }], ...(structured ? { structuredContent: structured } : {}) });
const graphResult = (g: RefGraph): CallToolResult => text(json(g), { ...g });

export interface MemoryMcpServer {
  readonly server: McpServer;
  dispose(): void;
}

export function createMemoryMcpServer(engine: McpEngine, options: MemoryMcpOptions): MemoryMcpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'Agent Memory', version: options.version },
    {
      capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: false }, prompts: { listChanged: false }, logging: {} },
      instructions: 'Agent Memory: a persistent local memory with hybrid recall. Call memory_recall (or search_nodes) before answering questions about past work; store durable facts with memory_remember or add_observations.',
    },
  );
  const log = options.logger;
  const settleMs = options.settleMs ?? MCP_SETTLE_MS;
  // One settle at a time: the on-demand engine runs its job worker inside settle().
  let settling: Promise<unknown> = Promise.resolve();

  const progress = async (extra: Extra, step: number, total: number, message: string): Promise<void> => {
    const token = extra._meta?.progressToken;
    if (token === undefined) return;
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, total, message } }).catch(() => undefined);
  };

  /** Waits (bounded) until new memories are embedded and extracted, so recall finds them by meaning right away. */
  const waitForJobs = (extra: Extra) => async (): Promise<boolean> => {
    await progress(extra, 1, 2, 'stored; embedding and extracting');
    const run = settling.then(() => engine.settle({ maxWaitMs: settleMs }));
    settling = run.catch(() => undefined);
    const aborted = new Promise<false>((resolve) => extra.signal.addEventListener('abort', () => resolve(false), { once: true }));
    const done = await Promise.race([run.then(() => true, (e: unknown) => { log.warn(`mcp: background jobs not finished: ${userMessage(e)}`); return false; }), aborted]);
    await progress(extra, 2, 2, done ? 'done' : 'stored; processing continues in the background');
    return done;
  };

  /** Runs a tool body: stops if the call was cancelled before it writes, turns errors into a tool error without a stack or secret. */
  const guard = (tool: string, writes: boolean, fn: (extra: Extra) => Promise<CallToolResult>) => async (extra: Extra): Promise<CallToolResult> => {
    try {
      if (extra.signal.aborted) throw new MemoryError('E_CANCELLED', 'The call was cancelled.');
      const r = await fn(extra);
      if (writes) changed();
      return r;
    } catch (e) {
      log.warn(`mcp ${tool}: ${userMessage(e)}`);
      return { isError: true, content: [{ type: 'text', text: userMessage(e) }] };
    }
  };

  const readHint = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
  const writeHint = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
  const deleteHint = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;

  // ── Our tools ────────────────────────────────────────────────────────────────────────────────
  server.registerTool('memory_recall', {
    title: 'Recall memories',
    description: 'Search Agent Memory by meaning and keywords (hybrid recall). Returns the best memories with their date, whether they are still current (or superseded, with the replacement) and a short why. Use before answering questions about past decisions, preferences, people or projects.',
    inputSchema: {
      query: z.string().min(1).max(2048).describe('What to recall, in natural language'),
      limit: z.number().int().min(1).max(MCP_MAX_RESULTS).optional().describe(`How many memories (1-${MCP_MAX_RESULTS}, default 8)`),
      project: z.string().max(200).optional().describe('Only memories of this project'),
    },
    annotations: readHint,
  }, (args, extra) => guard('memory_recall', false, async () => {
    const hits = await mcpRecall(engine, args);
    const lines = hits.map((h, i) => `${i + 1}. [${h.createdAt.slice(0, 10)}] ${h.content}${h.currentness.status !== 'current' ? `\n   (${h.currentness.status}${h.currentness.replacement ? `; now: ${h.currentness.replacement}` : ''})` : ''}\n   id ${h.id}; ${h.why}`);
    return text(hits.length ? lines.join('\n') : `No memories match "${args.query}".`, { results: hits });
  })(extra));

  server.registerTool('memory_entity', {
    title: 'Show an entity',
    description: 'One entity of the knowledge graph by name: its type, aspects with attributes (current or superseded), relations in both directions and its most recent memories.',
    inputSchema: { name: NAME.describe('Entity name, e.g. "sqlite"') },
    annotations: readHint,
  }, (args, extra) => guard('memory_entity', false, async () => {
    const e = mcpEntity(engine, args.name);
    return text(json(e), { ...e });
  })(extra));

  // ── The reference server's reading tools ─────────────────────────────────────────────────────
  server.registerTool('read_graph', {
    title: 'Read Graph',
    description: `Read the knowledge graph. Bounded: at most ${REF_LIMITS.readGraphEntities} entities (pinned first, then the most mentioned) with up to ${REF_LIMITS.observationsShown} observations each; a "truncated" field says what was left out. Prefer search_nodes.`,
    inputSchema: {}, outputSchema: GraphOutput, annotations: readHint,
  }, (_args, extra) => guard('read_graph', false, async () => graphResult(readGraph(engine)))(extra));

  server.registerTool('search_nodes', {
    title: 'Search Nodes',
    description: 'Search for nodes in the knowledge graph based on a query: entities whose name, type or observations contain the query, then those linked to the memories hybrid recall finds by meaning.',
    inputSchema: { query: z.string().max(2048).describe('The search query to match against entity names, types, and observation content') },
    outputSchema: GraphOutput, annotations: readHint,
  }, (args, extra) => guard('search_nodes', false, async () => graphResult(await searchNodes(engine, args.query)))(extra));

  server.registerTool('open_nodes', {
    title: 'Open Nodes',
    description: 'Open specific nodes in the knowledge graph by their names',
    inputSchema: { names: z.array(z.string().max(500)).max(MANY).describe('An array of entity names to retrieve') },
    outputSchema: GraphOutput, annotations: readHint,
  }, (args, extra) => guard('open_nodes', false, async () => graphResult(openNodes(engine, args.names)))(extra));

  if (!options.readOnly) registerWriteTools();

  function registerWriteTools(): void {
    server.registerTool('memory_remember', {
      title: 'Remember',
      description: 'Store a memory (a decision, preference, fact or procedure) in Agent Memory. Secrets are redacted before anything is stored. Returns the memory id and the entities and facts extracted from it.',
      inputSchema: {
        content: z.string().min(1).max(MCP_MAX_REMEMBER_CHARS).describe('The text to remember, self-contained (name the subject)'),
        type: z.enum(['fact', 'preference', 'decision', 'rationale', 'procedural', 'semantic']).optional().describe('Kind of memory (default fact)'),
        project: z.string().max(200).optional().describe('Project the memory belongs to'),
      },
      annotations: writeHint,
    }, (args, extra) => guard('memory_remember', true, async (x) => {
      const r = await mcpRemember(engine, args, waitForJobs(x));
      const head = r.duplicate ? `Already remembered as ${r.id}; nothing added.` : `Remembered as ${r.id}.`;
      const red = r.redacted.length ? ` Redacted before storing: ${r.redacted.join(', ')}.` : '';
      return text(`${head}${red}\n${json({ entities: r.entities, facts: r.facts, processed: r.processed })}`, { ...r });
    })(extra));

    server.registerTool('memory_forget', {
      title: 'Forget a memory',
      description: 'Permanently delete one memory by id (from memory_recall), with its vectors and graph traces; it is purged from the store files.',
      inputSchema: { id: z.string().min(1).max(100).describe('The memory id') },
      annotations: deleteHint,
    }, (args, extra) => guard('memory_forget', true, async () => {
      const r = await mcpForget(engine, args.id);
      return text(`Forgot ${r.id}.`, { ...r });
    })(extra));

    for (const pinned of [true, false]) {
      const tool = pinned ? 'memory_pin' : 'memory_unpin';
      server.registerTool(tool, {
        title: pinned ? 'Pin an entity' : 'Unpin an entity',
        description: pinned ? 'Pin an entity so it is always focal: its memories come first at session start and in recall.' : 'Unpin an entity: it is no longer always focal at session start and in recall.',
        inputSchema: { entity: NAME.describe('Entity name or id') },
        annotations: { ...writeHint, idempotentHint: true },
      }, (args, extra) => guard(tool, true, async () => {
        const r = await mcpSetPinned(engine, args.entity, pinned);
        if (r.changed) server.sendResourceListChanged();
        return text(r.changed ? `${pinned ? 'Pinned' : 'Unpinned'} ${r.name}.` : `${r.name} was already ${pinned ? 'pinned' : 'unpinned'}.`, { ...r });
      })(extra));
    }

    server.registerTool('create_entities', {
      title: 'Create Entities',
      description: 'Create multiple new entities in the knowledge graph (each observation is stored as a memory linked to its entity; existing names are skipped)',
      inputSchema: { entities: z.array(EntitySchema).max(MANY) },
      outputSchema: { entities: z.array(EntitySchema) },
      annotations: writeHint,
    }, (args, extra) => guard('create_entities', true, async (x) => {
      const r = await createEntities(engine, args.entities);
      if (r.some((e) => e.observations.length)) await waitForJobs(x)();
      return text(json(r), { entities: r });
    })(extra));

    server.registerTool('create_relations', {
      title: 'Create Relations',
      description: 'Create multiple new relations between entities in the knowledge graph. Relations should be in active voice',
      inputSchema: { relations: z.array(RelationSchema).max(MANY) },
      outputSchema: { relations: z.array(RelationSchema) },
      annotations: writeHint,
    }, (args, extra) => guard('create_relations', true, async () => {
      const r = await createRelations(engine, args.relations);
      return text(json(r), { relations: r });
    })(extra));

    server.registerTool('add_observations', {
      title: 'Add Observations',
      description: 'Add new observations to existing entities in the knowledge graph',
      inputSchema: {
        observations: z.array(z.object({
          entityName: NAME.describe('The name of the entity to add the observations to'),
          contents: z.array(OBSERVATION).max(REF_LIMITS.observationsPerEntity).describe('An array of observation contents to add'),
        })).max(MANY),
      },
      outputSchema: { results: z.array(z.object({ entityName: z.string(), addedObservations: z.array(z.string()) })) },
      annotations: writeHint,
    }, (args, extra) => guard('add_observations', true, async (x) => {
      const r = await addObservations(engine, args.observations);
      if (r.some((o) => o.addedObservations.length)) await waitForJobs(x)();
      return text(json(r), { results: r });
    })(extra));

    server.registerTool('delete_entities', {
      title: 'Delete Entities',
      description: 'Delete multiple entities and their associated relations from the knowledge graph (their observations are forgotten)',
      inputSchema: { entityNames: z.array(z.string().max(500)).max(MANY).describe('An array of entity names to delete') },
      outputSchema: MessageOutput, annotations: deleteHint,
    }, (args, extra) => guard('delete_entities', true, async () => {
      const { deleted, notFound } = await deleteEntities(engine, args.entityNames);
      const message = notFound.length === 0 ? 'Entities deleted successfully' : `Deleted ${deleted.length} of ${args.entityNames.length} entities. Not found: ${notFound.join(', ')}`;
      return text(message, { success: true, message });
    })(extra));

    server.registerTool('delete_observations', {
      title: 'Delete Observations',
      description: 'Delete specific observations from entities in the knowledge graph',
      inputSchema: {
        deletions: z.array(z.object({
          entityName: z.string().max(500).describe('The name of the entity containing the observations'),
          observations: z.array(z.string().max(2000)).max(REF_LIMITS.observationsPerEntity).describe('An array of observations to delete'),
        })).max(MANY),
      },
      outputSchema: MessageOutput, annotations: deleteHint,
    }, (args, extra) => guard('delete_observations', true, async () => {
      const { deletedCount, missingEntities } = await deleteObservations(engine, args.deletions);
      const requested = args.deletions.reduce((n, d) => n + d.observations.length, 0);
      const message = deletedCount === requested ? 'Observations deleted successfully'
        : `Deleted ${deletedCount} of ${requested} observations.` + (missingEntities.length ? ` Entities not found: ${missingEntities.join(', ')}` : '');
      return text(message, { success: true, message });
    })(extra));

    server.registerTool('delete_relations', {
      title: 'Delete Relations',
      description: 'Delete multiple relations from the knowledge graph',
      inputSchema: { relations: z.array(RelationSchema).max(MANY).describe('An array of relations to delete') },
      outputSchema: MessageOutput, annotations: deleteHint,
    }, (args, extra) => guard('delete_relations', true, async () => {
      const { deletedCount } = await deleteRelations(engine, args.relations);
      const message = deletedCount === args.relations.length ? 'Relations deleted successfully' : `Deleted ${deletedCount} of ${args.relations.length} relations. The rest matched nothing.`;
      return text(message, { success: true, message });
    })(extra));
  }

  // ── Resources ────────────────────────────────────────────────────────────────────────────────
  const jsonResource = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: json(value) }] });
  server.registerResource('pinned-entities', RESOURCE_PINNED, {
    title: 'Pinned entities', description: 'The entities pinned in Agent Memory (always focal), with their type, description and relation count.', mimeType: 'application/json',
  }, (uri) => jsonResource(uri.href, mcpPinned(engine).slice(0, 100).map((p) => {
    const e = mcpEntity(engine, p.name, 0);
    return { name: e.entity.name, type: e.entity.type, description: e.entity.description, pinnedAt: p.pinnedAt, relations: e.relations.length, mentions: e.entity.mentions };
  })));
  server.registerResource('recent-memories', RESOURCE_RECENT, {
    title: 'Recent memories', description: 'The 50 most recent memories in Agent Memory, newest first.', mimeType: 'application/json',
  }, (uri) => jsonResource(uri.href, recentMemories(engine, 50)));
  server.registerResource('entity', new ResourceTemplate(ENTITY_RESOURCE_TEMPLATE, {
    list: () => ({ resources: mcpPinned(engine).slice(0, 100).map((p) => ({ uri: `memory://entity/${encodeURIComponent(p.name)}`, name: p.name, title: `${p.name} (pinned)`, mimeType: 'application/json' })) }),
    complete: { name: (value) => entityNamesStarting(engine, value) },
  }), { title: 'Entity', description: 'One entity with aspects, attributes, relations and recent memories; pinned entities are listed.', mimeType: 'application/json' },
  (uri, vars) => jsonResource(uri.href, mcpEntity(engine, decodeURIComponent(String(vars.name ?? '')))));

  // Subscriptions: resources/updated for what a client subscribed to, after our writes and other processes'.
  const subscribed = new Set<string>();
  server.server.setRequestHandler(SubscribeRequestSchema, (req) => { subscribed.add(req.params.uri); return {}; });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (req) => { subscribed.delete(req.params.uri); return {}; });
  let pinnedKey = mcpPinned(engine).map((p) => p.id).join(',');
  let timer: NodeJS.Timeout | undefined;
  function changed(): void {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (!server.isConnected()) return;
      const key = mcpPinned(engine).map((p) => p.id).join(',');
      if (key !== pinnedKey) { pinnedKey = key; server.sendResourceListChanged(); }
      for (const uri of subscribed) void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
    }, 100);
  }
  const listener = engine.store.onDidChange(() => changed());
  // Other processes' writes reach this one when it reads; a subscribed client is told within a second.
  const poll = setInterval(() => { if (subscribed.size) engine.store.refresh(); }, 1_000);
  poll.unref();

  // ── Prompt ───────────────────────────────────────────────────────────────────────────────────
  server.registerPrompt('session-start', {
    title: 'Session start memories',
    description: 'The memories Agent Memory would inject at the start of a session: pinned and focal entities, recent decisions and preferences, within the token budget.',
    argsSchema: { project: z.string().max(200).optional().describe('The project the session works on'), query: z.string().max(2048).optional().describe('The first prompt or task, to pick focal entities') },
  }, async (args) => {
    // A read-only server only previews: no session is recorded, nothing is written.
    const r = await engine.sessions.start({ harness: 'mcp', project: args.project ?? null, ...(args.query ? { query: args.query } : {}), preview: options.readOnly });
    const body = r.injected.length ? formatInjection(r.injected) : 'Agent Memory has no memories to inject yet.';
    return {
      description: options.readOnly ? `${r.injected.length} memories (read-only server: no session recorded)` : `Session ${r.sessionKey}: ${r.injected.length} memories`,
      messages: [{ role: 'user', content: { type: 'text', text: `Relevant memories from Agent Memory${options.readOnly ? '' : ` (session ${r.sessionKey})`}:\n\n${body}` } }],
    };
  });

  return {
    server,
    dispose: () => { listener.dispose(); clearInterval(poll); if (timer) clearTimeout(timer); },
  };
}

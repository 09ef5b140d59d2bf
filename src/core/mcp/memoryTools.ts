/**
 * Agent Memory's own MCP tools (memory_recall, memory_remember, memory_forget, memory_pin,
 * memory_unpin, memory_entity) as plain functions on the engine: the MCP server (mcpServer.ts)
 * validates arguments and formats answers; the rules match the VS Code tools (src/extension/tools/):
 * redaction in the write path, the same size limit, coded errors with no secret in them.
 */
import { isoFromMs } from '../clock';
import { MemoryError } from '../errors';
import { entityGraph } from '../graph/graphQueries';
import type { EntityGraph } from '../graph/graphQueries';
import { entityMemories } from '../graph/entityTreeQueries';
import { forgetMemoryCompletely } from '../memory/forget';
import { getPinnedEntities, pinEntity, unpinEntity } from '../pinning/pinning';
import type { PinnedEntity, PinResult } from '../pinning/pinning';
import { explainText } from '../recall/explainText';
import type { RecallResult } from '../recall/recallTypes';
import type { McpEngine } from './referenceGraph';

export const MCP_AGENT_ID = 'default';
/** Longest text one memory_remember call stores (the VS Code tools' limit; longer text is chunked by the core below it). */
export const MCP_MAX_REMEMBER_CHARS = 100_000;
/** Most results one memory_recall call returns. */
export const MCP_MAX_RESULTS = 20;
/** How long a writing tool waits for the new memory's embedding and extraction before answering. */
export const MCP_SETTLE_MS = 20_000;

export interface RecallHit {
  readonly id: string;
  readonly content: string;
  readonly createdAt: string;
  readonly type: string;
  /** The ranking score (compare within one recall; it can exceed 1) and the 0–1 relevance against the best result. */
  readonly score: number;
  readonly relevance: number;
  /** 'current', or superseded / partly-superseded with the replacement when known. */
  readonly currentness: { readonly status: 'current' | 'superseded' | 'partly-superseded'; readonly replacement?: string; readonly replacementId?: string };
  readonly why: string;
}

/**
 * A short why in the words "Why" uses (explainText.ts): how the memory was found and the first two
 * ranking steps that changed it, with their change ("Found because it shares 2 of 3 words with the
 * question; Detail: a decision, constraint or dated note with enough detail (+20%)"). No stage
 * ids and no memory ids: agents quote it to people.
 */
export function shortWhy(r: RecallResult): string {
  if (!r.explain) return '';
  const [, found, ...rest] = explainText(r.explain);
  // Stage lines end with their change in brackets ("(+20%)." / "(−0.05 on the score)."); notes do not.
  const steps = rest.filter((l) => /\([+−]\d[^()]*\)\.$/.test(l)).slice(0, 2);
  return [found, ...steps].filter((l): l is string => !!l).map((l) => l.replace(/\.$/, '')).join('; ');
}

export function recallHit(r: RecallResult): RecallHit {
  const c = r.currentness;
  return {
    id: r.id, content: r.content, createdAt: r.createdAt, type: r.type, score: Number(r.score.toFixed(4)), relevance: r.relevance,
    currentness: c ? { status: c.status, ...(c.replacement ? { replacement: c.replacement } : {}), ...(c.replacementId ? { replacementId: c.replacementId } : {}) } : { status: 'current' },
    why: shortWhy(r),
  };
}

export async function mcpRecall(engine: McpEngine, input: { query: string; limit?: number; project?: string }): Promise<RecallHit[]> {
  const query = input.query.trim();
  if (!query) throw new MemoryError('E_INVALID_INPUT', 'The query must be non-empty text.');
  const limit = Math.min(MCP_MAX_RESULTS, Math.max(1, Math.round(input.limit ?? 8)));
  const out = await engine.recallDetailed({ query, limit, ...(input.project ? { project: input.project } : {}) }, { explain: true });
  return out.items.map(recallHit);
}

export interface RememberAnswer {
  readonly id: string;
  readonly duplicate: boolean;
  /** Names of the redaction rules that fired (the secret itself is never stored or echoed). */
  readonly redacted: readonly string[];
  /** Whether embedding and extraction finished before the answer (false: they continue in the background). */
  readonly processed: boolean;
  readonly entities: readonly { readonly name: string; readonly type: string }[];
  readonly facts: readonly string[];
}

/** Stores a memory (redacted, deduplicated, chunked by the core), waits briefly for its extraction, and says what was extracted. */
export async function mcpRemember(engine: McpEngine, input: { content: string; type?: string; project?: string }, wait: (engine: McpEngine) => Promise<boolean>): Promise<RememberAnswer> {
  const content = input.content.trim();
  if (!content) throw new MemoryError('E_INVALID_INPUT', 'There is nothing to remember: the text is empty.');
  if (content.length > MCP_MAX_REMEMBER_CHARS) throw new MemoryError('E_INVALID_INPUT', `That text is longer than ${MCP_MAX_REMEMBER_CHARS} characters; remember a shorter passage.`);
  const r = await engine.remember({ content, sourceType: 'mcp', ...(input.type ? { type: input.type } : {}), ...(input.project ? { project: input.project } : {}) });
  const processed = r.duplicate ? true : await wait(engine);
  const ids = r.chunkIds.length ? r.chunkIds : [r.id];
  const marks = ids.map(() => '?').join(',');
  const extracted = engine.store.read((db) => ({
    entities: db.all<{ name: string; type: string }>(
      `SELECT DISTINCT e.name, e.entity_type AS type FROM memory_entity_mentions x JOIN entities e ON e.id = x.entity_id
        WHERE x.memory_id IN (${marks}) AND e.entity_type <> 'chunk_group' ORDER BY e.name`, ids),
    facts: db.all<{ content: string }>(`SELECT content FROM entity_attributes WHERE memory_id IN (${marks}) AND status = 'active' ORDER BY rowid`, ids).map((f) => f.content),
  }));
  return { id: r.id, duplicate: r.duplicate, redacted: r.redacted, processed, ...extracted };
}

export async function mcpForget(engine: McpEngine, id: string): Promise<{ id: string; mentionsRemoved: number; entitiesRemoved: number }> {
  const key = id.trim();
  if (!key) throw new MemoryError('E_INVALID_INPUT', 'Name the memory to forget by its id.');
  const r = await forgetMemoryCompletely(engine.store, key, engine.clock, 'mcp');
  return { id: key, mentionsRemoved: r.mentionsRemoved, entitiesRemoved: r.entitiesRemoved };
}

export function mcpSetPinned(engine: McpEngine, entity: string, pinned: boolean): Promise<PinResult> {
  const name = entity.trim();
  if (!name) throw new MemoryError('E_INVALID_INPUT', 'Name the entity to pin, for example "sqlite".');
  const now = isoFromMs(engine.clock.now());
  return engine.store.write(pinned ? 'pin' : 'unpin', (db) => (pinned ? pinEntity(db, MCP_AGENT_ID, name, now) : unpinEntity(db, MCP_AGENT_ID, name, now)));
}

export function mcpPinned(engine: McpEngine): PinnedEntity[] {
  return engine.store.read((db) => getPinnedEntities(db, MCP_AGENT_ID));
}

export interface EntityAnswer extends EntityGraph {
  readonly memories: readonly { readonly id: string; readonly content: string; readonly createdAt: string }[];
}

/** An entity with its aspects, attributes (with status), relations and its most recent memories. */
export function mcpEntity(engine: McpEngine, name: string, memories = 20): EntityAnswer {
  const n = name.trim();
  if (!n) throw new MemoryError('E_INVALID_INPUT', 'Name the entity, for example "sqlite".');
  return engine.store.read((db) => {
    const g = entityGraph(db, n, MCP_AGENT_ID);
    return { ...g, memories: entityMemories(db, g.entity.id, memories) };
  });
}

/** The most recent live memories (the memory://recent resource). */
export function recentMemories(engine: McpEngine, limit = 50): { id: string; content: string; createdAt: string; type: string; project: string | null }[] {
  return engine.store.read((db) => db.all<{ id: string; content: string; created_at: string; type: string; project: string | null }>(
    'SELECT id, content, created_at, type, project FROM memories WHERE is_deleted = 0 ORDER BY created_at DESC, rowid DESC LIMIT ?', [limit])
    .map((r) => ({ id: r.id, content: r.content, createdAt: r.created_at, type: r.type, project: r.project })));
}

/** Entity names starting with `prefix` (case-insensitive), most mentioned first: completion of memory://entity/{name}. */
export function entityNamesStarting(engine: McpEngine, prefix: string, limit = 20): string[] {
  const p = prefix.trim().toLowerCase();
  return engine.store.read((db) => db.all<{ name: string }>(
    `SELECT name FROM entities WHERE agent_id = ? AND entity_type <> 'chunk_group' AND status = 'active' AND substr(canonical_name, 1, ?) = ?
      ORDER BY pinned DESC, mentions DESC, name LIMIT ?`, [MCP_AGENT_ID, p.length, p, limit]).map((r) => r.name));
}

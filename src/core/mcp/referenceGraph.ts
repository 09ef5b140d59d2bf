/**
 * The MCP reference memory server's knowledge graph (entities with an entityType and
 * observations, relations with a free-form relationType), mapped onto our graph and memories
 * (docs/mcp.md, "Mapping"):
 * - an entity is our entity (its type mapped to our enum; a label our enum lacks is kept as the
 *   entity's description, so it reads back as given);
 * - an observation is a memory "<entity name>: <observation>" linked to its entity, so recall finds
 *   it with its subject and forget removes it everywhere;
 * - a relation is a typed edge whose metadata keeps its labels (labelledGraphWrites.ts).
 * vscode-free and SDK-free: the MCP server (mcpServer.ts) and the importer call these.
 */
import { randomUUID } from 'node:crypto';
import type { EntityType } from '../config/extractionConfig';
import { ENTITY_TYPES } from '../config/extractionConfig';
import type { MemoryEngine } from '../engine/memoryEngine';
import { MemoryError } from '../errors';
import { applyGraphOp, graphContext } from '../graph/graphApply';
import type { GraphOp } from '../graph/graphApply';
import { canonicalName } from '../graph/keys';
import { relationLabels } from '../graph/labelledGraphWrites';
import { MAX_ENTITY_NAME_CHARS } from '../graph/entityWrites';
import { forgetMemoryInTransaction } from '../memory/forget';
import { rememberInTransaction } from '../memory/remember';
import type { MemoryStore, SqlReader, SqlWriter } from '../store/storeTypes';
import { unscopedEntityName } from '../graph/unscopedEntityName';

export type McpEngine = MemoryEngine<MemoryStore>;

export interface RefEntity { readonly name: string; readonly entityType: string; readonly observations: readonly string[] }
export interface RefRelation { readonly from: string; readonly to: string; readonly relationType: string }
export interface RefGraph { readonly entities: RefEntity[]; readonly relations: RefRelation[]; readonly truncated?: { readonly entities: number; readonly relations: number; readonly note: string } }

/** Bounds of one call (the reference server has none; docs/mcp.md, "Differences"). */
export const REF_LIMITS = {
  /** Items in one create/add/delete call. */
  items: 200,
  observationsPerEntity: 100,
  entityTypeChars: 100,
  /** read_graph answers with at most this many entities (pinned first, then most mentioned). */
  readGraphEntities: 200,
  readGraphRelations: 1000,
  /** Observations listed per entity in any answer. */
  observationsShown: 100,
  /** Entities search_nodes returns. */
  searchEntities: 20,
} as const;

/** How observation memories are marked: their source type. */
export const OBSERVATION_SOURCE = 'mcp-observation';

const ENTITY_TYPE_SYNONYMS: Readonly<Record<string, EntityType>> = {
  people: 'person', user: 'person', human: 'person', developer: 'person', author: 'person',
  library: 'package', framework: 'package', module: 'package', dependency: 'package',
  service: 'system', server: 'system', database: 'system', platform: 'system', application: 'system', app: 'system',
  repository: 'project', repo: 'project', product: 'project',
  language: 'tool', 'programming language': 'tool', technology: 'tool',
  idea: 'concept', topic: 'concept', organization: 'unknown', company: 'unknown',
};

/** Our entity type for a reference entityType label. */
export function entityTypeForLabel(label: string): EntityType {
  const l = label.trim().toLowerCase().replace(/[_-]+/g, ' ');
  if ((ENTITY_TYPES as readonly string[]).includes(l)) return l as EntityType;
  return ENTITY_TYPE_SYNONYMS[l] ?? 'unknown';
}

/** A description that is a type label this module stored (short, one line, mapping to the stored type). */
function labelFromDescription(description: string | null, storedType: string): string | undefined {
  if (!description || description.length > REF_LIMITS.entityTypeChars || /[\n.!?]/.test(description) || description.split(/\s+/).length > 3) return undefined;
  return entityTypeForLabel(description) === storedType ? description : undefined;
}

interface EntityRow { id: string; name: string; entity_type: string; description: string | null }

const observationPrefix = (name: string): string => `${name}: `;

function observationsOf(db: SqlReader, e: EntityRow, limit: number): { id: string; text: string }[] {
  const prefix = observationPrefix(e.name);
  return db.all<{ id: string; content: string }>(
    `SELECT m.id, m.content FROM memory_entity_mentions x JOIN memories m ON m.id = x.memory_id
      WHERE x.entity_id = ? AND m.is_deleted = 0 AND substr(m.content, 1, ?) = ?
      ORDER BY m.created_at, m.rowid LIMIT ?`, [e.id, prefix.length, prefix, limit])
    .map((r) => ({ id: r.id, text: r.content.slice(prefix.length) }));
}

function toRefEntity(db: SqlReader, e: EntityRow): RefEntity {
  return { name: e.name, entityType: labelFromDescription(e.description, e.entity_type) ?? e.entity_type, observations: observationsOf(db, e, REF_LIMITS.observationsShown).map((o) => o.text) };
}

const ENTITY_COLUMNS = 'id, name, entity_type, description';

function entityByName(db: SqlReader, name: string): EntityRow | undefined {
  return db.get<EntityRow>(`SELECT ${ENTITY_COLUMNS} FROM entities WHERE agent_id = 'default' AND ${unscopedEntityName()} AND status = 'active'`, [canonicalName(name)]);
}

/** Relations with at least one endpoint in `ids`, one per label (a relation without labels shows its type). */
function relationsTouching(db: SqlReader, ids: readonly string[], limit: number): { relations: RefRelation[]; total: number } {
  if (ids.length === 0) return { relations: [], total: 0 };
  const marks = ids.map(() => '?').join(',');
  const rows = db.all<{ relation_type: string; metadata: string | null; from_name: string; to_name: string }>(
    `SELECT r.relation_type, r.metadata, s.name AS from_name, t.name AS to_name FROM relations r
       JOIN entities s ON s.id = r.source_entity_id JOIN entities t ON t.id = r.target_entity_id
      WHERE r.source_entity_id IN (${marks}) OR r.target_entity_id IN (${marks}) ORDER BY r.created_at, r.rowid`, [...ids, ...ids]);
  const all = rows.flatMap((r) => {
    const labels = relationLabels(r.metadata);
    return (labels.length ? labels : [r.relation_type]).map((relationType) => ({ from: r.from_name, to: r.to_name, relationType }));
  });
  return { relations: all.slice(0, limit), total: all.length };
}

function graphOf(db: SqlReader, rows: readonly EntityRow[]): RefGraph {
  return { entities: rows.map((e) => toRefEntity(db, e)), relations: relationsTouching(db, rows.map((e) => e.id), REF_LIMITS.readGraphRelations).relations };
}

function writeCtx(engine: McpEngine, reason: string) {
  return graphContext({ actor: 'mcp', reason, clock: engine.clock, newId: randomUUID, config: engine.currentSettings.graph });
}

function requireItems<T>(items: readonly T[], what: string, max: number = REF_LIMITS.items): readonly T[] {
  if (!Array.isArray(items)) throw new MemoryError('E_INVALID_INPUT', `${what} must be an array.`);
  if (items.length > max) throw new MemoryError('E_INVALID_INPUT', `At most ${max} ${what} in one call; split the call.`);
  return items;
}

function checkName(name: string): string {
  const n = typeof name === 'string' ? name.trim().replace(/\s+/g, ' ') : '';
  if (!n || n.length > MAX_ENTITY_NAME_CHARS) throw new MemoryError('E_INVALID_INPUT', `An entity name must have 1 to ${MAX_ENTITY_NAME_CHARS} characters.`);
  return n;
}

/** Stores one observation of an entity in the caller's transaction; returns the stored text, or undefined when already there. */
function observeInTransaction(db: SqlWriter, engine: McpEngine, ctx: ReturnType<typeof writeCtx>, e: EntityRow, text: string, project: string | undefined): string | undefined {
  const obs = typeof text === 'string' ? text.trim() : '';
  if (!obs) throw new MemoryError('E_INVALID_INPUT', `An observation of ${e.name} is empty.`);
  const deps = engine.rememberDeps();
  const content = observationPrefix(e.name) + obs;
  // One observation is one memory: longer text would be chunked and lose its subject prefix.
  if (content.length > deps.chunking.maxContentChars) throw new MemoryError('E_INVALID_INPUT', `An observation of ${e.name} is longer than ${deps.chunking.maxContentChars - observationPrefix(e.name).length} characters; split it into several observations.`);
  const before = new Set(observationsOf(db, e, 100_000).map((o) => o.id));
  const r = rememberInTransaction(db, { content, type: 'fact', sourceType: OBSERVATION_SOURCE, ...(project ? { project } : {}) }, deps);
  if (before.has(r.id)) return undefined;
  applyGraphOp(db, ctx, { op: 'upsert_entity', name: e.name, type: e.entity_type as EntityType, memoryId: r.id, mentionText: e.name, confidence: 1 });
  const stored = db.get<{ content: string }>('SELECT content FROM memories WHERE id = ?', [r.id])?.content ?? content;
  return stored.slice(observationPrefix(e.name).length);
}

/** Writes in one transaction, then wakes the job worker (embedding, extraction of new observations). */
async function write<T>(engine: McpEngine, label: string, fn: (db: SqlWriter) => T): Promise<T> {
  const r = await engine.store.write(label, fn);
  engine.poke();
  return r;
}

export async function createEntities(engine: McpEngine, entities: readonly RefEntity[], project?: string): Promise<RefEntity[]> {
  requireItems(entities, 'entities');
  for (const e of entities) {
    checkName(e.name);
    if (typeof e.entityType !== 'string' || !e.entityType.trim() || e.entityType.length > REF_LIMITS.entityTypeChars) throw new MemoryError('E_INVALID_INPUT', `entityType of ${e.name} must have 1 to ${REF_LIMITS.entityTypeChars} characters.`);
    requireItems(e.observations ?? [], `observations of ${e.name}`, REF_LIMITS.observationsPerEntity);
  }
  return write(engine, 'mcp.create_entities', (db) => {
    const ctx = writeCtx(engine, 'create_entities');
    const created: RefEntity[] = [];
    const seen = new Set<string>();
    for (const e of entities) {
      const name = checkName(e.name);
      const key = canonicalName(name);
      if (seen.has(key) || entityByName(db, name)) continue;
      seen.add(key);
      const label = e.entityType.trim();
      const type = entityTypeForLabel(label);
      applyGraphOp(db, ctx, { op: 'upsert_entity', name, type, ...(label.toLowerCase() !== type ? { description: label } : {}) });
      const row = entityByName(db, name)!;
      const observations = (e.observations ?? []).map((o) => observeInTransaction(db, engine, ctx, row, o, project)).filter((o): o is string => o !== undefined);
      created.push({ name: row.name, entityType: label, observations });
    }
    return created;
  });
}

export async function createRelations(engine: McpEngine, relations: readonly RefRelation[]): Promise<RefRelation[]> {
  requireItems(relations, 'relations');
  return write(engine, 'mcp.create_relations', (db) => {
    const ctx = writeCtx(engine, 'create_relations');
    for (const r of relations) {
      if (!entityByName(db, String(r.from ?? ''))) throw new MemoryError('E_NOT_FOUND', `Entity with name ${String(r.from)} not found`);
      if (!entityByName(db, String(r.to ?? ''))) throw new MemoryError('E_NOT_FOUND', `Entity with name ${String(r.to)} not found`);
    }
    const created: RefRelation[] = [];
    for (const r of relations) {
      const op: GraphOp = { op: 'label_relation', from: r.from, to: r.to, label: String(r.relationType ?? '') };
      const result = applyGraphOp(db, ctx, op);
      if (result.op === 'label_relation' && result.changed) created.push({ from: r.from, to: r.to, relationType: r.relationType.trim() });
    }
    return created;
  });
}

export async function addObservations(engine: McpEngine, observations: readonly { readonly entityName: string; readonly contents: readonly string[] }[], project?: string): Promise<{ entityName: string; addedObservations: string[] }[]> {
  requireItems(observations, 'observation groups');
  for (const o of observations) requireItems(o.contents ?? [], `observations of ${o.entityName}`, REF_LIMITS.observationsPerEntity);
  return write(engine, 'mcp.add_observations', (db) => {
    const ctx = writeCtx(engine, 'add_observations');
    return observations.map((o) => {
      const e = entityByName(db, String(o.entityName ?? ''));
      if (!e) throw new MemoryError('E_NOT_FOUND', `Entity with name ${String(o.entityName)} not found`);
      const added = o.contents.map((c) => observeInTransaction(db, engine, ctx, e, c, project)).filter((c): c is string => c !== undefined);
      return { entityName: o.entityName, addedObservations: added };
    });
  });
}

/** Forgets memories (hard delete) and purges them from the store files once, as memory_forget does. */
async function purge(engine: McpEngine): Promise<void> {
  const store = engine.store as MemoryStore & { purgeDeleted?: () => Promise<unknown> };
  if (typeof store.purgeDeleted === 'function') await store.purgeDeleted();
}

export async function deleteEntities(engine: McpEngine, entityNames: readonly string[]): Promise<{ deleted: string[]; notFound: string[] }> {
  requireItems(entityNames, 'entity names');
  const r = await write(engine, 'mcp.delete_entities', (db) => {
    const ctx = writeCtx(engine, 'delete_entities');
    const deleted: string[] = [], notFound: string[] = [];
    let forgotten = 0;
    for (const name of entityNames) {
      const e = entityByName(db, String(name ?? ''));
      if (!e) { notFound.push(name); continue; }
      for (const o of observationsOf(db, e, 100_000)) { forgetMemoryInTransaction(db, o.id, engine.clock, 'mcp'); forgotten++; }
      applyGraphOp(db, ctx, { op: 'delete_entity', name: e.name });
      deleted.push(name);
    }
    return { deleted, notFound, forgotten };
  });
  if (r.forgotten > 0) await purge(engine);
  return { deleted: r.deleted, notFound: r.notFound };
}

export async function deleteObservations(engine: McpEngine, deletions: readonly { readonly entityName: string; readonly observations: readonly string[] }[]): Promise<{ deletedCount: number; missingEntities: string[] }> {
  requireItems(deletions, 'deletion groups');
  const r = await write(engine, 'mcp.delete_observations', (db) => {
    let deletedCount = 0;
    const missingEntities: string[] = [];
    for (const d of deletions) {
      const e = entityByName(db, String(d.entityName ?? ''));
      if (!e) { missingEntities.push(d.entityName); continue; }
      const wanted = new Set((d.observations ?? []).map((o) => String(o).trim()));
      for (const o of observationsOf(db, e, 100_000)) {
        if (!wanted.has(o.text)) continue;
        forgetMemoryInTransaction(db, o.id, engine.clock, 'mcp');
        deletedCount++;
      }
    }
    return { deletedCount, missingEntities };
  });
  if (r.deletedCount > 0) await purge(engine);
  return r;
}

export async function deleteRelations(engine: McpEngine, relations: readonly RefRelation[]): Promise<{ deletedCount: number }> {
  requireItems(relations, 'relations');
  return write(engine, 'mcp.delete_relations', (db) => {
    const ctx = writeCtx(engine, 'delete_relations');
    let deletedCount = 0;
    for (const r of relations) {
      if (!String(r.from ?? '').trim() || !String(r.to ?? '').trim() || !String(r.relationType ?? '').trim()) continue;
      const result = applyGraphOp(db, ctx, { op: 'label_relation', from: r.from, to: r.to, label: r.relationType, remove: true });
      if (result.op === 'label_relation' && result.changed) deletedCount++;
    }
    return { deletedCount };
  });
}

/** The graph, bounded: pinned entities first, then the most mentioned; says when it left some out. */
export function readGraph(engine: McpEngine): RefGraph {
  return engine.store.read((db) => {
    const total = db.get<{ n: number }>("SELECT COUNT(*) AS n FROM entities WHERE agent_id = 'default' AND entity_type <> 'chunk_group' AND status = 'active'")!.n;
    const rows = db.all<EntityRow>(
      `SELECT ${ENTITY_COLUMNS} FROM entities WHERE agent_id = 'default' AND entity_type <> 'chunk_group' AND status = 'active'
        ORDER BY pinned DESC, pinned_at DESC, mentions DESC, updated_at DESC, name LIMIT ?`, [REF_LIMITS.readGraphEntities]);
    const entities = rows.map((e) => toRefEntity(db, e));
    const rel = relationsTouching(db, rows.map((e) => e.id), REF_LIMITS.readGraphRelations);
    const cut = total > rows.length || rel.total > rel.relations.length;
    return {
      entities, relations: rel.relations,
      ...(cut ? { truncated: { entities: total, relations: rel.total, note: `read_graph shows ${rows.length} of ${total} entities (pinned first, then the most mentioned) and ${rel.relations.length} of ${rel.total} of their relations; use search_nodes or open_nodes for the rest.` } } : {}),
    };
  });
}

export function openNodes(engine: McpEngine, names: readonly string[]): RefGraph {
  requireItems(names, 'names');
  return engine.store.read((db) => {
    const rows: EntityRow[] = [];
    for (const n of names) {
      const e = typeof n === 'string' ? entityByName(db, n) : undefined;
      if (e && !rows.some((x) => x.id === e.id)) rows.push(e);
    }
    return graphOf(db, rows);
  });
}

/**
 * search_nodes: what the reference finds (the query as a substring of a name, type or
 * observation), then the entities linked to the memories our hybrid recall ranks for the query
 * (by meaning, not only by letters), up to REF_LIMITS.searchEntities.
 */
export async function searchNodes(engine: McpEngine, query: string): Promise<RefGraph> {
  const q = typeof query === 'string' ? query.trim() : '';
  if (!q) throw new MemoryError('E_INVALID_INPUT', 'The query must be non-empty text.');
  const recalled = await engine.recall({ query: q, limit: REF_LIMITS.searchEntities }, { track: false });
  return engine.store.read((db) => {
    const rows: EntityRow[] = [];
    const add = (e: EntityRow | undefined): void => { if (e && rows.length < REF_LIMITS.searchEntities && !rows.some((x) => x.id === e.id)) rows.push(e); };
    const needle = q.toLowerCase();
    for (const e of db.all<EntityRow>(
      `SELECT ${ENTITY_COLUMNS} FROM entities WHERE agent_id = 'default' AND entity_type <> 'chunk_group' AND status = 'active'
         AND (instr(lower(name), ?) > 0 OR instr(lower(entity_type), ?) > 0 OR instr(lower(COALESCE(description, '')), ?) > 0)
       ORDER BY mentions DESC, name LIMIT ?`, [needle, needle, needle, REF_LIMITS.searchEntities])) add(e);
    for (const e of db.all<EntityRow>(
      `SELECT DISTINCT e.id, e.name, e.entity_type, e.description FROM memories m JOIN memory_entity_mentions x ON x.memory_id = m.id JOIN entities e ON e.id = x.entity_id
        WHERE m.is_deleted = 0 AND m.source_type = ? AND instr(lower(m.content), ?) > 0 AND substr(m.content, 1, length(e.name) + 2) = e.name || ': '
        LIMIT ?`, [OBSERVATION_SOURCE, needle, REF_LIMITS.searchEntities])) add(e);
    for (const r of recalled) {
      for (const e of db.all<EntityRow>(
        `SELECT e.id, e.name, e.entity_type, e.description FROM memory_entity_mentions x JOIN entities e ON e.id = x.entity_id
          WHERE x.memory_id = ? AND e.entity_type <> 'chunk_group' AND e.status = 'active' ORDER BY (substr(?, 1, length(e.name) + 2) = e.name || ': ') DESC, e.mentions DESC`, [r.id, r.content])) add(e);
    }
    return graphOf(db, rows);
  });
}

import { MemoryError } from '../errors';
import { foldName } from '../extraction/entityAliases';
import type { AliasResolver } from '../extraction/entityAliases';
import type { SqlReader, SqlWriter } from '../store/storeTypes';
import { recordGraphOp } from './graphAudit';
import type { GraphWriteContext } from './graphWriteTypes';
import { canonicalName } from './keys';
import { unscopedEntityName } from './unscopedEntityName';

/**
 * Merging duplicate entities (docs/extraction.md "Canonical names"): `JS` and `JavaScript`, or
 * `Node.js` and `nodejs`, stored before the alias table knew them. The kept entity takes the
 * other's mentions, relations (a relation that would join the entity to itself is dropped; one
 * that already exists adds its mention count), aspects (same-named aspects are joined), attributes,
 * predictor rows and pin; it takes the canonical name when it has none yet. Every step is recorded
 * in graph_ops. Call only through the apply path (graphApply.ts, op `merge_entities`).
 */

export interface EntityMergeSummary {
  readonly keptId: string;
  readonly mergedId: string;
  readonly mentionsMoved: number;
  readonly relationsMoved: number;
  readonly relationsJoined: number;
  readonly aspectsMoved: number;
  readonly attributesMoved: number;
}

interface EntityRow { id: string; name: string; canonical_name: string; entity_type: string; description: string | null; mentions: number; pinned: number; pinned_at: string | null; agent_id: string }

const entityRow = (db: SqlReader, id: string): EntityRow | undefined => db.get<EntityRow>(
  'SELECT id, name, canonical_name, entity_type, description, mentions, pinned, pinned_at, agent_id FROM entities WHERE id = ?', [id]);

/** Types a merge may fill in: the kept entity's vague type yields to the merged one's specific type. */
const VAGUE_TYPES = new Set(['unknown', 'concept']);

export function mergeEntityInto(db: SqlWriter, ctx: GraphWriteContext, keepId: string, mergeId: string, canonical?: string): EntityMergeSummary {
  if (keepId === mergeId) throw new MemoryError('E_INVALID_INPUT', 'An entity cannot be merged into itself.');
  const keep = entityRow(db, keepId);
  const drop = entityRow(db, mergeId);
  if (!keep || !drop) throw new MemoryError('E_NOT_FOUND', `No entity with id '${keep ? mergeId : keepId}'.`);
  if (keep.agent_id !== drop.agent_id) throw new MemoryError('E_INVALID_INPUT', 'Entities of different agents cannot be merged.');

  // Mentions: memories that mentioned both keep one link.
  const shared = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_entity_mentions a JOIN memory_entity_mentions b ON a.memory_id = b.memory_id WHERE a.entity_id = ? AND b.entity_id = ?', [keepId, mergeId])?.n ?? 0;
  const moved = db.run(`INSERT OR IGNORE INTO memory_entity_mentions (memory_id, entity_id, mention_text, confidence)
    SELECT memory_id, ?, mention_text, confidence FROM memory_entity_mentions WHERE entity_id = ?`, [keepId, mergeId]).changes;
  db.run('DELETE FROM memory_entity_mentions WHERE entity_id = ?', [mergeId]);

  // Relations: re-point each end; join duplicates; drop self loops.
  let relationsMoved = 0; let relationsJoined = 0;
  const rels = db.all<{ id: string; source_entity_id: string; target_entity_id: string; relation_type: string; mentions: number }>(
    'SELECT id, source_entity_id, target_entity_id, relation_type, mentions FROM relations WHERE source_entity_id = ? OR target_entity_id = ?', [mergeId, mergeId]);
  for (const r of rels) {
    const src = r.source_entity_id === mergeId ? keepId : r.source_entity_id;
    const dst = r.target_entity_id === mergeId ? keepId : r.target_entity_id;
    const existing = src === dst ? undefined : db.get<{ id: string }>('SELECT id FROM relations WHERE source_entity_id = ? AND target_entity_id = ? AND relation_type = ? AND id <> ?', [src, dst, r.relation_type, r.id]);
    if (src === dst || existing) {
      if (existing) { db.run('UPDATE relations SET mentions = mentions + ?, updated_at = ? WHERE id = ?', [r.mentions, ctx.nowIso, existing.id]); relationsJoined++; }
      db.run('DELETE FROM relations WHERE id = ?', [r.id]);
      recordGraphOp(db, ctx, { op: 'relation_delete', targetKind: 'relation', targetId: r.id, details: { why: existing ? `joined into ${existing.id} by entity merge` : 'self relation after entity merge' } });
      continue;
    }
    db.run('UPDATE relations SET source_entity_id = ?, target_entity_id = ?, updated_at = ? WHERE id = ?', [src, dst, ctx.nowIso, r.id]);
    relationsMoved++;
  }

  // Aspects: a same-named aspect of the kept entity absorbs the other's attributes.
  let aspectsMoved = 0;
  for (const a of db.all<{ id: string; canonical_name: string }>('SELECT id, canonical_name FROM entity_aspects WHERE entity_id = ?', [mergeId])) {
    const twin = db.get<{ id: string }>('SELECT id FROM entity_aspects WHERE entity_id = ? AND canonical_name = ?', [keepId, a.canonical_name]);
    if (twin) {
      db.run('UPDATE entity_attributes SET aspect_id = ?, updated_at = ? WHERE aspect_id = ?', [twin.id, ctx.nowIso, a.id]);
      db.run('DELETE FROM entity_aspects WHERE id = ?', [a.id]);
    } else {
      db.run('UPDATE entity_aspects SET entity_id = ?, updated_at = ? WHERE id = ?', [keepId, ctx.nowIso, a.id]);
      aspectsMoved++;
    }
  }
  const attributesMoved = db.run('UPDATE entity_attributes SET entity_id = ?, updated_at = ? WHERE entity_id = ?', [keepId, ctx.nowIso, mergeId]).changes;
  db.run('UPDATE predictor_comparisons SET focal_entity_id = ? WHERE focal_entity_id = ?', [keepId, mergeId]);

  // The kept row: pins survive (earliest pin time), counts add up, a vague type and an empty description are filled.
  const pinned = keep.pinned || drop.pinned ? 1 : 0;
  const pinnedAt = [keep.pinned ? keep.pinned_at : null, drop.pinned ? drop.pinned_at : null].filter((x): x is string => !!x).sort()[0] ?? null;
  const type = VAGUE_TYPES.has(keep.entity_type) && !VAGUE_TYPES.has(drop.entity_type) ? drop.entity_type : keep.entity_type;
  db.run('DELETE FROM entities WHERE id = ?', [mergeId]);
  const name = canonical?.trim() || keep.name;
  const nameFree = canonicalName(name) === keep.canonical_name || !db.get(`SELECT 1 AS x FROM entities WHERE agent_id = ? AND ${unscopedEntityName()}`, [keep.agent_id, canonicalName(name)]);
  db.run('UPDATE entities SET name = ?, canonical_name = ?, entity_type = ?, description = ?, mentions = ?, pinned = ?, pinned_at = ?, updated_at = ? WHERE id = ?', [
    nameFree ? name : keep.name, nameFree ? canonicalName(name) : keep.canonical_name, type, keep.description || drop.description,
    Math.max(0, keep.mentions + drop.mentions - shared), pinned, pinned ? pinnedAt : null, ctx.nowIso, keepId]);
  const summary = { keptId: keepId, mergedId: mergeId, mentionsMoved: moved, relationsMoved, relationsJoined, aspectsMoved, attributesMoved };
  recordGraphOp(db, ctx, { op: 'entity_merge', targetKind: 'entity', targetId: keepId, details: { merged: { id: mergeId, name: drop.name, type: drop.entity_type }, name: nameFree ? name : keep.name, ...summary } });
  return summary;
}

/** A group of stored entities that name the same thing, with the name they should carry. */
export interface DuplicateGroup {
  readonly canonical: string;
  /** Entity ids, the one to keep first (pinned, then most mentioned, then the canonical spelling, then oldest). */
  readonly ids: readonly string[];
}

/** Source files whose path names a module (`shelf/server.py` is the module `shelf.server`). */
const MODULE_FILE_RE = /^(?:\.{0,2}\/)?((?:[\w-]+\/)*[\w-]+)\.(?:py|ts|tsx|js|jsx|mjs|cjs|rb|go|rs|java|kt)$/;
/** A dotted module path (`shelf.server`), which names the same thing as its file. */
const DOTTED_MODULE_RE = /^[a-z_][\w]*(?:\.[a-z_][\w]*)+$/;
/** A trailing kind word that does not change what a name refers to ("Mark-as-read route" is "mark as read"). */
const KIND_SUFFIX_RE = /[\s_-]+(?:route|endpoint|function|method|module|index|table|variable|constant|setting|command|field|column)$/i;

/**
 * The folding key duplicates share (docs/extraction.md, "Canonical names"): the alias-resolved
 * name folded for case and punctuation, without a trailing kind word; a source file's key is its
 * module path, so the file and the module it defines fold together.
 */
export function duplicateKey(name: string, type: string, aliases: AliasResolver): string {
  const file = type === 'file' ? MODULE_FILE_RE.exec(name.trim()) : null;
  if (file?.[1]) return foldName(file[1].replace(/\//g, '.'));
  return foldName(aliases.canonical(name).replace(KIND_SUFFIX_RE, ''));
}

/**
 * Whether two entities with one folding key are one thing: same type, or one type is vague
 * (`unknown`, `concept`), or a file and its dotted module name. An environment variable and a file
 * that fold alike (`SHELF_DB`, `shelf.db`) are not.
 */
function sameThing(a: { name: string; entity_type: string }, b: { name: string; entity_type: string }): boolean {
  if (a.entity_type === b.entity_type || VAGUE_TYPES.has(a.entity_type) || VAGUE_TYPES.has(b.entity_type)) return true;
  const module = (x: { name: string; entity_type: string }): boolean => MODULE_FILE_RE.test(x.name) || DOTTED_MODULE_RE.test(x.name);
  return ['file', 'symbol'].includes(a.entity_type) && ['file', 'symbol'].includes(b.entity_type) && module(a) && module(b);
}

/**
 * Duplicate entities of one agent: names equal after alias resolution and folding (case, spaces,
 * dots, hyphens, underscores, a trailing kind word; a source file and its module) whose types say
 * they are one thing (sameThing). Chunk groups are never merged.
 */
export function findDuplicateEntities(db: SqlReader, agentId: string, aliases: AliasResolver): DuplicateGroup[] {
  type Row = { id: string; name: string; entity_type: string; mentions: number; pinned: number; created_at: string };
  const rows = db.all<Row>(
    "SELECT id, name, entity_type, mentions, pinned, created_at FROM entities WHERE agent_id = ? AND scope IS NULL AND entity_type <> 'chunk_group' ORDER BY created_at, id", [agentId]);
  const byKey = new Map<string, Row[]>();
  for (const r of rows) {
    const key = duplicateKey(r.name, r.entity_type, aliases);
    if (!key) continue;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  const groups: { canonical: string; rows: Row[] }[] = [];
  for (const same of byKey.values()) {
    const clusters: Row[][] = [];
    for (const r of same) {
      const c = clusters.find((cl) => cl.every((x) => sameThing(x, r)));
      if (c) c.push(r); else clusters.push([r]);
    }
    for (const c of clusters) {
      if (c.length < 2) continue;
      const first = c[0] as Row;
      // A file keeps its path as the name; an alias-table name wins otherwise.
      const file = c.find((r) => r.entity_type === 'file' && MODULE_FILE_RE.test(r.name));
      const canonical = file ? file.name : aliases.known(first.name) ? aliases.canonical(first.name) : first.name;
      groups.push({ canonical, rows: c });
    }
  }
  return groups.map((g) => ({
    canonical: g.canonical,
    ids: [...g.rows].sort((a, b) => b.pinned - a.pinned || b.mentions - a.mentions || Number(b.name === g.canonical) - Number(a.name === g.canonical) || a.created_at.localeCompare(b.created_at)).map((r) => r.id),
  }));
}

import { MemoryError } from '../errors';
import type { SqlReader } from '../store/storeTypes';
import { canonicalName } from './keys';

/** Read models of the graph for the CLI and views. */
export interface EntitySummary {
  readonly id: string;
  readonly name: string;
  readonly canonicalName: string;
  readonly type: string;
  readonly mentions: number;
  readonly pinned: boolean;
}

/**
 * SQL condition on entity `e`: it has knowledge attached (an aspect or a relation) or is pinned. The
 * Knowledge panel's list and the graph tree show only such entities by default (docs/vscode.md,
 * "Knowledge panel"): an entity known only by its mentions has nothing to show ("0a 0t 0r").
 */
export const ENTITY_HAS_KNOWLEDGE = `(e.pinned = 1 OR EXISTS (SELECT 1 FROM entity_aspects a WHERE a.entity_id = e.id)
  OR EXISTS (SELECT 1 FROM relations r WHERE r.source_entity_id = e.id) OR EXISTS (SELECT 1 FROM relations r WHERE r.target_entity_id = e.id))`;

/**
 * Entities in the knowledge order (pinned first, then by mentions, recency and name); chunk groups
 * excluded; with `withKnowledge`, only those with something attached (ENTITY_HAS_KNOWLEDGE).
 */
export function listEntities(db: SqlReader, opts: { limit?: number; agentId?: string; withKnowledge?: boolean } = {}): EntitySummary[] {
  return db.all<{ id: string; name: string; canonical_name: string; entity_type: string; mentions: number; pinned: number }>(
    `SELECT e.id, e.name, e.canonical_name, e.entity_type, e.mentions, e.pinned FROM entities e
      WHERE e.agent_id = ? AND e.entity_type <> 'chunk_group' AND e.status = 'active'${opts.withKnowledge ? ` AND ${ENTITY_HAS_KNOWLEDGE}` : ''}
      ORDER BY e.pinned DESC, e.pinned_at DESC, e.mentions DESC, e.updated_at DESC, e.name LIMIT ?`, [opts.agentId ?? 'default', opts.limit ?? 10_000])
    .map((r) => ({ id: r.id, name: r.name, canonicalName: r.canonical_name, type: r.entity_type, mentions: r.mentions, pinned: r.pinned !== 0 }));
}

export interface AttributeView {
  readonly id: string;
  readonly kind: string;
  readonly content: string;
  readonly status: string;
  readonly groupKey: string | null;
  readonly claimKey: string | null;
  readonly supersededBy: string | null;
  readonly memoryId: string | null;
  readonly confidence: number;
  readonly importance: number;
  readonly createdAt: string;
}

export interface RelationView {
  readonly id: string;
  readonly direction: 'out' | 'in';
  readonly type: string;
  readonly other: { readonly id: string; readonly name: string };
  readonly mentions: number;
  readonly confidence: number;
  readonly strength: number;
  readonly instruction: string;
}

export interface EntityGraph {
  readonly entity: EntitySummary & { readonly description: string | null };
  readonly aspects: readonly { readonly id: string; readonly name: string; readonly weight: number; readonly attributes: readonly AttributeView[] }[];
  readonly relations: readonly RelationView[];
}

/** One entity with its aspects, attributes (every status) and relations in both directions. */
export function entityGraph(db: SqlReader, name: string, agentId = 'default'): EntityGraph {
  const e = db.get<{ id: string; name: string; canonical_name: string; entity_type: string; mentions: number; pinned: number; description: string | null }>(
    'SELECT id, name, canonical_name, entity_type, mentions, pinned, description FROM entities WHERE agent_id = ? AND canonical_name = ? ORDER BY scope IS NULL DESC LIMIT 1',
    [agentId, canonicalName(name)]);
  if (!e) throw new MemoryError('E_NOT_FOUND', `No entity named '${name}'.`);
  const aspects = db.all<{ id: string; name: string; weight: number }>('SELECT id, name, weight FROM entity_aspects WHERE entity_id = ? ORDER BY weight DESC, name', [e.id]);
  const attrs = db.all<{ id: string; aspect_id: string; kind: string; content: string; status: string; group_key: string | null; claim_key: string | null; superseded_by: string | null; memory_id: string | null; confidence: number; importance: number; created_at: string }>(
    `SELECT id, aspect_id, kind, content, status, group_key, claim_key, superseded_by, memory_id, confidence, importance, created_at
       FROM entity_attributes WHERE entity_id = ? ORDER BY created_at, rowid`, [e.id]);
  const rels = db.all<{ id: string; source_entity_id: string; target_entity_id: string; relation_type: string; mentions: number; confidence: number; strength: number; metadata: string | null; other_name: string }>(
    `SELECT r.id, r.source_entity_id, r.target_entity_id, r.relation_type, r.mentions, r.confidence, r.strength, r.metadata,
            o.name AS other_name
       FROM relations r JOIN entities o ON o.id = CASE WHEN r.source_entity_id = ? THEN r.target_entity_id ELSE r.source_entity_id END
      WHERE r.source_entity_id = ? OR r.target_entity_id = ? ORDER BY r.mentions DESC, r.relation_type`, [e.id, e.id, e.id]);
  const instruction = (m: string | null): string => {
    try { const v = m ? (JSON.parse(m) as { instruction?: unknown }) : {}; return typeof v.instruction === 'string' ? v.instruction : ''; } catch { return ''; }
  };
  return {
    entity: { id: e.id, name: e.name, canonicalName: e.canonical_name, type: e.entity_type, mentions: e.mentions, pinned: e.pinned !== 0, description: e.description },
    aspects: aspects.map((a) => ({
      ...a,
      attributes: attrs.filter((x) => x.aspect_id === a.id).map((x) => ({
        id: x.id, kind: x.kind, content: x.content, status: x.status, groupKey: x.group_key, claimKey: x.claim_key, supersededBy: x.superseded_by,
        memoryId: x.memory_id, confidence: x.confidence, importance: x.importance, createdAt: x.created_at,
      })),
    })),
    relations: rels.map((r) => {
      const out = r.source_entity_id === e.id;
      return { id: r.id, direction: out ? 'out' : 'in', type: r.relation_type, other: { id: out ? r.target_entity_id : r.source_entity_id, name: r.other_name },
        mentions: r.mentions, confidence: r.confidence, strength: r.strength, instruction: instruction(r.metadata) };
    }),
  };
}

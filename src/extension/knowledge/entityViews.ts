/**
 * The Knowledge panel's entity list, entity detail and counts as protocol views. The SQL is in
 * src/core/graph/knowledgeQueries.ts; this module shapes its rows (names and types defaulted,
 * weights and confidences clamped, attributes grouped per aspect with currentness notes).
 * Pinning, health and feedback stats come from their modules (see storeKnowledgeSource.ts).
 */
import { countEntities, entityPage, knowledgeTableCounts, listEntityTypes, readEntityStructure, readReplacements } from '../../core/graph/knowledgeQueries';
import type { EntityAttributeRow, EntityListRow, ReplacementRow } from '../../core/graph/knowledgeQueries';
import { teamMarks } from '../../core/team/teamMarks';
import type { TeamMark } from '../../core/team/teamMarks';
import type { SqlReader } from '../../core/store/storeTypes';
import type {
  AspectView, AttributeStatus, AttributeView, EntityDetail, EntityHealthView, EntitySummary, KnowledgeCounts, RelationView,
} from '../../shared/knowledgeProtocolTypes';
import type { EntityListQuery, EntityPage } from './knowledgeDataSource';

export type HealthLookup = (entityId: string) => EntityHealthView | null;

function toSummary(r: EntityListRow, health: HealthLookup): EntitySummary {
  return {
    id: r.id, name: r.name || r.id, type: r.entityType || 'unknown', pinned: r.pinned, pinnedAt: r.pinned ? r.pinnedAt : null,
    mentions: Math.max(0, r.mentions), aspects: r.aspects, attributes: r.attributes, constraints: r.constraints, relations: r.relations,
    health: health(r.id),
  };
}

/** One page of entities matching a name substring (case-insensitive, LIKE-escaped) and a type. */
/** `types` defaults to listEntityTypes; the data source passes a cached one. */
export function listEntityPage(
  db: SqlReader, agentId: string, q: EntityListQuery, health: HealthLookup,
  types: () => string[] = () => listEntityTypes(db, agentId),
  /** Totals per (type, query) for the current store version, filled on first use. */
  totals: Map<string, number> = new Map(),
): EntityPage {
  const key = `${q.entityType ?? ''}\u0000${q.query.trim().toLowerCase()}`;
  let total = totals.get(key);
  if (total === undefined) {
    total = countEntities(db, agentId, q);
    totals.set(key, total);
  }
  return { entities: entityPage(db, agentId, q).map((r) => toSummary(r, health)), total, types: types() };
}

function clamp01(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

const short = (s: string): string => (s.length > 160 ? s.slice(0, 159) + '…' : s);
const day = (iso: string | null | undefined): string => (iso ? iso.slice(0, 10) : 'an unknown date');
/** The value of a keyed claim (`SHORT_BOOK_PAGES = 220` → `220`); the whole text otherwise. */
export const claimValue = (content: string): string => /^[^=]{1,200} = (.+)$/.exec(content)?.[1] ?? short(content);

/**
 * Structured currentness (docs/vscode.md, "Current facts"): the current claim with the date it
 * holds since and the values it replaced ("220 since 2026-09-18; was 180 (2026-08-04)"); a replaced
 * claim with when it held and what holds now. A replacement may be another memory's claim row
 * (a whole memory superseded), not on this entity: `elsewhere` has those.
 */
function currentnessNote(a: EntityAttributeRow, byId: ReadonlyMap<string, EntityAttributeRow>, replaces: ReadonlyMap<string, EntityAttributeRow>, elsewhere: ReadonlyMap<string, ReplacementRow>): string | null {
  if (a.status === 'superseded') {
    const by = a.supersededBy ? byId.get(a.supersededBy) ?? elsewhere.get(a.supersededBy) : undefined;
    if (by) return `Was current from ${day(a.observedAt)} until ${day(by.observedAt)}; now: ${short(by.content)}`;
    return a.supersededBy ? `Was current from ${day(a.observedAt)}; replaced by a newer claim.` : `Was current from ${day(a.observedAt)}; its memory was deleted or marked wrong.`;
  }
  if (a.status === 'deleted') return 'Deleted.';
  const history: string[] = [];
  const seen = new Set<string>([a.id]);
  for (let old = replaces.get(a.id); old && !seen.has(old.id) && history.length < 5; old = replaces.get(old.id)) {
    seen.add(old.id);
    history.push(`${claimValue(old.content)} (${day(old.observedAt)})`);
  }
  return history.length ? `${claimValue(a.content)} since ${day(a.observedAt)}; was ${history.join(', before that ')}` : null;
}

function toAttribute(a: EntityAttributeRow, byId: ReadonlyMap<string, EntityAttributeRow>, replaces: ReadonlyMap<string, EntityAttributeRow>, marks: ReadonlyMap<string, TeamMark>, elsewhere: ReadonlyMap<string, ReplacementRow>): AttributeView {
  const status: AttributeStatus = a.status === 'superseded' || a.status === 'deleted' ? a.status : 'active';
  const team = a.memoryId ? marks.get(a.memoryId) : undefined;
  return {
    id: a.id, kind: a.kind === 'constraint' ? 'constraint' : 'attribute', status, importance: clamp01(a.importance),
    content: a.content, supersededBy: a.supersededBy, currentnessNote: currentnessNote(a, byId, replaces, elsewhere),
    observedAt: a.observedAt, source: a.source && a.source.trim() !== a.content.trim() ? a.source : null,
    team: team ? { author: team.author, mine: team.mine } : null,
  };
}

/** An entity with its aspects (heaviest first), attributes, and relations both ways; null when absent. */
export function readEntityDetail(db: SqlReader, agentId: string, id: string, health: HealthLookup): EntityDetail | null {
  const s = readEntityStructure(db, agentId, id);
  if (!s) return null;
  const byId = new Map(s.attributes.map((a) => [a.id, a]));
  const replaces = new Map<string, EntityAttributeRow>();
  for (const a of s.attributes) if (a.supersededBy && byId.has(a.supersededBy)) replaces.set(a.supersededBy, a);
  const elsewhere = readReplacements(db, [...new Set(s.attributes.flatMap((a) => (a.supersededBy && !byId.has(a.supersededBy) ? [a.supersededBy] : [])))]);
  // Team memories and their author (docs/team.md "In VS Code"), one lookup for the entity.
  const marks = teamMarks(db, s.attributes.flatMap((a) => (a.memoryId ? [a.memoryId] : [])));
  const perAspect = new Map<string, AttributeView[]>();
  const unassigned: AttributeView[] = [];
  const aspectIds = new Set(s.aspects.map((a) => a.id));
  for (const a of s.attributes) {
    const view = toAttribute(a, byId, replaces, marks, elsewhere);
    if (a.aspectId && aspectIds.has(a.aspectId)) {
      const list = perAspect.get(a.aspectId) ?? [];
      list.push(view);
      perAspect.set(a.aspectId, list);
    } else {
      unassigned.push(view);
    }
  }
  const aspectViews: AspectView[] = s.aspects.map((a) => ({ id: a.id, name: a.name, weight: clamp01(a.weight), updatedAt: a.updatedAt, attributes: perAspect.get(a.id) ?? [] }));
  const relationViews: RelationView[] = s.relations.map((r) => ({
    id: r.id, direction: r.direction, relationType: r.relationType || 'related_to', otherId: r.otherId,
    otherName: r.otherName || r.otherId, strength: Math.max(0, r.strength), confidence: clamp01(r.confidence), mentions: Math.max(0, r.mentions),
  }));
  const e = s.entity;
  return {
    summary: toSummary(e, health), canonicalName: e.canonicalName || e.name, description: e.description || null, updatedAt: e.updatedAt,
    aspects: aspectViews, unassigned, relations: relationViews,
  };
}

/** Table counts for the stats card (live memories; active entities; active attributes). */
export function readCounts(db: SqlReader, agentId: string): KnowledgeCounts {
  return knowledgeTableCounts(db, agentId);
}

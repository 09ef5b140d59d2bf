/**
 * The graph tree's nodes, read from the store: a Pinned section, then entities grouped by type;
 * an entity expands to its aspects (by weight) and a Relations group; an aspect to its attributes.
 * vscode-free (the provider in graphTree.ts turns nodes into TreeItems); the SQL is in
 * src/core/graph/entityTreeQueries.ts.
 */
import { listEntities } from '../../core/graph/graphQueries';
import type { EntitySummary } from '../../core/graph/graphQueries';
import { aspectAttributes, aspectsWithCounts, entityHoverCounts, entityRelationCount, entityRelationEdges } from '../../core/graph/entityTreeQueries';
import type { EntityHoverCounts } from '../../core/graph/entityTreeQueries';
import type { SqlReader } from '../../core/store/storeTypes';
import { AGENT_ID } from '../actions/memoryActions';
import { snippet } from '../chat/recallFormat';
import { entityTypeIcon } from '../../../webview/entityTypeIcons';
import { teamMarks } from '../../core/team/teamMarks';
import type { TeamMark } from '../../core/team/teamMarks';
import { teamMarkLabel, teamMarkSentence } from '../../../webview/teamMarkText';
import { readEntityDetail } from '../knowledge/entityViews';
import type { AttributeView } from '../../shared/knowledgeProtocolTypes';

/** Entities the tree lists at most (the Knowledge panel's list scales further). */
export const TREE_MAX_ENTITIES = 5_000;
/** Id of the Pinned section while it holds entities. */
export const PINNED_SECTION_ID = 'pinned';
/** Attribute text shown in a tree label. */
export const TREE_LABEL_CHARS = 80;

export type GraphNode =
  | { readonly kind: 'section'; readonly id: string; readonly label: string; readonly description: string; readonly tooltip: string; readonly icon: string; readonly entities: readonly EntitySummary[] }
  | { readonly kind: 'entity'; readonly id: string; readonly entityId: string; readonly label: string; readonly description: string; readonly pinned: boolean; readonly type: string; readonly icon: string }
  | { readonly kind: 'aspect'; readonly id: string; readonly entityId: string; readonly aspectId: string; readonly label: string; readonly description: string }
  | { readonly kind: 'attribute'; readonly id: string; readonly label: string; readonly description: string; readonly tooltip: string; readonly memoryId: string | null; readonly entityId: string; readonly icon: string; readonly team: TeamMark | null }
  | { readonly kind: 'relations'; readonly id: string; readonly entityId: string; readonly label: string; readonly description: string }
  | { readonly kind: 'relation'; readonly id: string; readonly label: string; readonly description: string; readonly otherId: string; readonly entityId: string };

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

export function entityNode(e: EntitySummary, parent: string): GraphNode {
  return {
    kind: 'entity', id: `${parent}/e:${e.id}`, entityId: e.id, label: e.name, description: `${e.type} · ${plural(e.mentions, 'mention')}${e.pinned ? ' · pinned' : ''}`,
    pinned: e.pinned, type: e.type, icon: entityTypeIcon(e.type).name,
  };
}

/** A current fact as the hover shows it: its value line, since when, and the sentence it came from. */
export interface CurrentFact {
  readonly content: string;
  /** "220 since 2026-08-29; was 180 (2026-08-04)" when it replaced older values, else null. */
  readonly note: string | null;
  readonly observedAt: string | null;
  readonly source: string | null;
}

/** What an entity's hover says (read when the pointer rests on it). */
export type EntityTooltipFacts = EntityHoverCounts & {
  /** Current facts, those that replaced older values first (at most HOVER_FACTS). */
  readonly current?: readonly CurrentFact[];
  /** Older values kept as history. */
  readonly history?: number;
};

/** Current facts a hover lists. */
export const HOVER_FACTS = 5;

const day = (iso: string | null): string => (iso ? iso.slice(0, 10) : 'an unknown date');

/**
 * The entity's attributes as the Knowledge panel's detail shapes them (entityViews.ts: currentness
 * notes, dates, sources), current first (newest first), then the superseded ones as history.
 */
function attributeViews(db: SqlReader, entityId: string): AttributeView[] {
  const detail = readEntityDetail(db, AGENT_ID, entityId, () => null);
  return detail ? [...detail.aspects.flatMap((a) => a.attributes), ...detail.unassigned] : [];
}

function currentFirst(views: readonly AttributeView[]): AttributeView[] {
  const newest = (a: AttributeView, b: AttributeView): number => (b.observedAt ?? '').localeCompare(a.observedAt ?? '');
  const current = views.filter((v) => v.status === 'active').sort((a, b) => Number(b.currentnessNote !== null) - Number(a.currentnessNote !== null) || newest(a, b));
  return [...current, ...views.filter((v) => v.status !== 'active').sort(newest)];
}

export function entityTooltipFacts(db: SqlReader, entityId: string): EntityTooltipFacts | undefined {
  const counts = entityHoverCounts(db, entityId);
  if (!counts) return undefined;
  const views = currentFirst(attributeViews(db, entityId));
  const current = views.filter((v) => v.status === 'active').slice(0, HOVER_FACTS)
    .map((v) => ({ content: v.content, note: v.currentnessNote, observedAt: v.observedAt, source: v.source }));
  return { ...counts, current, history: views.filter((v) => v.status === 'superseded').length };
}

/** Markdown-escapes text for a hover (names come from memories). */
function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/**
 * The hover of an entity: its name, then type, mentions, aspects, attributes, relations and pin
 * state; then what is current now, each fact with its date and source, values it replaced as
 * history ("220 since 2026-08-29; was 180 (2026-08-04)"), as the panel's entity detail shows them.
 */
export function entityTooltipMarkdown(f: EntityTooltipFacts): string {
  const lines = [
    `**${md(f.name)}**`,
    '',
    `${md(f.type)} · ${plural(f.mentions, 'mention')} · ${plural(f.aspects, 'aspect')} · ${plural(f.attributes, 'attribute')} · ${plural(f.relations, 'relation')}`,
    '',
    f.pinned ? 'Pinned: always focal in recall.' : 'Not pinned.',
  ];
  if (f.current?.length) {
    lines.push('', '**Current**', '');
    for (const c of f.current) {
      const head = c.note ? `${md(snippet(c.content, TREE_LABEL_CHARS))}: ${md(c.note)}` : `${md(snippet(c.content, TREE_LABEL_CHARS))} (since ${day(c.observedAt)})`;
      lines.push(`- ${head}${c.source ? ` — from "${md(snippet(c.source, TREE_LABEL_CHARS))}"` : ''}`);
    }
  }
  if (f.history) lines.push('', `${plural(f.history, 'older value')} kept as history (expand the entity).`);
  return lines.join('\n');
}

/** Root nodes; [] when the graph is empty (the view then shows its welcome content). */
export function rootNodes(db: SqlReader): GraphNode[] {
  // Like the Knowledge panel's list, the tree leaves out entities with nothing attached (a search in the panel finds them).
  const all = listEntities(db, { agentId: AGENT_ID, limit: TREE_MAX_ENTITIES, withKnowledge: true });
  if (all.length === 0) return [];
  const roots: GraphNode[] = [];
  const pinned = all.filter((e) => e.pinned);
  // A distinct id once pins exist, so VS Code shows the section expanded instead of keeping the empty one's state.
  // Short descriptions (a narrow sidebar cuts them); the advice is in the tooltip.
  roots.push({
    kind: 'section', id: pinned.length ? PINNED_SECTION_ID : `${PINNED_SECTION_ID}:none`, label: 'Pinned', icon: 'pinned', entities: pinned,
    description: pinned.length ? plural(pinned.length, 'entity', 'entities') : 'none',
    tooltip: pinned.length ? `${plural(pinned.length, 'pinned entity', 'pinned entities')}: always focal in recall.` : 'No pinned entities. Pin one (the pin on its row) to keep it focal in every recall.',
  });
  const byType = new Map<string, EntitySummary[]>();
  for (const e of all) {
    const list = byType.get(e.type) ?? [];
    list.push(e);
    byType.set(e.type, list);
  }
  for (const type of [...byType.keys()].sort()) {
    const list = byType.get(type) ?? [];
    roots.push({ kind: 'section', id: `type:${type}`, label: type, description: String(list.length), tooltip: `${plural(list.length, `${type} entity`, `${type} entities`)}`, icon: entityTypeIcon(type).name, entities: list });
  }
  return roots;
}

export function entityChildren(db: SqlReader, entityId: string, parent: string): GraphNode[] {
  const nodes: GraphNode[] = aspectsWithCounts(db, entityId).map((a) => ({
    kind: 'aspect', id: `${parent}/a:${a.id}`, entityId, aspectId: a.id, label: a.name, description: `weight ${a.weight.toFixed(2)} · ${plural(a.activeAttributes, 'attribute')}`,
  }));
  const rel = entityRelationCount(db, entityId);
  if (rel > 0) nodes.push({ kind: 'relations', id: `${parent}/relations`, entityId, label: 'Relations', description: String(rel) });
  return nodes;
}

/** Attribute icons: a plain note; a teammate's memory (team replica); this store's own shared memory. */
export const ATTRIBUTE_ICONS = { personal: 'note', team: 'organization', sharedByMe: 'cloud-upload', history: 'history' } as const;

/**
 * What an attribute row says beside its text: a current fact its date and the values it replaced
 * ("220 since 2026-08-29; was 180 (2026-08-04)"), an old one that it is history and until when.
 */
export function attributeDescription(v: AttributeView): string {
  const kind = v.kind === 'constraint' ? 'constraint · ' : '';
  if (v.status === 'active') return `${kind}${v.currentnessNote ?? `since ${day(v.observedAt)}`}`;
  if (v.status === 'superseded') return `${kind}history · ${v.currentnessNote ?? `from ${day(v.observedAt)}`}`;
  return `${kind}deleted`;
}

/** An attribute's hover text: the fact, its currentness, its date and the sentence it came from. */
export function attributeTooltip(v: AttributeView): string {
  const lines = [v.content];
  if (v.currentnessNote) lines.push('', v.currentnessNote);
  lines.push('', `${v.status === 'active' ? 'Current' : v.status === 'superseded' ? 'History (superseded)' : 'Deleted'}; stated ${day(v.observedAt)}.`);
  if (v.source) lines.push('', `Source: ${snippet(v.source, 400)}`);
  return lines.join('\n');
}

export function aspectChildren(db: SqlReader, aspectId: string, entityId: string, parent: string): GraphNode[] {
  const rows = new Map(aspectAttributes(db, aspectId).map((x) => [x.id, x]));
  // Current facts first, then the older values as history, shaped like the panel's detail.
  const views = currentFirst(attributeViews(db, entityId).filter((v) => rows.has(v.id)));
  // Team memories and their author (docs/team.md "In VS Code"): one lookup for the aspect's memories.
  const marks = teamMarks(db, [...rows.values()].flatMap((x) => (x.memoryId ? [x.memoryId] : [])));
  return views.map((v) => {
    const memoryId = rows.get(v.id)?.memoryId ?? null;
    const team = memoryId ? marks.get(memoryId) ?? null : null;
    return {
      kind: 'attribute', id: `${parent}/t:${v.id}`, entityId, memoryId, label: snippet(v.content, TREE_LABEL_CHARS),
      description: `${attributeDescription(v)}${team ? ` · ${teamMarkLabel(team)}` : ''}`,
      tooltip: team ? `${attributeTooltip(v)}\n\n${teamMarkSentence(team)}` : attributeTooltip(v),
      icon: team ? (team.mine ? ATTRIBUTE_ICONS.sharedByMe : ATTRIBUTE_ICONS.team) : v.status === 'active' ? ATTRIBUTE_ICONS.personal : ATTRIBUTE_ICONS.history, team,
    };
  });
}

export function relationChildren(db: SqlReader, entityId: string, parent: string): GraphNode[] {
  return entityRelationEdges(db, entityId).map((r) => {
    const out = r.sourceEntityId === entityId;
    return {
      kind: 'relation', id: `${parent}/r:${r.id}`, entityId, otherId: out ? r.targetEntityId : r.sourceEntityId,
      label: `${out ? '→' : '←'} ${r.relationType.replace(/_/g, ' ')} ${r.otherName}`, description: `${plural(r.mentions, 'mention')} · strength ${r.strength.toFixed(2)}`,
    };
  });
}

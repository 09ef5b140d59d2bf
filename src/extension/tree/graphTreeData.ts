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

/** What an entity's hover says (read when the pointer rests on it). */
export type EntityTooltipFacts = EntityHoverCounts;

export function entityTooltipFacts(db: SqlReader, entityId: string): EntityTooltipFacts | undefined {
  return entityHoverCounts(db, entityId);
}

/** Markdown-escapes text for a hover (names come from memories). */
function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** The hover of an entity: its name, then type, mentions, aspects, attributes, relations and pin state. */
export function entityTooltipMarkdown(f: EntityTooltipFacts): string {
  return [
    `**${md(f.name)}**`,
    '',
    `${md(f.type)} · ${plural(f.mentions, 'mention')} · ${plural(f.aspects, 'aspect')} · ${plural(f.attributes, 'attribute')} · ${plural(f.relations, 'relation')}`,
    '',
    f.pinned ? 'Pinned: always focal in recall.' : 'Not pinned.',
  ].join('\n');
}

/** Root nodes; [] when the graph is empty (the view then shows its welcome content). */
export function rootNodes(db: SqlReader): GraphNode[] {
  const all = listEntities(db, { agentId: AGENT_ID, limit: TREE_MAX_ENTITIES });
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
export const ATTRIBUTE_ICONS = { personal: 'note', team: 'organization', sharedByMe: 'cloud-upload' } as const;

export function aspectChildren(db: SqlReader, aspectId: string, entityId: string, parent: string): GraphNode[] {
  const rows = aspectAttributes(db, aspectId);
  // Team memories and their author (docs/team.md "In VS Code"): one lookup for the aspect's memories.
  const marks = teamMarks(db, rows.flatMap((x) => (x.memoryId ? [x.memoryId] : [])));
  return rows.map((x) => {
    const team = x.memoryId ? marks.get(x.memoryId) ?? null : null;
    return {
      kind: 'attribute', id: `${parent}/t:${x.id}`, entityId, memoryId: x.memoryId, label: snippet(x.content, TREE_LABEL_CHARS),
      description: `${x.kind}${x.status === 'active' ? '' : ` · ${x.status}`} · importance ${x.importance.toFixed(2)}${team ? ` · ${teamMarkLabel(team)}` : ''}`,
      tooltip: team ? `${x.content}\n\n${teamMarkSentence(team)}` : x.content,
      icon: team ? (team.mine ? ATTRIBUTE_ICONS.sharedByMe : ATTRIBUTE_ICONS.team) : ATTRIBUTE_ICONS.personal, team,
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

/**
 * The Knowledge Graph tree view: Pinned, then entities by type → aspects → attributes, with
 * relations under each entity. Inline pin/unpin (menus on contextValue), a context menu (open in
 * the Knowledge panel, recall about, forget, copy), refresh on every store change (also another
 * window's), and the welcome view (contributes.viewsWelcome) while the graph is empty.
 */
import * as vscode from 'vscode';
import { userMessage } from '../../core/errors';
import { aspectChildren, entityChildren, entityNode, entityTooltipFacts, entityTooltipMarkdown, PINNED_SECTION_ID, relationChildren, rootNodes } from './graphTreeData';
import type { GraphNode } from './graphTreeData';
import type { Services } from '../host/services';

export type { GraphNode } from './graphTreeData';

export const GRAPH_VIEW_ID = 'agentMemory.graph';
/** Reveals an entity in the tree (the Knowledge panel's "show in tree"). */
export const REVEAL_IN_TREE_COMMAND = 'agentMemory.revealEntityInGraph';
/** Write labels that never change the graph (job leases, recall bookkeeping, transcripts): no refresh for them. */
export const NON_GRAPH_LABELS: ReadonlySet<string> = new Set(['jobs.lease', 'hints-lease', 'recall', 'session-turn', 'maintenance-lease']);
/** Store changes closer together than this refresh the tree once. */
export const TREE_REFRESH_DEBOUNCE_MS = 150;

const COLLAPSED = vscode.TreeItemCollapsibleState.Collapsed;
const NONE = vscode.TreeItemCollapsibleState.None;

export class GraphTreeProvider implements vscode.TreeDataProvider<GraphNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<GraphNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly sub: vscode.Disposable;
  private lastRoots: GraphNode[] = [];

  constructor(private readonly services: Services) {
    this.sub = services.onDidChangeData((change) => {
      if (change && change.labels.every((l) => NON_GRAPH_LABELS.has(l))) return;
      this.scheduleRefresh();
    });
  }

  refresh(): void { this.changed.fire(undefined); }

  getTreeItem(node: GraphNode): vscode.TreeItem {
    switch (node.kind) {
      case 'section': {
        const pinnedSection = node.id.startsWith(PINNED_SECTION_ID);
        const item = new vscode.TreeItem(node.label, node.entities.length ? (pinnedSection ? vscode.TreeItemCollapsibleState.Expanded : COLLAPSED) : NONE);
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.tooltip = node.tooltip;
        item.contextValue = 'section';
        return this.finish(item, node);
      }
      case 'entity': {
        const item = new vscode.TreeItem(node.label, COLLAPSED);
        // One icon per type (webview/entityTypeIcons.ts); the pin shows in the description and the inline action.
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.contextValue = node.pinned ? 'entity.pinned' : 'entity';
        // The rich hover is read in resolveTreeItem, when the pointer rests on the entity.
        return this.finish(item, node);
      }
      case 'aspect': {
        const item = new vscode.TreeItem(node.label, COLLAPSED);
        item.iconPath = new vscode.ThemeIcon('symbol-field');
        item.contextValue = 'aspect';
        return this.finish(item, node);
      }
      case 'attribute': {
        const item = new vscode.TreeItem(node.label, NONE);
        item.tooltip = node.tooltip;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.contextValue = node.memoryId ? 'attribute.withMemory' : 'attribute';
        return this.finish(item, node);
      }
      case 'relations': {
        const item = new vscode.TreeItem(node.label, COLLAPSED);
        item.iconPath = new vscode.ThemeIcon('references');
        item.contextValue = 'relations';
        return this.finish(item, node);
      }
      case 'relation': {
        const item = new vscode.TreeItem(node.label, NONE);
        item.iconPath = new vscode.ThemeIcon('arrow-swap');
        item.contextValue = 'relation';
        return this.finish(item, node);
      }
    }
  }

  /**
   * The entity hover (type, mentions, aspects, attributes, relations, pin state) as Markdown: VS
   * Code shows a Markdown tooltip in its hover widget beside the row, not over the name.
   */
  async resolveTreeItem(item: vscode.TreeItem, node: GraphNode): Promise<vscode.TreeItem> {
    if (node.kind !== 'entity') return item;
    try {
      const rt = await this.services.runtime();
      const facts = rt.store.read((db) => entityTooltipFacts(db, node.entityId));
      if (facts) item.tooltip = new vscode.MarkdownString(entityTooltipMarkdown(facts));
    } catch (e) {
      this.services.logger.warn(`graph tree: ${userMessage(e)}`);
    }
    return item;
  }

  async getChildren(node?: GraphNode): Promise<GraphNode[]> {
    try {
      const rt = await this.services.runtime();
      return rt.store.read((db) => {
        if (!node) return (this.lastRoots = rootNodes(db));
        switch (node.kind) {
          case 'section': return node.entities.map((e) => entityNode(e, node.id));
          case 'entity': return entityChildren(db, node.entityId, node.id);
          case 'aspect': return aspectChildren(db, node.aspectId, node.entityId, node.id);
          case 'relations': return relationChildren(db, node.entityId, node.id);
          default: return [];
        }
      });
    } catch (e) {
      this.services.logger.warn(`graph tree: ${userMessage(e)}`);
      return [];
    }
  }

  getParent(node: GraphNode): GraphNode | undefined {
    if (node.kind !== 'entity') return undefined;
    const sectionId = node.id.slice(0, node.id.lastIndexOf('/e:'));
    return this.lastRoots.find((r) => r.id === sectionId);
  }

  /** The entity's node in its type section (for reveal). */
  async findEntity(entityId: string): Promise<GraphNode | undefined> {
    const roots = await this.getChildren();
    for (const r of roots) {
      if (r.kind !== 'section' || r.id.startsWith(PINNED_SECTION_ID)) continue;
      const e = r.entities.find((x) => x.id === entityId);
      if (e) return entityNode(e, r.id);
    }
    return undefined;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.sub.dispose();
    this.changed.dispose();
  }

  private finish(item: vscode.TreeItem, node: GraphNode): vscode.TreeItem {
    item.id = node.id;
    item.description = node.description;
    return item;
  }

  private scheduleRefresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), TREE_REFRESH_DEBOUNCE_MS);
  }
}

export function registerGraphTree(context: vscode.ExtensionContext, services: Services): GraphTreeProvider {
  const provider = new GraphTreeProvider(services);
  const view = vscode.window.createTreeView(GRAPH_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(
    provider, view,
    vscode.commands.registerCommand('agentMemory.refreshGraph', () => provider.refresh()),
    vscode.commands.registerCommand(REVEAL_IN_TREE_COMMAND, async (entityId: unknown) => {
      if (typeof entityId !== 'string') return;
      const node = await provider.findEntity(entityId);
      if (node) await view.reveal(node, { select: true, focus: true, expand: true });
      else await vscode.commands.executeCommand(`${GRAPH_VIEW_ID}.focus`);
    }),
  );
  return provider;
}

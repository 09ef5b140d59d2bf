import * as vscode from 'vscode';
import type { Services } from './services';

export const GRAPH_VIEW_ID = 'agentMemory.graph';

/** A node of the knowledge-graph tree. */
export interface GraphNode {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly children?: readonly GraphNode[];
}

/**
 * Tree of the knowledge graph. Until entities exist it returns no children, which makes
 * VS Code show the view's welcome content (contributes.viewsWelcome).
 */
export class GraphTreeProvider implements vscode.TreeDataProvider<GraphNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<GraphNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly load: () => readonly GraphNode[]) {}

  refresh(): void { this.changed.fire(undefined); }

  getTreeItem(node: GraphNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, node.children?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.description;
    return item;
  }

  getChildren(node?: GraphNode): GraphNode[] {
    return [...(node ? node.children ?? [] : this.load())];
  }

  dispose(): void { this.changed.dispose(); }
}

export function registerGraphTree(context: vscode.ExtensionContext, _services: Services): GraphTreeProvider {
  const provider = new GraphTreeProvider(() => []);
  const view = vscode.window.createTreeView(GRAPH_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(provider, view, vscode.commands.registerCommand('agentMemory.refreshGraph', () => provider.refresh()));
  return provider;
}

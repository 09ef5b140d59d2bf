/**
 * VS Code side of the Knowledge panel: the webview view in the Memory container, the same panel
 * as an editor tab (restored after a reload by a serializer), and the commands that open it or
 * show an entity in it. All message handling lives in the vscode-free KnowledgeController.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../host/services';
import { knowledgeHtml } from './knowledgeHtml';
import { KnowledgeController } from './knowledgeController';
import type { KnowledgeActions, RecallExplanationView } from './knowledgeController';
import type { KnowledgeDataSource } from './knowledgeDataSource';
import { SwitchableKnowledgeSource } from './switchableSource';
import { CapturesController } from './capturesController';
import type { CapturesSource } from './capturesController';
import { EngineCapturesSource } from './engineCapturesSource';
import { PANEL_CONFIG } from '../../../webview/panelConfig';
import { ReviewController } from './reviewController';
import { engineReviewSource } from './engineReviewSource';

export const KNOWLEDGE_VIEW_ID = 'agentMemory.knowledge';
export const KNOWLEDGE_PANEL_TYPE = 'agentMemory.knowledgePanel';
export const OPEN_IN_EDITOR_COMMAND = 'agentMemory.openKnowledgePanelInEditor';
/** Shows an entity (by id) in the Knowledge panel; for the tree's context menu and other features. */
export const SHOW_ENTITY_COMMAND = 'agentMemory.showEntityInKnowledgePanel';
/** Command the graph tree registers to reveal an entity; when absent the tree view is focused. */
const REVEAL_IN_TREE_COMMAND = 'agentMemory.revealEntityInGraph';

/**
 * The panels of this window. activate() connects them to the store: `setDataSource(source)` for
 * each opened runtime, and `source.setOpenerBySideEffect(() => services.runtime())` so the panel's
 * first request opens the store.
 */
export class KnowledgePanels implements vscode.Disposable {
  readonly source = new SwitchableKnowledgeSource();
  /** Open panels and whether each is visible (hidden ones refresh when shown again). */
  private readonly controllers = new Map<KnowledgeController, () => boolean>();
  /** The Captured tab's host side of each panel (capturesController.ts), beside its KnowledgeController. */
  private readonly captures = new Map<KnowledgeController, CapturesController>();
  private readonly capturesSource: CapturesSource;
  /** The review part of each open panel (conflicts, merged-away notices: reviewController.ts). */
  private readonly reviews = new Map<ReviewController, () => boolean>();
  private viewController: KnowledgeController | undefined;
  private editorPanel: { panel: vscode.WebviewPanel; controller: KnowledgeController } | undefined;
  private pendingEntity: string | undefined;
  private pendingExplanation: RecallExplanationView | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly sourceListener: { dispose(): void };

  constructor(private readonly services: Services) {
    this.sourceListener = this.source.onDidChange(() => this.scheduleRefresh());
    this.capturesSource = new EngineCapturesSource(() => services.runtime());
  }

  /** Connects the panels to the store-backed data source (or another implementation). */
  setDataSource(source: KnowledgeDataSource): vscode.Disposable {
    this.source.set(source);
    this.scheduleRefresh();
    return new vscode.Disposable(() => this.source.clear(source));
  }

  resolveView(view: vscode.WebviewView): void {
    const controller = this.attach(view.webview, view.onDidDispose, () => view.visible, (c) => {
      if (this.viewController === c) this.viewController = undefined;
    });
    this.viewController = controller;
    view.onDidChangeVisibility(() => { if (view.visible) this.refreshOne(controller); });
  }

  /** Opens (or reveals) the panel as an editor tab. */
  openInEditor(): KnowledgeController {
    if (this.editorPanel) {
      this.editorPanel.panel.reveal();
      return this.editorPanel.controller;
    }
    const panel = vscode.window.createWebviewPanel(KNOWLEDGE_PANEL_TYPE, 'Knowledge', vscode.ViewColumn.Active, { retainContextWhenHidden: false, ...this.webviewOptions() });
    return this.adoptPanel(panel);
  }

  /** Takes over a panel restored by VS Code after a reload. */
  adoptPanel(panel: vscode.WebviewPanel): KnowledgeController {
    panel.iconPath = vscode.Uri.joinPath(this.services.extensionUri, 'media', 'memory.svg');
    const controller = this.attach(panel.webview, panel.onDidDispose, () => panel.visible, () => { this.editorPanel = undefined; });
    this.editorPanel = { panel, controller };
    panel.onDidChangeViewState(() => { if (panel.visible) this.refreshOne(controller); });
    return controller;
  }

  async showEntity(id: string): Promise<void> {
    const target = this.editorPanel?.panel.visible ? this.editorPanel.controller : this.viewController;
    if (target) {
      await target.showEntity(id);
      if (target === this.viewController) await vscode.commands.executeCommand(`${KNOWLEDGE_VIEW_ID}.focus`);
      return;
    }
    this.pendingEntity = id; // delivered when the view's webview says it is ready
    await vscode.commands.executeCommand(`${KNOWLEDGE_VIEW_ID}.focus`);
  }

  /**
   * Shows why a memory was recalled in the visible editor tab of the panel, else in the Memory
   * container's view (focused; delivered once its webview says it is ready when it was closed).
   */
  async showRecallExplanation(explanation: RecallExplanationView): Promise<void> {
    if (this.editorPanel?.panel.visible) {
      this.editorPanel.controller.showRecallExplanation(explanation);
      this.editorPanel.panel.reveal();
      return;
    }
    const view = this.viewController;
    // A hidden view's webview reloads when shown (no retained context): deliver after its 'ready'.
    if (view && this.controllers.get(view)?.()) {
      view.showRecallExplanation(explanation);
      await vscode.commands.executeCommand(`${KNOWLEDGE_VIEW_ID}.focus`);
      return;
    }
    this.pendingExplanation = explanation;
    await vscode.commands.executeCommand(`${KNOWLEDGE_VIEW_ID}.focus`);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.sourceListener.dispose();
    for (const c of this.controllers.keys()) c.dispose();
    for (const c of this.captures.values()) c.dispose();
    this.controllers.clear();
    this.captures.clear();
    this.editorPanel?.panel.dispose();
  }

  private webviewOptions(): vscode.WebviewOptions {
    const root = this.services.extensionUri;
    const font = codiconFont();
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(root, 'dist', 'webview'), vscode.Uri.joinPath(root, 'media'), ...(font ? [font.folder] : [])] };
  }

  private attach(webview: vscode.Webview, onDidDispose: vscode.Event<void>, isVisible: () => boolean, onDispose: (c: KnowledgeController) => void): KnowledgeController {
    const root = this.services.extensionUri;
    const font = codiconFont();
    webview.options = this.webviewOptions();
    webview.html = knowledgeHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview', 'knowledge.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', 'knowledge.css')).toString(),
      ...(font ? { codiconFontUri: webview.asWebviewUri(font.file).toString() } : {}),
    });
    const review = new ReviewController(engineReviewSource(() => this.services.runtime()), (m) => webview.postMessage(m), this.services.logger);
    this.reviews.set(review, isVisible);
    const controller = new KnowledgeController(this.source, (m) => { review.observe(m); return webview.postMessage(m); }, this.actions(), this.services.logger);
    const captures = new CapturesController(this.capturesSource, (m) => webview.postMessage(m), this.services.logger);
    // The first page goes out while VS Code still loads the webview (docs/knowledgePanelFirstOpen.md),
    // on a later timer than the one the extension host's RPC writer set for the HTML just given:
    // run now, opening the store would hold the HTML back in this process for that long.
    const prefetch = setTimeout(() => void controller.prefetchFirstPage(), 0);
    // Until the first rows show, the model warm-up waits (its CPU slowed VS Code's webview start).
    this.services.holdWarmUp(controller.whenShown());
    this.controllers.set(controller, isVisible);
    this.captures.set(controller, captures);
    const sub = webview.onDidReceiveMessage(async (raw: unknown) => {
      await controller.handle(raw);
      await captures.handle(raw);
      await review.handle(raw);
      if (this.pendingEntity !== undefined && isReady(raw) && controller === this.viewController) {
        const id = this.pendingEntity;
        this.pendingEntity = undefined;
        await controller.showEntity(id);
      }
      if (this.pendingExplanation !== undefined && isReady(raw) && controller === this.viewController) {
        const explanation = this.pendingExplanation;
        this.pendingExplanation = undefined;
        controller.showRecallExplanation(explanation);
      }
    });
    onDidDispose(() => {
      clearTimeout(prefetch);
      sub.dispose();
      controller.dispose();
      captures.dispose();
      this.controllers.delete(controller);
      this.captures.delete(controller);
      review.dispose();
      this.reviews.delete(review);
      onDispose(controller);
    });
    return controller;
  }

  private actions(): KnowledgeActions {
    return {
      openInTree: async (id) => {
        const commands = await vscode.commands.getCommands(true);
        if (commands.includes(REVEAL_IN_TREE_COMMAND)) await vscode.commands.executeCommand(REVEAL_IN_TREE_COMMAND, id);
        else await vscode.commands.executeCommand('agentMemory.graph.focus');
      },
      copyText: async (text) => {
        await vscode.env.clipboard.writeText(text);
        vscode.window.setStatusBarMessage('Copied to the clipboard', 2000);
      },
    };
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      for (const [c, visible] of this.controllers) if (visible()) this.refreshOne(c);
      for (const [r, visible] of this.reviews) if (visible()) void r.refresh();
    }, PANEL_CONFIG.refreshDebounceMs);
  }

  private refreshOne(controller: KnowledgeController): void {
    void controller.refresh();
    void this.captures.get(controller)?.refresh();
  }
}

function isReady(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready';
}

/**
 * Registers the view, the editor-tab serializer and the panel commands. Returns the panels so
 * activate() can connect the data source: `panels.setDataSource(new StoreKnowledgeSource({ store, ... }))`.
 */
export function registerKnowledgeView(context: vscode.ExtensionContext, services: Services, source?: KnowledgeDataSource): KnowledgePanels {
  const panels = new KnowledgePanels(services);
  if (source) context.subscriptions.push(panels.setDataSource(source));
  context.subscriptions.push(
    panels,
    vscode.window.registerWebviewViewProvider(KNOWLEDGE_VIEW_ID, { resolveWebviewView: (view) => panels.resolveView(view) }),
    vscode.window.registerWebviewPanelSerializer(KNOWLEDGE_PANEL_TYPE, {
      deserializeWebviewPanel: async (panel) => { panels.adoptPanel(panel); },
    }),
    vscode.commands.registerCommand(OPEN_IN_EDITOR_COMMAND, () => {
      // With the first-list line (knowledgeController.ts), says where a slow first open went.
      services.logger.info('Knowledge panel: opening in an editor tab');
      panels.openInEditor();
    }),
    vscode.commands.registerCommand(SHOW_ENTITY_COMMAND, async (id: unknown) => {
      if (typeof id === 'string' && id) await panels.showEntity(id);
      else if (isEntityNode(id)) await panels.showEntity(id.entityId);
    }),
  );
  return panels;
}

/** Tree nodes may pass themselves as the command argument; accept any `{ entityId }`. */
function isEntityNode(v: unknown): v is { entityId: string } {
  return typeof v === 'object' && v !== null && typeof (v as { entityId?: unknown }).entityId === 'string';
}

interface CodiconFont { readonly folder: vscode.Uri; readonly file: vscode.Uri }
let codicons: CodiconFont | null | undefined;

/**
 * VS Code's own codicon font (the workbench ships it in out/media of its app root), so the panel's
 * entity type icons are the same glyphs as the tree's without bundling a copy. Null where it is not
 * found (the panel then shows no type glyphs, only the type names).
 */
function codiconFont(): CodiconFont | null {
  if (codicons === undefined) {
    const folder = join(vscode.env.appRoot, 'out', 'media');
    codicons = existsSync(join(folder, 'codicon.ttf')) ? { folder: vscode.Uri.file(folder), file: vscode.Uri.file(join(folder, 'codicon.ttf')) } : null;
  }
  return codicons;
}

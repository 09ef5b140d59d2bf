/**
 * Services: what every register* function shares. Built in activate() without touching the disk;
 * the store, embedder and workers open on first use (`runtime()`), so activation stays fast.
 * Settings changes, workspace-trust grants and LLM consent rebuild the runtime without a reload.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { systemClock } from '../../core/clock';
import { userMessage } from '../../core/errors';
import type { HostContext, SecretStore } from '../../core/hostContext';
import { noProgress } from '../../core/hostContext';
import type { StoreChange } from '../../core/store/storeTypes';
import { settingsDelta } from '../../core/config/memorySettings';
import { readVsCodeSettings } from '../config/vscodeSettings';
import type { MemorySettings } from '../../core/config/memorySettings';
import { levelLogger } from './levelLogger';
import { askLlmConsent, resolveLlm } from '../llm/llmProvider';
import type { LlmChoice } from '../../core/llm/configuredLlm';
import { storeDirFor } from './storeDir';
import { vscodeSecretStore } from './vscodeSecrets';
import { MemoryEngine } from '../../core/engine/memoryEngine';
import { trustGates } from './trustGates';
import { WarmUpHolds } from './warmUpHolds';
import type { TrustGates } from './trustGates';
import { resolveExtractionConfig } from '../../core/config/extractionConfig';
import type { WorkspaceNames } from '../../core/config/extractionConfig';

export interface Services extends vscode.Disposable {
  readonly logger: vscode.LogOutputChannel;
  /** Paths, logger and clock as the core wants them; `llm` is the active client (undefined when off). */
  readonly host: HostContext;
  /** VS Code's SecretStorage as the core's SecretStore (the LLM API key, team passwords). */
  readonly secrets: SecretStore;
  readonly extensionUri: vscode.Uri;
  readonly context: vscode.ExtensionContext;
  settings(): MemorySettings;
  /** The open runtime, opening the store on first call. Rejects with a coded MemoryError. */
  runtime(): Promise<MemoryEngine>;
  /** The runtime if it is open already (never opens it). */
  current(): MemoryEngine | undefined;
  /** Whether captures (sessions, tool calls) are recorded: trusted workspace and agentMemory.capture.enabled. */
  captureEnabled(): boolean;
  /** What workspace trust and the settings allow right now (see trustGates). */
  trustGates(): TrustGates;
  /** The active LLM choice (for the status). */
  llmChoice(): LlmChoice;
  /** Store data changed (this window, another window, the CLI) or a different store was opened. */
  readonly onDidChangeData: vscode.Event<StoreChange | undefined>;
  /** A runtime was opened or rebuilt (new store, new pipeline). */
  readonly onDidOpenRuntime: vscode.Event<MemoryEngine>;
  /** Re-reads settings and re-resolves the language model (after consent, a new API key, trust). */
  reapply(): Promise<void>;
  /** The workspace gazetteer for extraction (gazetteer/workspaceGazetteer.ts); rebuilds the pipeline when it changed. */
  setWorkspaceNames(names: WorkspaceNames): void;
  /** Ends this window's sessions, stops the workers and closes the store (deactivate awaits it). */
  shutdown(): Promise<void>;
  /**
   * Holds the embedding model's warm-up after the store opens until `until` settles (at most
   * WARM_UP_HOLD_CAP_MS): a Knowledge panel holds it until its first list shows (issue #27).
   */
  holdWarmUp(until: Promise<unknown>): void;
}

/** The longest a hold delays the model warm-up (a webview that never says ready). */
export const WARM_UP_HOLD_CAP_MS = 10_000;

class ServicesImpl implements Services {
  readonly logger = vscode.window.createOutputChannel('Agent Memory', { log: true });
  /** What core services log through: the channel, filtered by agentMemory.log.level. */
  private readonly coreLogger = levelLogger(this.logger, () => this.currentSettings.logLevel);
  private current_: MemoryEngine | undefined;
  private opening: Promise<MemoryEngine> | undefined;
  private currentSettings: MemorySettings;
  private choice: LlmChoice = { client: undefined, description: 'not resolved yet' };
  private storeSub: { dispose(): void } | undefined;
  private readonly dataEmitter = new vscode.EventEmitter<StoreChange | undefined>();
  private readonly openEmitter = new vscode.EventEmitter<MemoryEngine>();
  private readonly subs: vscode.Disposable[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly warmUpHolds = new WarmUpHolds(WARM_UP_HOLD_CAP_MS);
  readonly onDidChangeData = this.dataEmitter.event;
  readonly onDidOpenRuntime = this.openEmitter.event;
  readonly secrets: SecretStore;

  constructor(readonly context: vscode.ExtensionContext) {
    this.secrets = vscodeSecretStore(context.secrets);
    this.currentSettings = this.readSettings();
    this.subs.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('agentMemory')) return;
        // Settings read per call (search, capture, confirmations) take effect at once; the runtime follows in order.
        const before = this.currentSettings;
        this.currentSettings = this.readSettings();
        const after = this.currentSettings;
        this.enqueue(() => this.applySettings(before, after));
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.enqueue(() => this.applySettings(this.currentSettings, this.currentSettings, true))),
      // A chat model that appears later (e.g. after signing in) becomes the client without a settings change.
      vscode.lm.onDidChangeChatModels(() => {
        if (this.currentSettings.llm.provider === 'vscode' && !this.choice.client) this.enqueue(() => this.applySettings(this.currentSettings, this.currentSettings, true));
      }),
    );
  }

  get extensionUri(): vscode.Uri { return this.context.extensionUri; }

  get host(): HostContext {
    return {
      paths: {
        storeDir: storeDirFor(this.currentSettings, this.context.globalStorageUri.fsPath),
        bundledModelsDir: path.join(this.context.extensionUri.fsPath, 'models'),
        cacheDir: path.join(this.context.globalStorageUri.fsPath, 'cache'),
      },
      logger: this.coreLogger,
      clock: systemClock,
      llm: this.choice.client,
      progress: noProgress,
      secrets: this.secrets,
    };
  }

  settings(): MemorySettings { return this.currentSettings; }
  current(): MemoryEngine | undefined { return this.current_; }
  llmChoice(): LlmChoice { return this.choice; }
  captureEnabled(): boolean { return this.trustGates().capture; }
  trustGates(): TrustGates {
    return trustGates({ trusted: vscode.workspace.isTrusted, captureEnabled: this.currentSettings.captureEnabled, llmProvider: this.currentSettings.llm.provider });
  }

  runtime(): Promise<MemoryEngine> {
    if (this.current_) return Promise.resolve(this.current_);
    this.opening ??= this.open().finally(() => { this.opening = undefined; });
    return this.opening;
  }

  async shutdown(): Promise<void> {
    const rt = this.current_ ?? (this.opening ? await this.opening.catch(() => undefined) : undefined);
    this.storeSub?.dispose();
    this.current_ = undefined;
    if (!rt) return;
    try {
      await rt.close();
    } catch (e) {
      // At window close the output channel may already be gone; the store stays consistent (journal).
      try { this.logger.warn(`closing the store: ${userMessage(e)}`); } catch { console.warn(`Agent Memory: closing the store: ${userMessage(e)}`); }
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.storeSub?.dispose();
    const rt = this.current_;
    this.current_ = undefined;
    if (rt) void rt.close().catch((e: unknown) => this.logger.warn(`closing the store: ${userMessage(e)}`));
    this.dataEmitter.dispose();
    this.openEmitter.dispose();
    this.logger.dispose();
  }

  holdWarmUp(until: Promise<unknown>): void {
    this.warmUpHolds.hold(until);
  }

  private workspaceNames: WorkspaceNames | undefined;

  private readSettings(): MemorySettings {
    const s = readVsCodeSettings((problem) => this.logger.warn(problem));
    return this.workspaceNames ? { ...s, extraction: resolveExtractionConfig({ ...s.extraction, workspace: this.workspaceNames }) } : s;
  }

  setWorkspaceNames(names: WorkspaceNames): void {
    this.workspaceNames = names;
    const before = this.currentSettings;
    this.currentSettings = this.readSettings();
    const after = this.currentSettings;
    this.enqueue(() => this.applySettings(before, after));
  }

  private async open(): Promise<MemoryEngine> {
    const started = Date.now();
    this.choice = await this.resolveLlm();
    const rt = await MemoryEngine.open(this.host, this.currentSettings, { mode: 'background', leaseLabel: 'window' });
    this.attach(rt);
    this.logger.info(`store open at ${rt.store.dir} in ${Date.now() - started} ms; extraction model: ${this.choice.description}`);
    // The first recall would otherwise wait for the model and the vector index to load (seconds).
    // Started on the next turn of the event loop: warm() loads the vector index synchronously, and
    // whoever waited for the store (the Knowledge panel's first list) goes first; and not while a
    // Knowledge panel is still loading, whose webview start it slowed (docs/knowledgePanelFirstOpen.md).
    const warmTimer = setTimeout(() => {
      const held = Date.now();
      const holds = this.warmUpHolds.size;
      void this.warmUpHolds.whenFree().then(() => {
        const warming = Date.now();
        const waited = holds > 0 ? ` (held ${warming - held} ms while a Knowledge panel loaded)` : '';
        return rt.warm().then(() => this.logger.info(`embedding model and vector index ready in ${Date.now() - warming} ms${waited}`));
      }).catch((e: unknown) => this.logger.debug(`warming the embedding model: ${userMessage(e)}`));
    }, 0);
    warmTimer.unref?.();
    const recovery = rt.store.recovery;
    if (recovery) {
      // The store repaired itself; say so once, with what was lost (docs/store.md, "Recovery").
      const lost = recovery.lossExact ? `${recovery.lostRecords} acknowledged write(s) lost` : 'some recent writes may be lost';
      void vscode.window.showWarningMessage(`Agent Memory repaired its store (${recovery.lostRecords === 0 && recovery.lossExact ? 'nothing lost' : lost}).`, 'Show Status')
        .then((pick) => { if (pick) void vscode.commands.executeCommand('agentMemory.showStatus'); });
    }
    return rt;
  }

  private attach(rt: MemoryEngine): void {
    this.storeSub?.dispose();
    this.current_ = rt;
    this.storeSub = rt.store.onDidChange((change) => this.dataEmitter.fire(change));
    this.openEmitter.fire(rt);
    this.dataEmitter.fire(undefined);
  }

  private resolveLlm(): Promise<LlmChoice> {
    return resolveLlm(this.currentSettings.llm, { trusted: this.trustGates().llmAllowed, state: this.context.globalState, secrets: this.secrets, logger: this.logger });
  }

  /** Serialises reconfigurations so two quick settings edits never race. */
  private enqueue(fn: () => Promise<void>): void {
    this.queue = this.queue.then(fn).catch((e: unknown) => {
      this.logger.error(`applying settings: ${userMessage(e)}`);
      void vscode.window.showErrorMessage(`Agent Memory: ${userMessage(e)}`);
    });
  }

  private async applySettings(before: MemorySettings, after: MemorySettings, forceLlm = false): Promise<void> {
    const delta = settingsDelta(before, after);
    if (delta.llm && after.llm.provider !== 'none' && after.llm.provider !== before.llm.provider) {
      if (!(await askLlmConsent(after.llm.provider, this.context.globalState))) return; // turned back off; a new change event follows
    }
    const rt = this.current_ ?? (this.opening ? await this.opening : undefined);
    if (!rt) return; // not open yet: the first use opens with these settings
    if (delta.store) {
      this.logger.info(`store path changed: reopening at ${storeDirFor(after, this.context.globalStorageUri.fsPath)}`);
      this.storeSub?.dispose();
      this.current_ = undefined;
      await rt.close();
      await this.runtime();
      return;
    }
    if (delta.pipeline || forceLlm) {
      this.choice = await this.resolveLlm();
      await rt.reconfigure(after, this.choice.client);
      this.logger.info(`settings applied; extraction model: ${this.choice.description}`);
      this.openEmitter.fire(rt);
      return;
    }
    rt.updateSettings(after);
    this.dataEmitter.fire(undefined);
  }

  reapply(): Promise<void> {
    this.enqueue(() => this.applySettings(this.currentSettings, this.currentSettings, true));
    return this.queue;
  }
}

export function createServices(context: vscode.ExtensionContext): Services {
  return new ServicesImpl(context);
}

/** Asks for consent for an already-configured provider (first run after enabling it elsewhere). */
export async function promptLlmConsentIfNeeded(services: Services): Promise<void> {
  const provider = services.settings().llm.provider;
  if (!services.trustGates().llmActive) return;
  if (await askLlmConsent(provider, services.context.globalState)) await services.reapply();
}

/**
 * The one composition root of the core: everything that lives as long as an open store — the
 * store, the models (embedder with its tracked state, extractor, reranker choice), the job worker
 * (embed / extract / hints), recall, sessions and feedback, maintenance and status. The extension,
 * the CLI, the benches and the tests all assemble the core through this class, so a setting means
 * the same thing in every host. It reaches the host only through the injected HostContext and plain
 * settings values; settings changes rebuild the pipeline around the open store (`reconfigure`).
 */
import { agentActivity, captureTurnsInTransaction, recentCaptures } from '../capture/agentCapture';
import type { AgentActivity, AgentCaptureInput, AgentCaptureReport, CapturedMemory } from '../capture/agentCaptureTypes';
import { noteInjected } from '../capture/agentSessionLedger';
import { MemoryError, userMessage } from '../errors';
import type { HostContext, LlmClient } from '../hostContext';
import type { Clock } from '../clock';
import { ingestMemories } from '../ingest/jsonlIngest';
import type { IngestResult } from '../ingest/jsonlIngest';
import { countJobs } from '../jobs/jobQueue';
import type { DrainStats } from '../jobs/jobWorker';
import { drainUntilSettled } from '../jobs/settle';
import type { SettleWait } from '../jobs/settle';
import { countMemories } from '../memory/memoryRecords';
import { defaultRememberDeps, remember } from '../memory/remember';
import type { RememberDeps, RememberInput, RememberResult } from '../memory/remember';
import type { RerankerSet } from '../models/rerankerSet';
import type { RecallDeps, RecallRequest } from '../recall/recallRequest';
import { recallDetailed, vectorIndexFor } from '../recall/recallService';
import { lexicalIndexFor } from '../recall/lexicalIndex';
import { trackedRecall } from '../sessions/recallTracking';
import type { RecallOutcome } from '../recall/recallService';
import type { RecallResult } from '../recall/recallTypes';
import type { FeedbackLoop } from '../sessions/feedbackLoop';
import type { MaintenanceService } from '../maintenance/maintenanceService';
import type { SessionService } from '../sessions/sessionService';
import { openStore } from '../store/openStore';
import type { DurableMemoryStore } from '../store/durableStore';
import { recallSearchConfig } from '../config/memorySettings';
import type { StoreConfig } from '../config/storeConfig';
import type { MemoryStore } from '../store/storeTypes';
import type { EngineSettings } from './engineConfig';
import type { EmbedderFactory } from './engineModels';
import type { WorkerScript } from '../models/modelWorkerClient';
import { buildEnginePipeline, startPipeline, stopPipeline } from './enginePipeline';
import type { EnginePipeline } from './enginePipeline';
import type { ModelState, TrackedEmbedder } from './trackedEmbedder';
import { resolveTeamConfig } from '../config/teamConfig';
import { recallConsultingTeam } from '../team/teamRecall';
import { TeamServerRecall } from '../team/teamServerRecall';
import type { ServerOpener } from '../team/teamServerRecall';
import { graphContext } from '../graph/graphApply';
import { openConflicts } from '../consolidation/conflictRecords';
import type { ConflictChoice, ConflictRecord } from '../consolidation/conflictRecords';
import { resolveConflictInTransaction } from '../consolidation/resolveConflict';
import type { ConflictResolution } from '../consolidation/resolveConflict';
import { listMaintenanceChanges, mergedInto, undoMaintenanceChange } from '../maintenance/maintenanceUndo';
import type { MaintenanceChange } from '../maintenance/maintenanceUndo';

/** Default longest `settle()` waits for background work before giving up (E_TIMEOUT). */
export const SETTLE_MAX_MS = 30 * 60_000;

export interface EngineOptions {
  /**
   * 'background' (a long-lived host: the job worker polls, idle sessions end, maintenance runs on
   * its schedule) or 'onDemand' (a short-lived host: jobs run only inside `settle()`).
   */
  readonly mode?: 'background' | 'onDemand';
  /** Replaces the configured embedding model (tests and benches pass a fake). */
  readonly embedder?: EmbedderFactory;
  /** Replaces the model worker script the configured embedding model runs in (tests, packaging). */
  readonly modelWorker?: WorkerScript;
  /** Store options (the CLI snapshots on close only when one is due). */
  readonly store?: Partial<StoreConfig>;
  /** Label in this process's job lease owner ("window", "cli"). */
  readonly leaseLabel?: string;
  readonly newId?: () => string;
  /** Replaces how recall connects to the team server for a partial replica (tests pass PGlite). */
  readonly teamServer?: ServerOpener;
}

export interface EngineStatus {
  readonly memories: number;
  readonly pendingJobs: number;
  readonly deadJobs: number;
  readonly model: ModelState;
  readonly llm: string | undefined;
  readonly storeDir: string;
  /** What opening (or a later repair) had to recover, with the exact loss (docs/store.md, "Recovery"). */
  readonly storeRecovery: { readonly message: string; readonly lostRecords: number; readonly lossExact: boolean } | undefined;
}

export interface SettleOptions {
  readonly maxWaitMs?: number;
  /** Told what the wait is for before each sleep (jobs other processes hold, retry backoff). */
  readonly onWait?: (wait: SettleWait) => void;
}

export class MemoryEngine<S extends MemoryStore = DurableMemoryStore> {
  private pipeline: EnginePipeline;
  private closed = false;
  /** The team server's side of recall for a partial replica (team.replica, docs/team.md "Partial replicas"). */
  private readonly teamRecall: TeamServerRecall;

  private constructor(readonly store: S, private readonly host: HostContext, private settings: EngineSettings, private readonly options: EngineOptions) {
    this.pipeline = this.build(host.llm);
    this.teamRecall = new TeamServerRecall({
      store, clock: host.clock, logger: host.logger, secrets: host.secrets, ...(options.teamServer ? { open: options.teamServer } : {}),
      context: () => ({ team: resolveTeamConfig(this.settings.team), jobs: this.settings.jobs, extract: this.settings.graphEnabled, embeddingModelId: this.embedder?.id }),
      onReplicated: () => this.poke(),
    });
    this.start();
  }

  /** Opens (creating if needed) the durable store at `host.paths.storeDir` and starts the engine on it. */
  static async open(host: HostContext, settings: EngineSettings, options: EngineOptions = {}): Promise<MemoryEngine> {
    const store = await openStore({ dir: host.paths.storeDir, logger: host.logger, clock: host.clock, ...(options.store ? { config: options.store } : {}) });
    return new MemoryEngine(store, host, settings, options);
  }

  /** Runs an engine on a store the caller opened (an in-memory store in benches and tests); close() closes it. */
  static onStore<T extends MemoryStore>(store: T, host: HostContext, settings: EngineSettings, options: EngineOptions = {}): MemoryEngine<T> {
    return new MemoryEngine(store, host, settings, options);
  }

  get loop(): FeedbackLoop { return this.pipeline.loop; }
  get sessions(): SessionService { return this.pipeline.loop.sessions; }
  get maintenance(): MaintenanceService { return this.pipeline.loop.maintenance; }
  get embedder(): TrackedEmbedder | undefined { return this.pipeline.embedding.embedder; }
  get llm(): LlmClient | undefined { return this.pipeline.llm; }
  get currentSettings(): EngineSettings { return this.settings; }
  /** The host's clock (hooks and adapters time their records with it, so tests can drive it). */
  nowMs(): number { return this.host.clock.now(); }
  /** The host's clock (adapters stamp their writes with it). */
  get clock(): Clock { return this.host.clock; }

  /** The configured head rerankers (models.rerankProvider), built with the pipeline. */
  get rerankers(): RerankerSet { return this.pipeline.rerankers; }

  /** What recall runs on: the search settings (graph stages off with the graph), clock, models. */
  recallDeps(): RecallDeps {
    const embedder = this.embedder;
    return { config: recallSearchConfig(this.settings), clock: this.host.clock, rerankers: this.pipeline.rerankers, ...(embedder ? { embedder } : {}) };
  }

  /**
   * Recall with timings, notes and the bookkeeping promise; `track: false` records nothing. With a
   * partial team replica (or a full one still catching up on its pull) it also asks the team
   * server, under team.serverRecallTimeoutMs, and merges the hits this store does not hold
   * (team/teamRecall.ts); a caught-up full replica never does.
   */
  recallDetailed(req: RecallRequest, options: { readonly explain?: boolean; readonly track?: boolean } = {}): Promise<RecallOutcome> {
    const deps = this.recallDeps();
    const explain = options.explain ?? true;
    // Recall itself only reads; the session layer records what it says to (sessions/recallTracking.ts).
    const local = (d: RecallDeps): Promise<RecallOutcome> => (options.track === false ? recallDetailed(this.store, req, d, explain) : trackedRecall(this.store, req, d, explain));
    return this.teamRecall.wanted() ? recallConsultingTeam(req, deps, this.teamRecall, explain, local) : local(deps);
  }

  async recall(req: RecallRequest, options: { readonly track?: boolean } = {}): Promise<RecallResult[]> {
    return (await this.recallDetailed(req, options)).items;
  }

  /** The write path's dependencies: which jobs a new memory queues follows the models and settings. */
  rememberDeps(): RememberDeps {
    const hints = this.pipeline.loop.config.hints.enabled && this.pipeline.llm !== undefined;
    return defaultRememberDeps(this.host.clock, { jobs: this.settings.jobs, enqueue: { embed: this.embedder !== undefined, extract: this.settings.graphEnabled, hints }, ...(this.options.newId ? { newId: this.options.newId } : {}) });
  }

  /** Remembers one memory and wakes the job worker. */
  async remember(input: RememberInput): Promise<RememberResult> {
    const r = await remember(this.store, input, this.rememberDeps());
    if (!r.duplicate) this.poke();
    return r;
  }

  /** Remembers many (JSONL ingest, imports) and wakes the job worker. */
  async ingest(inputs: readonly RememberInput[]): Promise<IngestResult> {
    const r = await ingestMemories(this.store, inputs, this.rememberDeps());
    this.poke();
    return r;
  }

  /**
   * Agent capture (docs/agents.md): the turns of one agent session, from a hook's transcript or
   * VS Code's chat history, through the junk guards into memories with provenance. Idempotent per
   * (sessionId, turn key) across harnesses; one transaction.
   */
  async captureTurns(input: AgentCaptureInput): Promise<AgentCaptureReport> {
    if (typeof input.sessionId !== 'string' || !input.sessionId.trim()) throw new MemoryError('E_INVALID_INPUT', 'Agent capture needs the session id.');
    if (typeof input.harness !== 'string' || !input.harness.trim()) throw new MemoryError('E_INVALID_INPUT', 'Agent capture needs the harness name.');
    if (!Array.isArray(input.turns)) throw new MemoryError('E_INVALID_INPUT', 'Agent capture needs the turns as a list.');
    const deps = { remember: this.rememberDeps(), capture: this.settings.capture, agents: this.settings.agents, extraction: this.settings.extraction };
    const r = await this.store.write('agent-capture', (db) => captureTurnsInTransaction(db, input, deps));
    if (r.stored > 0) this.poke();
    return r;
  }

  /**
   * Tells agent capture which memories a session was given (a hook's injection, @memory's or a
   * tool's answer): they are never captured back from that session (the echo guard), and a hook
   * never injects them into it again.
   */
  async recordInjection(input: { readonly harness: string; readonly sessionId: string; readonly memories: readonly { readonly id: string; readonly content: string }[] }): Promise<void> {
    if (!input.sessionId.trim()) throw new MemoryError('E_INVALID_INPUT', 'Recording an injection needs the session id.');
    const nowIso = new Date(this.host.clock.now()).toISOString();
    await this.store.write('agent-injection', (db) => noteInjected(db, input.harness, input.sessionId, input.memories, nowIso));
  }

  /** The latest captured memories, newest first (default 50). */
  async recentCaptures(opts: { readonly limit?: number } = {}): Promise<CapturedMemory[]> {
    return this.store.read((db) => recentCaptures(db, opts.limit ?? 50));
  }

  /** Per harness: last injection, last capture, captured today and in all. */
  async agentActivity(): Promise<AgentActivity[]> {
    const nowMs = this.host.clock.now();
    return this.store.read((db) => agentActivity(db, nowMs));
  }

  /**
   * Loads what the first recall would otherwise load while the user waits for it: the embedding
   * model (in its worker thread, so the host's event loop stays free) and the model's vector index
   * (docs/store.md, "the extension's first recall after window start"). Long-lived hosts call it
   * once after open; a failure is left for the first recall to report with its own message.
   * `lexicalIndexNow` builds the lexical index before returning instead of in background slices
   * (a process that only answers recalls, `recall --stdin`: until the index is complete FTS5
   * answers, and the slices run between queries, so the first few hundred answers at 100k
   * memories were the slowest; docs/store.md, "Recall latency, fourth round").
   */
  async warm(options: { readonly lexicalIndexNow?: boolean } = {}): Promise<void> {
    const embedder = this.embedder;
    if (this.closed) return;
    const model = embedder?.embed(['warm up']);
    if (embedder) this.store.read((db) => vectorIndexFor(this.store, embedder.id, embedder.dims).sync(db));
    // The model loads in its worker thread meanwhile.
    if (options.lexicalIndexNow) this.store.read((db) => lexicalIndexFor(this.store).sync(db));
    // Otherwise starts the lexical index's background build (src/core/recall/lexicalIndex.ts).
    else if (embedder) this.store.read((db) => lexicalIndexFor(this.store).current(db));
    await model;
  }

  /**
   * Conflicts maintenance proposed that nobody answered yet (docs/maintenance.md, "Conflicts"):
   * both memories side by side with their dates, and which one recall treats as current now.
   */
  conflicts(opts: { readonly limit?: number } = {}): ConflictRecord[] {
    return this.store.read((db) => openConflicts(db, opts.limit ?? 100));
  }

  /** A person's answer to a conflict: keep newer, keep older, or both are true (audited as actor `user`). */
  resolveConflict(conflictId: string, choice: ConflictChoice): Promise<ConflictResolution> {
    return this.store.write('conflict-resolve', (db) => resolveConflictInTransaction(db, graphContext({
      actor: 'user', reason: `conflict resolved: ${String(choice).replace(/-/g, ' ')}`, clock: this.host.clock, ...(this.options.newId ? { newId: this.options.newId } : {}),
    }), conflictId, choice));
  }

  /** What maintenance changed (merges), newest first; of one run when `runId` is given; each says whether it can still be undone. */
  maintenanceChanges(filter: { readonly runId?: string; readonly limit?: number } = {}): MaintenanceChange[] {
    return this.store.read((db) => listMaintenanceChanges(db, this.host.clock.now(), filter));
  }

  /** Undoes one maintenance change within its window (maintenanceUndo.ts); a clear error otherwise. */
  undoMaintenanceChange(changeId: string): Promise<MaintenanceChange> {
    return this.store.write('maintenance-undo', (db) => undoMaintenanceChange(db, graphContext({
      actor: 'user', reason: 'undo a maintenance change', clock: this.host.clock, ...(this.options.newId ? { newId: this.options.newId } : {}),
    }), this.host.clock.now(), changeId));
  }

  /** The live entity a removed entity was merged into, or undefined. */
  mergedInto(entityId: string): { readonly id: string; readonly name: string; readonly at: string } | undefined {
    return this.store.read((db) => mergedInto(db, entityId));
  }

  /** Wakes the job worker right after work was queued. */
  poke(): void { this.pipeline.worker.poke(); }

  /**
   * Resolves once every queued job of this engine's types is done (also those other processes
   * hold) and deferred writes (recall bookkeeping) are durable. Short-lived hosts call it to finish
   * their work; tests await it instead of polling.
   */
  async settle(options: SettleOptions = {}): Promise<DrainStats> {
    await this.teamRecall.flush();
    const stats = await drainUntilSettled(this.pipeline.worker, this.store, this.host.clock, { maxWaitMs: options.maxWaitMs ?? SETTLE_MAX_MS, ...(options.onWait ? { onWait: options.onWait } : {}) });
    await this.store.flushDeferred();
    return stats;
  }

  status(): EngineStatus {
    const { memories, jobs } = this.store.read((db) => ({ memories: countMemories(db), jobs: countJobs(db) }));
    const recovery = (this.store as Partial<Pick<DurableMemoryStore, 'recovery'>>).recovery;
    return {
      memories, pendingJobs: jobs.pending + jobs.leased, deadJobs: jobs.dead,
      model: this.pipeline.embedding.problem ?? this.embedder?.state ?? { state: 'missing', model: this.settings.models.embeddingModel, message: 'No embedding model.' },
      llm: this.pipeline.llm?.label, storeDir: this.store.dir,
      storeRecovery: recovery,
    };
  }

  /** Settings that need no rebuild (search, capture, tool confirmation). */
  updateSettings(settings: EngineSettings): void {
    this.settings = settings;
  }

  /** Applies new settings (and LLM client) by rebuilding the pipeline around the open store. */
  async reconfigure(settings: EngineSettings, llm: LlmClient | undefined): Promise<void> {
    await stopPipeline(this.pipeline);
    this.settings = settings;
    this.pipeline = this.build(llm);
    this.start();
  }

  /** Ends this host's sessions, stops the workers and models, and closes the store (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.teamRecall.close();
    await stopPipeline(this.pipeline, this.options.mode !== 'onDemand');
    await this.store.close();
  }

  private build(llm: LlmClient | undefined): EnginePipeline {
    return buildEnginePipeline({ store: this.store, host: this.host, settings: this.settings, llm, options: this.options });
  }

  private start(): void {
    if (this.options.mode === 'onDemand') return;
    const { logger } = this.host;
    startPipeline(this.pipeline, (e) => logger.warn(`session sweep: ${userMessage(e)}`));
  }
}

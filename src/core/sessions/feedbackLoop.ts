import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { DEFAULT_CONTRADICTION_CONFIG } from '../config/extractionConfig';
import { resolveFeedbackConfig } from '../config/feedbackConfig';
import type { FeedbackConfig } from '../config/feedbackConfig';
import { resolveGraphConfig } from '../config/graphConfig';
import type { GraphConfig } from '../config/graphConfig';
import { resolveHintsConfig } from '../config/hintsConfig';
import type { HintsConfig } from '../config/hintsConfig';
import { resolveJobsConfig } from '../config/jobsConfig';
import type { JobsConfig } from '../config/jobsConfig';
import { resolveMaintenanceConfig } from '../config/maintenanceConfig';
import type { MaintenanceConfig } from '../config/maintenanceConfig';
import { resolveSessionConfig } from '../config/sessionConfig';
import type { SessionConfig } from '../config/sessionConfig';
import { processFeedbackTelemetry } from '../feedback/feedbackTelemetry';
import type { FeedbackTelemetry } from '../feedback/feedbackTelemetry';
import type { LlmClient } from '../hostContext';
import type { Logger } from '../logger';
import { HintsJobs } from '../hints/hintsJobHandler';
import { createMaintenanceRegistry } from '../maintenance/maintenanceTasks';
import type { MaintenanceTask } from '../maintenance/maintenanceTypes';
import { compactStoreTask, duplicatesTask, isCompactable, reembedTask } from '../maintenance/moduleTasks';
import { seededRng } from '../consolidation/cluster';
import type { Embedder } from '../models/embedder';
import { MaintenanceService } from '../maintenance/maintenanceService';
import type { MemoryStore } from '../store/storeTypes';
import { graphPropagator } from './defaultResolvers';
import type { SessionCapture } from './sessionEnd';
import { SessionService } from './sessionService';

/**
 * One call that wires the feedback loop for a host (extension window, CLI): sessions, the hints
 * jobs and maintenance, from user settings (each clamped by its resolve*Config).
 */
export interface FeedbackLoopSettings {
  readonly session?: Partial<SessionConfig>;
  readonly feedback?: Partial<FeedbackConfig>;
  readonly hints?: Partial<HintsConfig>;
  readonly maintenance?: Partial<MaintenanceConfig>;
  readonly jobs?: Partial<JobsConfig>;
  readonly graph?: Partial<GraphConfig>;
  /** The knowledge graph feature switch (feedback runs only when it and feedback are on). Default true. */
  readonly graphEnabled?: boolean;
  /** The user's entity aliases (alias → canonical name) for the merge-entities task. */
  readonly aliases?: Readonly<Record<string, string>>;
}

export interface FeedbackLoop {
  readonly sessions: SessionService;
  readonly maintenance: MaintenanceService;
  /** Hints jobs' handler for the host's JobWorker and their status. */
  readonly hints: HintsJobs;
  readonly telemetry: FeedbackTelemetry;
  readonly config: { readonly session: SessionConfig; readonly feedback: FeedbackConfig; readonly hints: HintsConfig; readonly maintenance: MaintenanceConfig };
}

/** Seed of the clustering in the duplicates scan, so reports are reproducible. */
export const DUPLICATE_SCAN_SEED = 7;

export function createFeedbackLoop(host: {
  store: MemoryStore;
  clock: Clock;
  logger: Logger;
  llm: LlmClient | undefined;
  agentId?: string;
  capture?: SessionCapture;
  /** With an embedder, maintenance also re-embeds stale vectors and scans for duplicates and conflicts; a durable store adds compaction. */
  embedder?: Embedder;
  /** More tasks of other modules appended to the registry. */
  extraTasks?: readonly MaintenanceTask[];
  telemetry?: FeedbackTelemetry;
  newId?: () => string;
}, settings: FeedbackLoopSettings = {}): FeedbackLoop {
  const newId = host.newId ?? randomUUID;
  const telemetry = host.telemetry ?? processFeedbackTelemetry;
  const session = resolveSessionConfig(settings.session);
  const feedback = resolveFeedbackConfig(settings.feedback);
  const hints = resolveHintsConfig(settings.hints);
  const maintenance = resolveMaintenanceConfig(settings.maintenance);
  const jobs = resolveJobsConfig(settings.jobs);
  const graph = resolveGraphConfig(settings.graph);
  const graphEnabled = settings.graphEnabled ?? true;
  const sessions = new SessionService({
    store: host.store, clock: host.clock, logger: host.logger, llm: host.llm, session, feedback, hints, jobs, graphEnabled,
    agentId: host.agentId ?? 'default', propagate: graphPropagator(graph, DEFAULT_CONTRADICTION_CONFIG, newId), telemetry, newId,
    ...(host.capture ? { capture: host.capture } : {}),
  });
  const moduleTasks: MaintenanceTask[] = host.embedder
    ? [reembedTask(host.embedder), duplicatesTask({ embedder: host.embedder, llm: host.llm, graph, contradiction: DEFAULT_CONTRADICTION_CONFIG, rng: seededRng(DUPLICATE_SCAN_SEED) })]
    : [];
  if (isCompactable(host.store)) moduleTasks.push(compactStoreTask(host.store));
  const registry = createMaintenanceRegistry({ feedback, hints, jobs, graph, contradiction: DEFAULT_CONTRADICTION_CONFIG, maintenance, graphEnabled, telemetry, newId, ...(settings.aliases ? { aliases: settings.aliases } : {}) }, [...moduleTasks, ...(host.extraTasks ?? [])]);
  const maintenanceService = new MaintenanceService({ store: host.store, clock: host.clock, logger: host.logger, config: maintenance, registry, newId });
  return { sessions, maintenance: maintenanceService, hints: new HintsJobs({ config: hints, llm: host.llm }), telemetry, config: { session, feedback, hints, maintenance } };
}

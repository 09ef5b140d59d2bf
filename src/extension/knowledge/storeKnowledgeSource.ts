/**
 * The Knowledge panel's data source over the memory store. Pinning, entity health, feedback stats,
 * telemetry and recall come from their modules (src/core/pinning, predictor/entityHealth,
 * feedback/knowledgeStats, feedback/feedbackTelemetry, recall/recallService); the entity list and
 * detail views are in entityViews.ts over core/graph/knowledgeQueries.ts. vscode-free, so it is unit-tested on an in-memory store.
 */
import type { Clock } from '../../core/clock';
import { isoFromMs } from '../../core/clock';
import { DEFAULT_FEEDBACK_CONFIG } from '../../core/config/feedbackConfig';
import { knowledgeStats } from '../../core/feedback/knowledgeStats';
import type { FeedbackTelemetrySnapshot } from '../../core/feedback/feedbackTelemetry';
import { processFeedbackTelemetry } from '../../core/feedback/feedbackTelemetry';
import { pinEntity, unpinEntity } from '../../core/pinning/pinning';
import type { FocalEntities } from '../../core/pinning/pinnedFocal';
import { getEntityHealth } from '../../core/predictor/entityHealth';
import type { RecallDeps, RecallRequest } from '../../core/recall/recallRequest';
import type { RecallResult } from '../../core/recall/recallTypes';
import { recallDetailed } from '../../core/recall/recallService';
import type { Disposable, MemoryStore, SqlReader } from '../../core/store/storeTypes';
import { teamMarks } from '../../core/team/teamMarks';
import type { EntityDetail, EntityHealthView, FocalResolution, KnowledgeStats, RecallResultView } from '../../../src/shared/knowledgeProtocolTypes';
import { PROTOCOL_LIMITS } from '../../../src/shared/knowledgeProtocol';
import { entityNameAndPin, latestSessionFocal, listEntityTypes } from '../../core/graph/knowledgeQueries';
import { listEntityPage, readCounts, readEntityDetail } from './entityViews';
import type { HealthLookup } from './entityViews';
import type { EntityListQuery, EntityPage, KnowledgeDataSource } from './knowledgeDataSource';
import { explainContextOf, toRecallView } from './recallView';

/** The last focal-entity resolution this process made (for example by the session service). */
export interface FocalSnapshot {
  readonly focal: FocalEntities;
  readonly resolvedAt: string;
}

export interface StoreKnowledgeSourceOptions {
  readonly store: MemoryStore;
  readonly clock: Clock;
  /** Default 'default' (the store's agent scope). */
  readonly agentId?: string;
  /** Aspect weight bounds for "at max"/"at min" (default: the feedback config's). */
  readonly minAspectWeight?: number;
  readonly maxAspectWeight?: number;
  /** Feedback telemetry of this process; null before a session end reported (default: the process counters). */
  readonly telemetry?: () => FeedbackTelemetrySnapshot;
  /** Recall dependencies (config, embedder, reranker); the playground's recalls are not tracked. */
  readonly recallDeps?: Omit<RecallDeps, 'track'>;
  /** The playground's recall, untracked; the extension passes its engine's so it follows every settings change. */
  readonly recallUntracked?: (req: RecallRequest) => Promise<{ readonly items: readonly RecallResult[]; readonly teamReplicated?: Promise<void> }>;
  /** The last focal resolution of this process; without one the latest stored session's focal set is shown. */
  readonly lastFocal?: () => FocalSnapshot | undefined;
}

export class StoreKnowledgeSource implements KnowledgeDataSource {
  private readonly agentId: string;
  /** Cached per store version: any change (this window, another window, the CLI) drops them. */
  private health: Map<string, EntityHealthView> | undefined;
  private types: string[] | undefined;
  private readonly totals = new Map<string, number>();
  private readonly storeSub: Disposable;

  constructor(private readonly options: StoreKnowledgeSourceOptions) {
    this.agentId = options.agentId ?? 'default';
    this.storeSub = options.store.onDidChange(() => this.invalidate());
  }

  async listEntities(query: EntityListQuery): Promise<EntityPage> {
    return this.options.store.read((db) => listEntityPage(db, this.agentId, query, this.healthLookup(db), () => (this.types ??= listEntityTypes(db, this.agentId)), this.totals));
  }

  async entityDetail(id: string): Promise<EntityDetail | null> {
    return this.options.store.read((db) => readEntityDetail(db, this.agentId, id, this.healthLookup(db)));
  }

  async stats(): Promise<KnowledgeStats> {
    const { store, clock } = this.options;
    return store.read((db) => {
      const counts = readCounts(db, this.agentId);
      const f = knowledgeStats(db, {
        agentId: this.agentId,
        nowMs: clock.now(),
        minWeight: this.options.minAspectWeight ?? DEFAULT_FEEDBACK_CONFIG.minAspectWeight,
        maxWeight: this.options.maxAspectWeight ?? DEFAULT_FEEDBACK_CONFIG.maxAspectWeight,
      });
      const t = (this.options.telemetry ?? (() => processFeedbackTelemetry.snapshot()))();
      return {
        counts,
        feedback: {
          aspectsUpdatedLast7Days: f.aspectsUpdatedByFeedback,
          avgAspectWeight: f.aspectCount ? Math.min(1, Math.max(0, f.avgAspectWeight)) : null,
          aspectsAtMax: f.aspectsAtMax,
          aspectsAtMin: f.aspectsAtMin,
        },
        telemetry: t.lastRunAt === null ? null : { ...t },
      };
    });
  }

  async focal(): Promise<FocalResolution | null> {
    const snap = this.options.lastFocal?.();
    return this.options.store.read((db) => (snap ? this.fromSnapshot(db, snap) : this.fromLatestSession(db)));
  }

  async setPinned(id: string, pinned: boolean): Promise<void> {
    const nowIso = isoFromMs(this.options.clock.now());
    await this.options.store.write(pinned ? 'pin' : 'unpin', (db) => (pinned ? pinEntity(db, this.agentId, id, nowIso) : unpinEntity(db, this.agentId, id, nowIso)));
    this.invalidate(); // the store's change event is asynchronous; the caller re-reads right away
  }

  async recall(query: string, limit: number): Promise<readonly RecallResultView[]> {
    const req = { query, limit: Math.min(limit, PROTOCOL_LIMITS.recallLimitMax) };
    const deps: RecallDeps = { clock: this.options.clock, ...this.options.recallDeps, track: false };
    const outcome = this.options.recallUntracked ? await this.options.recallUntracked(req) : await recallDetailed(this.options.store, req, deps, true);
    // A partial team replica's server hits are being copied into the store: their marks come from there.
    await outcome.teamReplicated;
    const marks = this.options.store.read((db) => teamMarks(db, outcome.items.map((r) => r.id)));
    const ctx = explainContextOf(outcome.items);
    return outcome.items.map((r) => toRecallView(r, marks.get(r.id) ?? null, ctx));
  }

  onDidChange(listener: () => void): Disposable {
    return this.options.store.onDidChange(() => listener());
  }

  dispose(): void {
    this.storeSub.dispose();
  }

  private invalidate(): void {
    this.health = undefined;
    this.types = undefined;
    this.totals.clear();
  }

  private healthLookup(db: SqlReader): HealthLookup {
    if (!this.health) {
      this.health = new Map(getEntityHealth(db, this.agentId).map((h) => [h.entityId, {
        comparisonCount: h.comparisonCount, winRate: clamp(h.winRate, 0, 1), avgMargin: clamp(h.avgMargin, -1, 1), trend: h.trend,
      }]));
    }
    const map = this.health;
    return (id) => map.get(id) ?? null;
  }

  private fromSnapshot(db: SqlReader, snap: FocalSnapshot): FocalResolution {
    const pinned = new Set(snap.focal.pinnedEntityIds);
    return {
      source: snap.focal.source || 'unknown',
      resolvedAt: snap.resolvedAt,
      entities: snap.focal.entityIds.slice(0, PROTOCOL_LIMITS.focalMax).map((id, i) => ({ id, name: snap.focal.entityNames[i] || this.nameOf(db, id), pinned: pinned.has(id) })),
    };
  }

  /** The focal set stored with the newest session (its source is not stored, so it says so). */
  private fromLatestSession(db: SqlReader): FocalResolution | null {
    const stored = latestSessionFocal(db, this.agentId);
    if (!stored) return null;
    return {
      source: 'session start (stored)',
      resolvedAt: stored.startedAt,
      entities: stored.entityIds.slice(0, PROTOCOL_LIMITS.focalMax).map((id) => {
        const e = entityNameAndPin(db, id);
        return { id, name: e?.name || id, pinned: e?.pinned ?? false };
      }),
    };
  }

  private nameOf(db: SqlReader, id: string): string {
    return entityNameAndPin(db, id)?.name || id;
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : 0;
}

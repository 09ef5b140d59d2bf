/**
 * Types of the Knowledge panel protocol (host ⇄ webview). The decoders in knowledgeProtocol.ts are typed
 * against these interfaces, so a field added here without a validator does not compile.
 */

export type HealthTrend = 'improving' | 'stable' | 'declining';

/** Per-entity predictor health; absent when too few comparisons. */
export interface EntityHealthView {
  readonly comparisonCount: number;
  readonly winRate: number;
  readonly avgMargin: number;
  readonly trend: HealthTrend;
}

/** One row of the entity list. */
export interface EntitySummary {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly pinned: boolean;
  readonly pinnedAt: string | null;
  readonly mentions: number;
  readonly aspects: number;
  readonly attributes: number;
  readonly constraints: number;
  readonly relations: number;
  readonly health: EntityHealthView | null;
}

/**
 * A memory shared through team memory (docs/team.md): a teammate's replica (`mine` false, `author`
 * their PostgreSQL role) or one of this store's own shared memories (`mine` true).
 */
export interface TeamMarkView {
  readonly author: string | null;
  readonly mine: boolean;
}

export type AttributeKind = 'attribute' | 'constraint';
export type AttributeStatus = 'active' | 'superseded' | 'deleted';

export interface AttributeView {
  readonly id: string;
  readonly kind: AttributeKind;
  readonly status: AttributeStatus;
  readonly importance: number;
  readonly content: string;
  readonly supersededBy: string | null;
  /** Structured currentness: "220 since 2026-09-18; was 180 (2026-08-04)", or "Was current …; now: …". */
  readonly currentnessNote: string | null;
  /** When the claim was made (its source memory's time), ISO. */
  readonly observedAt: string | null;
  /** The sentence(s) the claim came from (its memory, cut), shown as its source. */
  readonly source: string | null;
  /** Set when the attribute's memory is a team memory; null for personal ones. */
  readonly team: TeamMarkView | null;
}

export interface AspectView {
  readonly id: string;
  readonly name: string;
  readonly weight: number;
  readonly updatedAt: string | null;
  readonly attributes: readonly AttributeView[];
}

export type RelationDirection = 'outgoing' | 'incoming';

export interface RelationView {
  readonly id: string;
  readonly direction: RelationDirection;
  readonly relationType: string;
  readonly otherId: string;
  readonly otherName: string;
  readonly strength: number;
  readonly confidence: number;
  readonly mentions: number;
}

export interface EntityDetail {
  readonly summary: EntitySummary;
  readonly canonicalName: string;
  readonly description: string | null;
  readonly updatedAt: string | null;
  /** Sorted by weight, heaviest first (the host sorts; the webview keeps the order). */
  readonly aspects: readonly AspectView[];
  /** Attributes with no aspect yet (unclassified stubs). */
  readonly unassigned: readonly AttributeView[];
  readonly relations: readonly RelationView[];
}

export interface KnowledgeCounts {
  readonly memories: number;
  readonly entities: number;
  readonly pinned: number;
  readonly aspects: number;
  readonly attributes: number;
  readonly constraints: number;
  readonly relations: number;
}

/** The Knowledge tab's stats card: computed from entity_aspects. */
export interface FeedbackStats {
  readonly aspectsUpdatedLast7Days: number;
  /** null when there are no aspects. */
  readonly avgAspectWeight: number | null;
  readonly aspectsAtMax: number;
  readonly aspectsAtMin: number;
}

/** Session-end feedback telemetry, accumulated in-process since activation. */
export interface FeedbackTelemetry {
  readonly feedbackAspectsUpdated: number;
  readonly feedbackFtsConfirmations: number;
  readonly feedbackDecayedAspects: number;
  readonly feedbackPropagatedAttributes: number;
  readonly lastRunAt: string | null;
}

export interface KnowledgeStats {
  readonly counts: KnowledgeCounts;
  readonly feedback: FeedbackStats;
  /** null when the feedback loop has not reported in this process. */
  readonly telemetry: FeedbackTelemetry | null;
}

export interface FocalEntityView {
  readonly id: string;
  readonly name: string;
  readonly pinned: boolean;
}

/** The last focal-entity resolution. */
export interface FocalResolution {
  readonly source: string;
  readonly resolvedAt: string | null;
  readonly entities: readonly FocalEntityView[];
}

export interface ExplainScore {
  readonly name: string;
  readonly value: number;
  /** How the value applies: a channel score, an additive delta, or a multiplicative factor. */
  readonly op: 'score' | 'add' | 'multiply';
}

/** "Why was this recalled": the score breakdown of one recall result. */
export interface RecallExplain {
  readonly channels: readonly ExplainScore[];
  readonly boosts: readonly ExplainScore[];
  readonly penalties: readonly ExplainScore[];
  readonly notes: readonly string[];
  /** The explanation in plain words, one line per ranking step that changed the score (src/core/recall/explainText.ts). */
  readonly lines: readonly string[];
}

export interface RecallResultView {
  readonly id: string;
  readonly content: string;
  readonly score: number;
  /** 0–1: the score relative to the best result of the same recall (the first result is 1). */
  readonly relevance: number;
  readonly memoryType: string;
  readonly createdAt: string | null;
  /**
   * Set when the currentness stage found the memory replaced (src/core/recall/currentness.ts):
   * the card says so up front instead of only in "Why was this recalled?".
   */
  readonly stale: { readonly status: 'superseded' | 'partly-superseded'; readonly replacement: string | null } | null;
  readonly explain: RecallExplain | null;
  /** Set when the memory is a team memory; null for personal ones. */
  readonly team: TeamMarkView | null;
}

export type ErrorScope = 'list' | 'detail' | 'pin' | 'recall' | 'stats' | 'focal' | 'action' | 'captures';

/** 'retired': marked wrong or outdated (kept as history, out of recall); 'superseded': a newer memory replaced it. */
export type CaptureStatus = 'active' | 'retired' | 'superseded';

/** One memory captured from an agent conversation (hooks, VS Code chat history): the Captured tab's row. */
export interface CapturedMemoryView {
  readonly id: string;
  readonly content: string;
  /** Harness id (`claude-code`, `vscode`, `copilot`, `vscode-chat-history`) and its label. */
  readonly harness: string;
  readonly harnessLabel: string;
  readonly sessionId: string;
  readonly turnKey: string;
  /** ISO time of the capture. */
  readonly capturedAt: string;
  readonly project: string | null;
  readonly status: CaptureStatus;
}

export type CaptureAction = 'forget' | 'markWrong';

/** One side of a proposed conflict: a memory with its date (issue #27, "Conflicts a person can resolve"). */
export interface ConflictSideView {
  readonly id: string;
  readonly content: string;
  readonly createdAt: string;
}

/** A conflict maintenance proposed and nobody answered yet: both memories side by side. */
export interface ConflictView {
  readonly id: string;
  readonly older: ConflictSideView;
  readonly newer: ConflictSideView;
  /** The detector's reason in words ("decision change", "value change", "contradiction"). */
  readonly reason: string;
  /** Which one recall treats as current now (the extractor may already have decided). */
  readonly current: 'newer' | 'older' | 'both';
}

export type ConflictChoiceView = 'keep-newer' | 'keep-older' | 'both-true';

/** An entity the list showed that was merged into another one since ("X was merged into Y"). */
export interface MergedAwayView {
  readonly id: string;
  readonly name: string;
  readonly intoId: string;
  readonly intoName: string;
  readonly at: string;
}


/** Host → webview. */
export type HostMessage =
  | {
    readonly type: 'page';
    /** Echo of the request that produced it; 0 for pushes the host starts itself. */
    readonly requestId: number;
    readonly query: string;
    readonly entityType: string | null;
    readonly offset: number;
    readonly total: number;
    /** Replace every loaded row (the order changed); otherwise merge this slice. */
    readonly reset: boolean;
    readonly entities: readonly EntitySummary[];
    readonly types: readonly string[];
  }
  | { readonly type: 'delta'; readonly total: number; readonly upserts: readonly EntitySummary[]; readonly removed: readonly string[] }
  | { readonly type: 'detail'; readonly id: string; readonly detail: EntityDetail | null }
  | { readonly type: 'stats'; readonly stats: KnowledgeStats }
  | { readonly type: 'focal'; readonly focal: FocalResolution | null }
  | { readonly type: 'recallResult'; readonly requestId: number; readonly query: string; readonly tookMs: number; readonly results: readonly RecallResultView[] }
  | { readonly type: 'select'; readonly id: string }
  /**
   * Show why one memory was recalled for a question asked elsewhere (the @memory answer's "why?"
   * link): the Recall tab shows that recall's results with `focusId`'s explanation open.
   */
  | { readonly type: 'explainRecall'; readonly query: string; readonly focusId: string; readonly tookMs: number; readonly results: readonly RecallResultView[] }
  | { readonly type: 'error'; readonly scope: ErrorScope; readonly message: string }
  /** The Captured tab's list, newest first (sent while the tab shows, and after each store change). */
  | { readonly type: 'captures'; readonly captures: readonly CapturedMemoryView[]; readonly capturedToday: number; readonly limit: number }
  /** What a Forget or Wrong/outdated did, in words (the tab announces it). */
  | { readonly type: 'captureDone'; readonly id: string; readonly action: CaptureAction; readonly message: string }
  /** The conflicts to review (reviewController.ts); `notice` says what the last answer did. */
  | { readonly type: 'conflicts'; readonly conflicts: readonly ConflictView[]; readonly notice: string | null }
  | { readonly type: 'mergedAway'; readonly items: readonly MergedAwayView[] };

export type CopyWhat = 'name' | 'id' | 'json';

export type PanelSection = 'entities' | 'recall' | 'overview' | 'captured';

/** Webview → host. */
export type WebviewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'refresh' }
  | { readonly type: 'search'; readonly query: string; readonly entityType: string | null }
  | { readonly type: 'requestPage'; readonly requestId: number; readonly offset: number; readonly limit: number }
  | { readonly type: 'selectEntity'; readonly id: string }
  | { readonly type: 'setPinned'; readonly id: string; readonly pinned: boolean }
  | { readonly type: 'recall'; readonly requestId: number; readonly query: string; readonly limit: number }
  | { readonly type: 'openInTree'; readonly id: string }
  | { readonly type: 'copy'; readonly id: string; readonly what: CopyWhat }
  /** Which section the user sees: stats and focal entities are only re-read while the overview shows. */
  | { readonly type: 'showSection'; readonly section: PanelSection }
  /** Captured tab: forget (delete for good) or mark wrong/outdated (retire, keep history, negative feedback). */
  | { readonly type: 'captureAction'; readonly id: string; readonly action: CaptureAction }
  /** A person's answer to a proposed conflict (reviewController.ts). */
  | { readonly type: 'resolveConflict'; readonly id: string; readonly choice: ConflictChoiceView };
